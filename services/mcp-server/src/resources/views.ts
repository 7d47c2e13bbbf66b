/**
 * @module resources/views
 * The MCP Apps views (`io.modelcontextprotocol/ui`), found rather than listed: a folder under
 * `views/` that holds a `main.ts` is a view, and its path is its URI. `views/weather/forecast/` is
 * `ui://weather/forecast` (for `get_weather`), `views/tasks/board/` is `ui://tasks/board` (for
 * `list_tasks`), and `pnpm new-tool <name> --view` adds `views/workshop/<name>/`. `views/build.mjs`
 * builds each, by the same rule, into one self-contained HTML file in `dist/views/`; this module
 * serves it, titled after its folder, with its Content Security Policy in `_meta.ui.csp`. A tool
 * names its view in its `ui: { resourceUri }`. Test: `views.test.ts`.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';

/** The weather view, `views/weather/forecast/`: the one that may reach outside origins (Open-Meteo's). */
export const WEATHER_VIEW_URI = 'ui://weather/forecast';
/** The task board, `views/tasks/board/`. */
export const TASK_BOARD_URI = 'ui://tasks/board';
export const VIEW_MIME_TYPE = RESOURCE_MIME_TYPE;

/**
 * The built views. `src/resources/` (vitest) and `dist/resources/` (node, and the bundle, see
 * rolldown.config.mjs) are both two levels below the package, so one relative URL serves both.
 */
export const DEFAULT_VIEWS_DIR = fileURLToPath(new URL('../../dist/views/', import.meta.url));
/** The views' sources, where a deployment has them (the built files alone name the views too). */
export const VIEW_SOURCES_DIR = fileURLToPath(new URL('../../views/', import.meta.url));

/** A view is a few hundred kB at most (the App class and a little DOM code); more is not a view. */
export const MAX_VIEW_BYTES = 1024 * 1024;

export interface ViewOptions {
  /** Where the built views are; defaults to `DEFAULT_VIEWS_DIR`. Tests point it elsewhere. */
  dir?: string;
  /** Where the views' sources are; defaults to `VIEW_SOURCES_DIR`. Tests point it elsewhere. */
  sources?: string;
  /**
   * Origins the weather view may connect to, from `weatherViewDomains()`: none with the offline
   * dataset, Open-Meteo's with that provider on. No other view ever gets any.
   */
  weatherConnectDomains?: readonly string[];
}

/** Thrown when a view's HTML is missing, unreadable or not a view: a bug in the deployment, not the caller's. */
export class ViewNotBuiltError extends Error {
  constructor(
    readonly file: string,
    problem = 'is missing or unreadable',
    options?: ErrorOptions,
  ) {
    // The client reads this message: the file's name, never the server's folders.
    super(
      `The MCP Apps view ${path.basename(file)} ${problem}: run pnpm build in services/mcp-server.`,
      options,
    );
    this.name = new.target.name;
  }
}

/** One view, as its folder names it. */
export interface View {
  /** `ui://weather/forecast` */
  uri: string;
  /** The resource's name in resources/list: `weather-forecast`. */
  name: string;
  /** `Weather forecast view` */
  title: string;
  description: string;
  /** The file `views/build.mjs` writes into the built views' folder: `weather.forecast.html`. */
  file: string;
}

/** One folder name of a view's path, as `views/build.mjs` allows it. */
const SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function viewAt(segments: readonly string[]): View {
  const words = segments.join(' ').replaceAll('-', ' ');
  return {
    uri: `ui://${segments.join('/')}`,
    name: segments.join('-'),
    title: `${words.charAt(0).toUpperCase()}${words.slice(1)} view`,
    description: `An MCP Apps view, built from views/${segments.join('/')}/: hosts draw in it the results of the tools that name it.`,
    file: `${segments.join('.')}.html`,
  };
}

/** The folders under `sources` (two deep or more) that hold a `main.ts`; none when there is no such folder. */
function sourceViews(sources: string): string[][] {
  const found: string[][] = [];
  const visit = (segments: string[]): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(sources, ...segments), { withFileTypes: true });
    } catch {
      return; // a deployment without the sources: the built files say which views there are
    }
    if (segments.length >= 2 && entries.some((entry) => entry.isFile() && entry.name === 'main.ts')) {
      found.push(segments);
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && SEGMENT.test(entry.name)) visit([...segments, entry.name]);
    }
  };
  visit([]);
  return found;
}

