/**
 * The catalogue's MCP Apps views in the test host page, in the system Chromium, against the real
 * workshop catalogue (offline weather, a temp to-do database) with one tool and view added the way
 * a participant adds them: `pnpm new-tool e2e_card --view` in a scratch copy of the repository,
 * whose catalogue the host's runner then serves. Each view must draw what the real tools/call
 * returned: the two shipped views, and the scaffolded one, which is found from its folder
 * (`views/workshop/e2e-card/`) with no other edit. Any other tool that names a view is called with
 * sample arguments and its view must render without a console error.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WAIT } from '../page-actions.js';
import { launchChromium } from '../stack.js';
import { buildPages } from './build-pages.js';
import { type AppsHost, startAppsHost } from './host-server.js';
import { openView, screenshot, type ViewPage } from './view-page.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** `scripts/lib/scratch-copy.mjs`, loaded by a path in a variable: it is a script, not a package. */
const SCRATCH_COPY = new URL('../../../../scripts/lib/scratch-copy.mjs', import.meta.url).href;
const SERVER = 'services/mcp-server';
/** The tool and view the scaffold adds, and the file it builds. */
const SCAFFOLDED = { name: 'e2e_card', uri: 'ui://workshop/e2e-card', file: 'workshop.e2e-card.html' };
const VIEWS = ['weather.forecast.html', 'tasks.board.html', SCAFFOLDED.file];
/** The shipped views' tools, checked by what they draw below. */
const SHIPPED_VIEW_TOOLS = new Set(['get_weather', 'list_tasks', 'task_board_refresh']);
/** Copying the repository, the scaffold (biome, a build of every view) and the first import of the copy's sources. */
const SETUP_TIMEOUT_MS = 5 * 60_000;

/**
 * Written into the copy's catalogue, so that its imports resolve there: starts that catalogue with
 * the host's runner, as tests start any catalogue (vitest compiles the TypeScript).
 */
const STARTER = `import { startCatalogue } from '@mcp-workshop/mcp-host/run';
import catalogue from './catalogue.js';

export const start = (dataDir: string) => startCatalogue(catalogue, { env: { DATA_DIR: dataDir } });
`;
interface Started {
  mcpUrl: string;
  close(): Promise<void>;
}

let copy: string | undefined;
let removeCopy: ((dir: string) => void) | undefined;
let dataDir: string;
let buildDir: string;
let server: Started;
let host: AppsHost;
let browser: Browser;
let opened: ViewPage | undefined;

/** The structuredContent the host got from the server, as the host page shows it. */
async function hostResult({ page }: ViewPage): Promise<Record<string, unknown>> {
  return JSON.parse((await page.locator('#tool-result').textContent()) ?? 'null') as Record<string, unknown>;
}

