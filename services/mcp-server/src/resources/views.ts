/**
 * @module resources/views
 * The MCP Apps views (`io.modelcontextprotocol/ui`): `ui://weather/forecast` for `get_weather` and
 * `ui://tasks/board` for `list_tasks`, each one self-contained HTML file that `views/build.mjs` builds
 * into `dist/views/`. Each declares its Content Security Policy in `_meta.ui.csp`. Test: `views.test.ts`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';

export const WEATHER_VIEW_URI = 'ui://weather/forecast';
export const TASK_BOARD_URI = 'ui://tasks/board';
export const VIEW_MIME_TYPE = RESOURCE_MIME_TYPE;

/**
 * The built views. `src/resources/` (vitest) and `dist/resources/` (node, and the bundle, see
 * rolldown.config.mjs) are both two levels below the package, so one relative URL serves both.
 */
export const DEFAULT_VIEWS_DIR = fileURLToPath(new URL('../../dist/views/', import.meta.url));

/** A view is a few hundred kB at most (the App class and a little DOM code); more is not a view. */
export const MAX_VIEW_BYTES = 1024 * 1024;

export interface ViewOptions {
  /** Where the built views are; defaults to `DEFAULT_VIEWS_DIR`. Tests point it elsewhere. */
  dir?: string;
  /**
   * Origins the weather view may connect to, from `weatherViewDomains()`: none with the offline
   * dataset, Open-Meteo's with that provider on. The task board never needs any.
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

interface ViewSpec {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** The file `views/build.mjs` writes into the views folder. */
  file: string;
  csp: McpUiResourceCsp;
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

function viewSpecs(options: ViewOptions): ViewSpec[] {
  return [
    {
      uri: WEATHER_VIEW_URI,
      name: 'weather-forecast',
      title: 'Weather forecast view',
      description: 'Interactive card for get_weather results: current conditions, forecast, °C/°F toggle.',
      file: 'weather-forecast.html',
      csp: { connectDomains: [...(options.weatherConnectDomains ?? [])], resourceDomains: [] },
    },
    {
      uri: TASK_BOARD_URI,
      name: 'task-board',
      title: 'Task board view',
      description: 'Interactive board for list_tasks results, with complete and delete buttons.',
      file: 'task-board.html',
      csp: { connectDomains: [], resourceDomains: [] },
    },
  ];
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
  for (const view of viewSpecs(options)) {
    const html = cachedHtml(path.join(dir, view.file));
    // The CSP sits both on the listing (what a host reviews up front) and on the content (what it applies).
    const _meta = { ui: { csp: view.csp } };
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
