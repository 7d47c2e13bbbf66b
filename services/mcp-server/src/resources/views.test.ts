/**
 * The `ui://` view resources: the views are found from `views/` (a folder with a `main.ts`, its
 * path the URI), by the same rule `views/build.mjs` builds them; every view a tool names
 * (`_meta.ui.resourceUri`), whichever tools `tools/index.ts` registers, is listed, reads as one
 * self-contained MCP Apps document, and keeps its CSP; every view built is served. A view added
 * with `pnpm new-tool <name> --view` is checked like the workshop's own, with no edit here.
 * Partner: `tools/tool-views.test.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectInProcess, type InProcessConnection } from '@mcp-workshop/mcp-host/in-process';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectInMemory, testDeps } from '../test-support/in-memory.js';
import { DEFAULT_FORECAST_URL, DEFAULT_GEOCODING_URL } from '../weather/open-meteo.js';
import {
  DEFAULT_VIEWS_DIR,
  findViews,
  MAX_VIEW_BYTES,
  registerViewResources,
  TASK_BOARD_URI,
  VIEW_MIME_TYPE,
  VIEW_SOURCES_DIR,
  type ViewOptions,
  WEATHER_VIEW_URI,
  weatherViewDomains,
} from './views.js';

/** The views the registered tools name, in tools/list order; tools/list needs no task store. */
async function viewUrisOfTools(): Promise<string[]> {
  const conn = await connectInMemory(testDeps());
  try {
    const { tools } = await conn.client.listTools();
    const uris = tools.map((tool) => (tool._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri);
    return [...new Set(uris.filter((uri): uri is string => typeof uri === 'string'))];
  } finally {
    await conn.close();
  }
}

/** Every view the catalogue offers, the workshop's two and any added since. */
const VIEW_URIS = await viewUrisOfTools();
const OPEN_METEO = {
  provider: 'open-meteo' as const,
  geocodingUrl: DEFAULT_GEOCODING_URL,
  forecastUrl: DEFAULT_FORECAST_URL,
};

/** A client on a server that has the views alone, registered with `views` as the catalogue registers them. */
async function connectViews(views: ViewOptions = {}): Promise<InProcessConnection> {
  const server = new McpServer({ name: 'views-test', version: '0.0.0' });
  registerViewResources(server, views);
  return connectInProcess(server);
}

interface ViewContent {
  uri: string;
  mimeType?: string;
  text?: string;
  _meta?: { ui?: { csp?: { connectDomains?: string[]; resourceDomains?: string[] } } };
}

describe('weatherViewDomains', () => {
  it('allows no outside origin with the offline dataset, whatever the URLs say', () => {
    expect(weatherViewDomains({ ...OPEN_METEO, provider: 'offline' })).toEqual([]);
  });

  it("allows exactly Open-Meteo's two origins, without paths, when that provider answers", () => {
    expect(weatherViewDomains(OPEN_METEO)).toEqual([
      'https://geocoding-api.open-meteo.com',
      'https://api.open-meteo.com',
    ]);
  });

  it('names an origin once when both URLs share it', () => {
    expect(
      weatherViewDomains({
        provider: 'open-meteo',
        geocodingUrl: 'http://127.0.0.1:4010/v1/search',
        forecastUrl: 'http://127.0.0.1:4010/v1/forecast?x=1',
      }),
    ).toEqual(['http://127.0.0.1:4010']);
  });
});

/** `views/build.mjs`'s own rule, loaded as vitest runs it (a path in a variable: tsc leaves the .mjs alone). */
const BUILD_MODULE = new URL('../../views/build.mjs', import.meta.url).href;
const { listViews } = (await import(BUILD_MODULE)) as {
  listViews(dir?: string): Array<{ uri: string; file: string; title: string }>;
};

describe('findViews', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mcp-find-views-'));
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  /** Writes `files` (relative paths) under `root`, each with some text. */
  const write = async (files: string[]) => {
    for (const file of files) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), 'x');
    }
  };

  it("finds the workshop's two views in views/, each folder with a main.ts, its path the URI", () => {
    expect(findViews({ dir: path.join(root, 'none') }).map((view) => view.uri)).toEqual(
      expect.arrayContaining([TASK_BOARD_URI, WEATHER_VIEW_URI]),
    );
    expect(findViews().find((view) => view.uri === WEATHER_VIEW_URI)).toEqual({
      uri: 'ui://weather/forecast',
      name: 'weather-forecast',
      title: 'Weather forecast view',
      description: expect.stringContaining('views/weather/forecast/'),
      file: 'weather.forecast.html',
    });
  });

  it('finds the same views, URIs, files and titles as views/build.mjs builds', () => {
    const built = listViews(VIEW_SOURCES_DIR).map(({ uri, file, title }) => ({
      uri,
      file,
      title: `${title} view`,
    }));
    expect(built.length).toBeGreaterThanOrEqual(2);
    const found = findViews({ dir: path.join(root, 'none') }).map(({ uri, file, title }) => ({
      uri,
      file,
      title,
    }));
    expect(found).toEqual(built);
  });

  it('finds a new folder with a main.ts, at any depth from two, and nothing else', async () => {
    await write([
      'workshop/echo-card/main.ts',
      'workshop/echo-card/model.ts',
      'a/b/c/main.ts',
      'shared/app.ts',
      'one/main.ts', // one deep: not a view (build.mjs refuses it)
      'Bad_Name/x/main.ts', // not a URI's path (build.mjs refuses it)
      'workshop/echo-card/inner/main.ts', // inside a view: its own code
    ]);
    const views = findViews({ sources: root, dir: path.join(root, 'none') });
    expect(views.map((view) => [view.uri, view.file, view.title])).toEqual([
      ['ui://a/b/c', 'a.b.c.html', 'A b c view'],
      ['ui://workshop/echo-card', 'workshop.echo-card.html', 'Workshop echo card view'],
    ]);
    // views/build.mjs refuses them rather than leave them out, so they never go unnoticed.
    await rm(path.join(root, 'one'), { recursive: true });
    expect(() => listViews(root)).toThrow(
      /views\/Bad_Name\/x\/main\.ts: "Bad_Name" cannot be part of a ui:\/\/ URI/,
    );
    await rm(path.join(root, 'Bad_Name'), { recursive: true });
    await write(['one/main.ts']);
    expect(() => listViews(root)).toThrow(/views\/one\/main\.ts: a view's folder is two deep/);
  });

  it('finds the views from the built files alone, where a deployment has no sources', async () => {
    await write([
      'dist/weather.forecast.html',
      'dist/workshop.echo-card.html',
      'dist/notes.txt',
      'dist/x.html',
    ]);
    const views = findViews({ sources: path.join(root, 'none'), dir: path.join(root, 'dist') });
    expect(views.map((view) => view.uri)).toEqual(['ui://weather/forecast', 'ui://workshop/echo-card']);
  });
});