/** Adds tasks the way any MCP client does: add_task over Streamable HTTP. */
async function addTasks(titles: string[]): Promise<void> {
  const client = new Client({ name: 'web-e2e-task-seeder', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  try {
    for (const title of titles) {
      const result = await client.callTool({ name: 'add_task', arguments: { title } });
      expect(result.isError ?? false).toBe(false);
    }
  } finally {
    await client.close();
  }
}

/** Arguments a schema accepts: each required string "hello", number 1, boolean true. */
function sampleArguments(schema: {
  properties?: Record<string, unknown>;
  required?: string[];
}): Record<string, unknown> {
  const samples: Record<string, unknown> = { string: 'hello', number: 1, integer: 1, boolean: true };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = (schema.properties?.[name] as { type?: unknown } | undefined)?.type;
    args[name] = typeof type === 'string' && type in samples ? samples[type] : 'hello';
  }
  return args;
}

/** The tools beyond the shipped ones that name a view, with arguments their schema accepts. */
async function otherViewTools(): Promise<
  Array<{ name: string; uri: string; args: Record<string, unknown> }>
> {
  const client = new Client({ name: 'web-e2e-view-lister', version: '0.1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
  try {
    const { tools } = await client.listTools();
    return tools.flatMap((tool) => {
      const uri = (tool._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
      if (SHIPPED_VIEW_TOOLS.has(tool.name) || typeof uri !== 'string') return [];
      return [{ name: tool.name, uri, args: sampleArguments(tool.inputSchema) }];
    });
  } finally {
    await client.close();
  }
}

describe("the catalogue's MCP Apps views in the test host", () => {
  beforeAll(async () => {
    const scratch = (await import(SCRATCH_COPY)) as {
      makeScratchCopy(root: string): string;
      removeScratchCopy(dir: string): void;
    };
    removeCopy = scratch.removeScratchCopy;
    copy = scratch.makeScratchCopy(ROOT);
    const scaffold = spawnSync(process.execPath, ['scripts/new-tool.mjs', SCAFFOLDED.name, '--view'], {
      cwd: copy,
      encoding: 'utf8',
      timeout: SETUP_TIMEOUT_MS,
    });
    if (scaffold.status !== 0) {
      throw new Error(
        `pnpm new-tool ${SCAFFOLDED.name} --view failed:\n${scaffold.stdout}\n${scaffold.stderr}`,
      );
    }
    const viewsDir = join(copy, SERVER, 'dist/views');
    const missing = VIEWS.filter((file) => !existsSync(join(viewsDir, file)));
    if (missing.length > 0) {
      throw new Error(`Missing ${missing.join(', ')} in ${viewsDir} after the scaffold:\n${scaffold.stdout}`);
    }
    const starter = join(copy, SERVER, 'src/e2e-start.ts');
    writeFileSync(starter, STARTER);
    const { start } = (await import(pathToFileURL(starter).href)) as {
      start(dataDir: string): Promise<Started>;
    };
    dataDir = await mkdtemp(join(tmpdir(), 'web-e2e-apps-data-'));
    buildDir = await mkdtemp(join(tmpdir(), 'web-e2e-apps-build-'));
    const pages = await buildPages(buildDir);
    server = await start(dataDir);
    host = await startAppsHost({ hostHtml: pages.hostHtml, mcpUrl: server.mcpUrl });
    browser = await launchChromium();
  }, SETUP_TIMEOUT_MS);
  afterEach(async () => {
    await opened?.context.close();
    opened = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
    for (const dir of [buildDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
    if (copy) removeCopy?.(copy);
  });

  it('draws get_weather for Oslo: the place and the temperature the server returned', async () => {
    opened = await openView(browser, host.pageUrl('get_weather', { location: 'Oslo' }));
    const result = await hostResult(opened);
    const place = result.place as { name: string; country: string };
    const current = result.current as { temperatureC: number };
    expect(place.name).toBe('Oslo');
    expect(typeof current.temperatureC).toBe('number');
    await opened.view
      .locator('[data-testid=place]')
      .filter({ hasText: `Oslo, ${place.country}` })
      .waitFor(WAIT);
    const temperature = `${Math.round(current.temperatureC * 10) / 10} °C`;
    await opened.view.locator('[data-testid=temperature]').filter({ hasText: temperature }).waitFor(WAIT);
    console.log(`screenshot: ${await screenshot(opened.page, 'weather-forecast-oslo')}`);
  });

  it('draws the view pnpm new-tool --view scaffolded: the text it was called with and its length', async () => {
    const others = await otherViewTools();
    expect(others.map((tool) => [tool.name, tool.uri])).toContainEqual([SCAFFOLDED.name, SCAFFOLDED.uri]);
    opened = await openView(browser, host.pageUrl(SCAFFOLDED.name, { text: 'hello world' }));
    expect(await hostResult(opened)).toEqual({ text: 'hello world', length: 11 });
    await opened.view.locator('[data-testid=text]').filter({ hasText: 'hello world' }).waitFor(WAIT);
    await opened.view.locator('[data-testid=length]').filter({ hasText: '11 characters' }).waitFor(WAIT);
    console.log(`screenshot: ${await screenshot(opened.page, 'scaffolded-view')}`);
  });

  it('renders the view of every other tool that names one, called with sample arguments', async () => {
    const others = (await otherViewTools()).filter((tool) => tool.name !== SCAFFOLDED.name);
    console.log(`views of other tools: ${others.map((tool) => tool.name).join(', ') || 'none'}`);
    for (const tool of others) {
      opened = await openView(browser, host.pageUrl(tool.name, tool.args));
      await opened.context.close();
      opened = undefined;
    }
  });

  it('draws list_tasks with the tasks added beforehand', async () => {
    const stamp = Date.now().toString(36);
    const titles = [`Water the ferns ${stamp}`, `Book the ferry ${stamp}`];
    await addTasks(titles);
    opened = await openView(browser, host.pageUrl('list_tasks', {}));
    const tasks = opened.view.locator('[data-testid=task]');
    for (const title of titles) await tasks.filter({ hasText: title }).waitFor(WAIT);
    await expect(tasks.count()).resolves.toBe(titles.length);
    console.log(`screenshot: ${await screenshot(opened.page, 'task-board')}`);
  });
});
