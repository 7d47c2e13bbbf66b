/**
 * Builds the MCP Apps views into dist/views/, one self-contained HTML file each: vite-plugin-singlefile
 * inlines the script and the styles, because a host loads a view from a `ui://` resource's text, where
 * no second file can be fetched.
 *
 * A view is a folder under views/ that holds a `main.ts`, and its path is its URI: the script
 * `views/weather/forecast/main.ts` is the view `ui://weather/forecast`, built to
 * `dist/views/weather.forecast.html`. A folder may keep its own page beside it (`index.html`); without
 * one the view gets the page below, an empty `<main id="view">` that its script fills. Adding a view
 * needs no edit here nor anywhere else: `src/resources/views.ts` serves every view by the same rule.
 * Usage: node views/build.mjs [outDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** One folder name of a view's path: lower case, digits and single dashes, so it is safe in a URI and a file name. */
const SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * @typedef {object} View
 * @property {string} path   the folder under views/, with `/`: `weather/forecast`
 * @property {string} uri    `ui://weather/forecast`
 * @property {string} file   the built file in dist/views: `weather.forecast.html`
 * @property {string} title  `Weather forecast`, from the folder's path
 * @property {string} dir    the folder, absolute
 * @property {string | undefined} page  its own `index.html`, when it has one
 */

/**
 * The views: every folder under `dir` (at least two deep) that holds a `main.ts`, sorted by path.
 * The same rule as `findViews` in `src/resources/views.ts`, which serves them; `views.test.ts` checks
 * that the two agree. Throws for a folder whose name cannot be part of a `ui://` URI.
 * @returns {View[]}
 */
export function listViews(dir = HERE) {
  /** @type {View[]} */
  const views = [];
  /** @param {string[]} segments */
  const visit = (segments) => {
    const folder = path.join(dir, ...segments);
    const entries = fs.readdirSync(folder, { withFileTypes: true });
    if (segments.length > 0 && entries.some((entry) => entry.isFile() && entry.name === 'main.ts')) {
      const relative = segments.join('/');
      const bad = segments.find((segment) => !SEGMENT.test(segment));
      if (bad !== undefined) {
        throw new Error(
          `views/${relative}/main.ts: "${bad}" cannot be part of a ui:// URI; name the folder with a-z, 0-9 and dashes`,
        );
      }
      if (segments.length < 2) {
        throw new Error(
          `views/${relative}/main.ts: a view's folder is two deep, views/<group>/<name>/ for ui://<group>/<name>, e.g. views/workshop/${relative}/`,
        );
      }
      const page = path.join(folder, 'index.html');
      views.push({
        path: relative,
        uri: `ui://${relative}`,
        file: `${segments.join('.')}.html`,
        title: titleOf(segments),
        dir: folder,
        page: fs.existsSync(page) ? page : undefined,
      });
      return; // a view's subfolders are its own code
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
        visit([...segments, entry.name]);
    }
  };
  visit([]);
  return views.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * `weather/forecast` → `Weather forecast`.
 * @param {string[]} segments
 */
function titleOf(segments) {
  const words = segments.join(' ').replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The page of a view without its own `index.html`: the shared styles, an empty `<main id="view">`
 * for its script to fill, the status line `views/shared/app.ts` writes to, and the script.
 * @param {View} view
 */
export function defaultPage(view) {
  const shared = path.relative(view.dir, path.join(HERE, 'shared')).split(path.sep).join('/');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${view.title}</title>
    <link rel="stylesheet" href="${shared}/style.css" />
  </head>
  <body>
    <main id="view" class="card" data-testid="view" aria-live="polite"></main>
    <p id="status" class="status" role="status" data-testid="status"></p>
    <script type="module" src="./main.ts"></script>
  </body>
</html>
`;
}

/**
 * Serves `html` as the file `page` (which does not exist), so vite builds it like a page on disk.
 * @param {string} page
 * @param {string} html
 * @returns {import('vite').Plugin}
 */
function virtualPage(page, html) {
  return {
    name: 'mcp-workshop-default-view-page',
    enforce: 'pre',
    resolveId: (id) => (id === page ? page : undefined),
    load: (id) => (id === page ? html : undefined),
  };
}

/** Builds every view into `outDir`, after removing what a previous build left there. */
export async function buildViews(outDir = path.join(HERE, '..', 'dist', 'views')) {
  const views = listViews();
  if (views.length === 0) throw new Error(`no view (a folder with a main.ts) under ${HERE}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  const work = path.join(outDir, '.build');
  // singlefile inlines one entry's chunks, so each view is its own build.
  for (const view of views) {
    const page = view.page ?? path.join(view.dir, 'index.html');
    await build({
      root: HERE,
      configFile: false,
      publicDir: false,
      // No .env file and no env prefix reach a view: it is sent to every client that reads it.
      envDir: false,
      envPrefix: 'MCP_VIEW_NEVER_',
      logLevel: 'warn',
      plugins: [...(view.page ? [] : [virtualPage(page, defaultPage(view))]), viteSingleFile()],
      build: {
        outDir: work,
        emptyOutDir: true,
        rollupOptions: { input: page },
      },
    });
    // vite writes the page where it sits under views/ (weather/forecast/index.html): one flat file instead.
    fs.renameSync(path.join(work, view.path, 'index.html'), path.join(outDir, view.file));
  }
  fs.rmSync(work, { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildViews(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