describe('the ui:// view resources', () => {
  let conn: InProcessConnection | undefined;
  afterEach(async () => conn?.close());

  const connect = async (views?: ViewOptions) => {
    conn = await connectViews(views);
    return conn.client;
  };
  const read = async (uri: string, views?: ViewOptions) => {
    const { contents } = await (await connect(views)).readResource({ uri });
    return contents as ViewContent[];
  };

  it("has the workshop's two views among those the tools name", () => {
    expect(VIEW_URIS).toEqual(expect.arrayContaining([WEATHER_VIEW_URI, TASK_BOARD_URI]));
  });

  it('lists exactly the views the tools name, with the MCP Apps mime type and a CSP that names no outside origin', async () => {
    const { resources } = await (await connect()).listResources();
    const views = resources.filter((resource) => resource.uri.startsWith('ui://'));
    // A tool whose view is not listed has a view no host can read; a view no tool names is never drawn.
    const listed = views.map((view) => view.uri);
    const folderOf = (uri: string) => `views/${uri.slice('ui://'.length)}/`;
    for (const uri of VIEW_URIS)
      expect(listed, `a tool names ${uri}, but no folder holds it: make ${folderOf(uri)}main.ts`).toContain(
        uri,
      );
    for (const uri of listed)
      expect(
        VIEW_URIS,
        `${folderOf(uri)} is the view ${uri}, which no tool names: name it in a tool's ui: { resourceUri }`,
      ).toContain(uri);
    for (const view of views) {
      expect(view.mimeType).toBe('text/html;profile=mcp-app');
      expect(view._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] } } });
    }
  });

  it('serves every view views/build.mjs built', async () => {
    const client = await connect();
    const served = new Set<string>();
    for (const { uri } of (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'))) {
      const [view] = (await client.readResource({ uri })).contents as ViewContent[];
      served.add(view?.text ?? '');
    }
    const built = readdirSync(DEFAULT_VIEWS_DIR).filter((file) => file.endsWith('.html'));
    expect(built.length, 'run pnpm build in services/mcp-server').toBeGreaterThan(0);
    for (const file of built) {
      const html = readFileSync(path.join(DEFAULT_VIEWS_DIR, file), 'utf8');
      expect(
        served.has(html),
        `dist/views/${file} is served as no ui:// resource: is it left from a view whose folder is gone? Run pnpm build in services/mcp-server`,
      ).toBe(true);
    }
  });

  it.each(VIEW_URIS)('reads %s as one self-contained HTML document', async (uri) => {
    const contents = await read(uri);
    expect(contents).toHaveLength(1);
    const [view] = contents as [ViewContent];
    expect(view.uri).toBe(uri);
    expect(view.mimeType).toBe(VIEW_MIME_TYPE);
    const html = view.text ?? '';
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html.match(/<html[\s>]/gi)).toHaveLength(1);
    // Everything is inline: a host loads the text, and a second file could never be fetched.
    expect(html).toMatch(/<script type="module"[^>]*>[^<]/);
    expect(html).not.toMatch(/<script\b[^>]*\bsrc\s*=/i);
    expect(html).not.toMatch(/<link\b[^>]*\bhref\s*=/i);
    expect(html).toMatch(/<style\b/i);
    // The view speaks MCP Apps: it answers the host's tool-result notification.
    expect(html).toContain('ui/notifications/tool-result');
  });

  it.each(VIEW_URIS)('reads %s with a CSP that names no outside origin by default', async (uri) => {
    const [view] = await read(uri);
    expect(view?._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] } } });
  });

  it('gives the weather view exactly the Open-Meteo origins when that provider is on, and the board none', async () => {
    const views = { weatherConnectDomains: weatherViewDomains(OPEN_METEO) };
    const [weather] = await read(WEATHER_VIEW_URI, views);
    expect(weather?._meta?.ui?.csp).toEqual({
      connectDomains: ['https://geocoding-api.open-meteo.com', 'https://api.open-meteo.com'],
      resourceDomains: [],
    });
    await conn?.close();
    const [board] = await read(TASK_BOARD_URI, views);
    expect(board?._meta?.ui?.csp).toEqual({ connectDomains: [], resourceDomains: [] });
    const listed = (await conn?.client.listResources())?.resources.find((r) => r.uri === WEATHER_VIEW_URI);
    expect(listed?._meta).toEqual({ ui: { csp: weather?._meta?.ui?.csp } });
  });

  it.each(VIEW_URIS)('puts no secret or environment value into %s', async (uri) => {
    const [view] = await read(uri);
    const html = view?.text ?? '';
    expect(html).not.toMatch(/process\.env|import\.meta\.env/);
    // Whatever this machine holds in its environment (CI tokens, keys, URLs with passwords) stays out.
    const secrets = Object.entries(process.env).filter(
      ([name, value]) =>
        /SECRET|TOKEN|KEY|PASSWORD|DATABASE_URL|AUTH/i.test(name) && value !== undefined && value.length >= 8,
    );
    for (const [name, value] of secrets) expect(html.includes(value as string), name).toBe(false);
  });
});

