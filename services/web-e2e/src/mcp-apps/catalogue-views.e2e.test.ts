/**
 * The catalogue's own MCP Apps views (services/mcp-server/dist/views) in the test host page, in the
 * system Chromium, against the real workshop server (offline weather, a temp task database): the
 * view must draw what the real tools/call returned. Besides the two shipped views, which are checked
 * by what they draw, every tool that names a view (one `pnpm new-tool <name> --view` made, say) is
 * called with sample arguments and its view must render in the host without a console error.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalServer, startLocalServer } from '@mcp-workshop/mcp-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WAIT } from '../page-actions.js';
import { launchChromium } from '../stack.js';
import { buildPages } from './build-pages.js';
import { type AppsHost, startAppsHost } from './host-server.js';
import { openView, screenshot, type ViewPage } from './view-page.js';

const VIEWS_DIR = fileURLToPath(new URL('../../../mcp-server/dist/views/', import.meta.url));
const VIEWS = ['weather-forecast.html', 'task-board.html'];
/** The shipped views' tools, checked by what they draw below. */
const SHIPPED_VIEW_TOOLS = new Set(['get_weather', 'list_tasks', 'task_board_refresh']);

let dataDir: string;
let buildDir: string;
let server: LocalServer;
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

describe("the catalogue's MCP Apps views in the test host", () => {
  beforeAll(async () => {
    const missing = VIEWS.filter((file) => !existsSync(join(VIEWS_DIR, file)));
    if (missing.length > 0) {
      throw new Error(
        `Missing ${missing.join(', ')} in ${VIEWS_DIR}: run pnpm build in services/mcp-server.`,
      );
    }
    dataDir = await mkdtemp(join(tmpdir(), 'web-e2e-apps-data-'));
    buildDir = await mkdtemp(join(tmpdir(), 'web-e2e-apps-build-'));
    const pages = await buildPages(buildDir);
    server = await startLocalServer({ dataDir });
    host = await startAppsHost({ hostHtml: pages.hostHtml, mcpUrl: server.mcpUrl });
    browser = await launchChromium();
  });
  afterEach(async () => {
    await opened?.context.close();
    opened = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
    for (const dir of [buildDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
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

  it('renders the view of every other tool that names one, called with sample arguments', async () => {
    const client = new Client({ name: 'web-e2e-view-lister', version: '0.1.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
    let others: Array<{ name: string; args: Record<string, unknown> }>;
    try {
      const { tools } = await client.listTools();
      others = tools
        .filter((tool) => !SHIPPED_VIEW_TOOLS.has(tool.name))
        .filter(
          (tool) =>
            typeof (tool._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri === 'string',
        )
        .map((tool) => ({ name: tool.name, args: sampleArguments(tool.inputSchema) }));
    } finally {
      await client.close();
    }
    // In the repository as shipped there are none; after a scaffold, its view is checked here.
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