/** The views `views/build.mjs` built into `dir`: `weather.forecast.html` is `weather/forecast`. */
function builtViews(dir: string): string[][] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files
    .filter((file) => file.endsWith('.html'))
    .map((file) => file.slice(0, -'.html'.length).split('.'))
    .filter((segments) => segments.length >= 2 && segments.every((segment) => SEGMENT.test(segment)));
}

/**
 * Every view, sorted by URI: each folder under `sources` with a `main.ts`, built or not (its read
 * then says to build it), and each view built into `dir`, which is all a deployment without the
 * sources has. `views/build.mjs`'s `listViews` finds the same folders; `views.test.ts` checks it.
 */
export function findViews(options: Pick<ViewOptions, 'dir' | 'sources'> = {}): View[] {
  const views = new Map<string, View>();
  for (const segments of [
    ...sourceViews(options.sources ?? VIEW_SOURCES_DIR),
    ...builtViews(options.dir ?? DEFAULT_VIEWS_DIR),
  ]) {
    const view = viewAt(segments);
    views.set(view.uri, view);
  }
  return [...views.values()].sort((a, b) => a.uri.localeCompare(b.uri));
}

/**
 * `findViews` once per pair of folders: a server instance is built per session (or per request),
 * and the views do not change while the process runs (`pnpm dev` loads this module afresh on a save).
 */
const found = new Map<string, View[]>();
function knownViews(options: ViewOptions): View[] {
  const key = `${options.sources ?? VIEW_SOURCES_DIR}\0${options.dir ?? DEFAULT_VIEWS_DIR}`;
  let views = found.get(key);
  if (!views) {
    views = findViews(options);
    found.set(key, views);
  }
  return views;
}

/** The weather view's outside origins: none offline, else the origins of the two Open-Meteo URLs. */
export function weatherViewDomains(settings: {
  provider: 'offline' | 'open-meteo';
  geocodingUrl: string;
  forecastUrl: string;
}): string[] {
  if (settings.provider !== 'open-meteo') return [];
  return [...new Set([new URL(settings.geocodingUrl).origin, new URL(settings.forecastUrl).origin])];
}

/** A view's CSP: no outside origin, except the weather view's when its provider is online. */
function cspOf(view: View, options: ViewOptions): McpUiResourceCsp {
  const connectDomains = view.uri === WEATHER_VIEW_URI ? [...(options.weatherConnectDomains ?? [])] : [];
  return { connectDomains, resourceDomains: [] };
}
/**
 * Reads `file` once, at the first `resources/read`, and keeps it: the views do not change while the
 * process runs. A failed read is not kept, so a build finished later is picked up.
 */
function cachedHtml(file: string): () => Promise<string> {
  let html: Promise<string> | undefined;
  return () => {
    html ??= readView(file).catch((error: unknown) => {
      html = undefined;
      throw error;
    });
    return html;
  };
}

async function readView(file: string): Promise<string> {
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    throw new ViewNotBuiltError(file, undefined, { cause: error });
  }
  if (buffer.byteLength > MAX_VIEW_BYTES) {
    throw new ViewNotBuiltError(file, `is larger than ${MAX_VIEW_BYTES} bytes, so it is no view of ours`);
  }
  return buffer.toString('utf8');
}

export function registerViewResources(server: McpServer, options: ViewOptions = {}): void {
  const dir = options.dir ?? DEFAULT_VIEWS_DIR;
  for (const view of knownViews(options)) {
    const html = cachedHtml(path.join(dir, view.file));
    // The CSP sits both on the listing (what a host reviews up front) and on the content (what it applies).
    const _meta = { ui: { csp: cspOf(view, options) } };
    registerAppResource(
      server,
      view.name,
      view.uri,
      { title: view.title, description: view.description, _meta },
      async () => ({
        contents: [{ uri: view.uri, mimeType: VIEW_MIME_TYPE, text: await html(), _meta }],
      }),
    );
  }
}
