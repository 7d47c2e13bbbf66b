/**
 * Builds the MCP Apps views into dist/views/, one self-contained HTML file each: vite-plugin-singlefile
 * inlines the script and the styles, because a host loads a view from a `ui://` resource's text, where
 * no second file can be fetched. Every `views/<name>.html` is a view, built to `dist/views/<name>.html`
 * (its script, e.g. `views/<name>/main.ts`, may live anywhere under views/): adding one needs no edit
 * here. Runs after rolldown in `pnpm build`; `src/resources/views.ts` serves the files, each under the
 * `ui://` URI its entry there names. Usage: node views/build.mjs [outDir]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The views: every `*.html` file of this folder, sorted; each name is a file `src/resources/views.ts` reads. */
export function listViews(dir = HERE) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => entry.name)
    .sort();
}

/** Builds every view into `outDir`, after removing what a previous build left there. */
export async function buildViews(outDir = path.join(HERE, '..', 'dist', 'views')) {
  const views = listViews();
  if (views.length === 0) throw new Error(`no views/*.html in ${HERE}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  // singlefile inlines one entry's chunks, so each view is its own build.
  for (const view of views) {
    await build({
      root: HERE,
      configFile: false,
      // No .env file and no env prefix reach a view: it is sent to every client that reads it.
      envDir: false,
      envPrefix: 'MCP_VIEW_NEVER_',
      logLevel: 'warn',
      plugins: [viteSingleFile()],
      build: {
        outDir,
        emptyOutDir: false,
        rollupOptions: { input: path.join(HERE, view) },
      },
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildViews(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