describe('a view that was not built', () => {
  let dir: string;
  let conn: InProcessConnection | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mcp-views-'));
  });
  afterEach(async () => {
    await conn?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails the read with an error that says to run pnpm build, and serves the file once it exists', async () => {
    conn = await connectViews({ dir });
    const missing = conn.client.readResource({ uri: WEATHER_VIEW_URI });
    await expect(missing).rejects.toThrow(
      /view weather\.forecast\.html is missing or unreadable: run pnpm build in services\/mcp-server/,
    );
    await expect(conn.client.readResource({ uri: WEATHER_VIEW_URI })).rejects.not.toThrow(dir);
    // Listing still works: only the read needs the file.
    expect((await conn.client.listResources()).resources.map((r) => r.uri)).toContain(WEATHER_VIEW_URI);
    // A failed read is not cached, so a build that lands later is served.
    await writeFile(path.join(dir, 'weather.forecast.html'), '<!doctype html><html></html>');
    const { contents } = await conn.client.readResource({ uri: WEATHER_VIEW_URI });
    expect(contents[0]).toMatchObject({ text: '<!doctype html><html></html>' });
  });

  it('refuses a file far larger than any view', async () => {
    await writeFile(path.join(dir, 'tasks.board.html'), Buffer.alloc(MAX_VIEW_BYTES + 1, 'a'));
    conn = await connectViews({ dir });
    await expect(conn.client.readResource({ uri: TASK_BOARD_URI })).rejects.toThrow(
      /tasks\.board\.html is larger than \d+ bytes, so it is no view of ours: run pnpm build/,
    );
  });

  it('defaults to the package dist/views folder that pnpm build writes', () => {
    expect(DEFAULT_VIEWS_DIR.split(path.sep).slice(-3)).toEqual(['dist', 'views', '']);
  });
});
