/**
 * `defineTool`'s `ui` option (MCP Apps): what `tools/list` gains, and that results do not change at
 * all, so a client without the extension sees exactly what it saw before. The workshop's own tools
 * with views are pinned; any other tool with a view (`pnpm new-tool <name> --view`) is checked by its
 * shape: its view is a listed `ui://` resource. Partner: `define-tool.ts`, the views themselves:
 * `resources/views.test.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectRaw, type RawRpc, rawConnections } from '@mcp-workshop/mcp-host/in-process';
import type { ToolUi } from '@mcp-workshop/mcp-host/kit';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { fail, ok } from '@mcp-workshop/shared';
import { openTodoStore, type TodoStore } from '@mcp-workshop/task-store';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../deps.js';
import { connectAs, registerContext, testDeps, tokenFor } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { createOfflineWeather } from '../weather/offline.js';
import { tools } from './index.js';

const NOW = () => new Date('2026-07-28T12:00:00Z');

/** The same tool, with or without a view: it succeeds, fails (`fail`) or throws, as asked. */
function echo(ui?: ToolUi) {
  return defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'Repeats text.',
    input: z.object({ text: z.string().max(20).describe('Some text.') }),
    output: z.object({ echoed: z.string().describe('The text.') }),
    scopes: ['tasks:write'],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ...(ui && { ui }),
    async run({ text }) {
      if (text === 'fail') return fail('Told to fail.');
      if (text === 'throw') throw new Error('a bug');
      return ok({ echoed: text }, { summary: `Echoed ${text}.` });
    },
  });
}

function serverWith(tool: ReturnType<typeof echo>): McpServer {
  const server = new McpServer({ name: 'tool-views-test', version: '0.0.0' });
  tool.register(server, registerContext(testDeps()));
  return server;
}

describe('defineTool with ui', () => {
  const connections = rawConnections();
  afterEach(async () => {
    await connections.closeAll();
  });
  const raw = connections.connect;

  it('adds _meta.ui (and the older ui/resourceUri key) to tools/list and changes nothing else there', async () => {
    const plain = await (await raw(serverWith(echo()))).request('tools/list');
    const withView = await (await raw(serverWith(echo({ resourceUri: 'ui://echo/view' })))).request(
      'tools/list',
    );
    const [listed] = withView.tools as Array<Record<string, unknown>>;
    expect(listed?._meta).toEqual({
      'mcp-workshop/requiredScopes': ['tasks:write'],
      ui: { resourceUri: 'ui://echo/view' },
      'ui/resourceUri': 'ui://echo/view',
    });
    const [before] = plain.tools as Array<Record<string, unknown>>;
    expect({ ...listed, _meta: undefined }).toEqual({ ...before, _meta: undefined });
    expect(before?._meta).toEqual({ 'mcp-workshop/requiredScopes': ['tasks:write'] });
  });

  it('lists an app-only tool with visibility ["app"] and no view of its own', async () => {
    const list = await (await raw(serverWith(echo({ visibility: ['app'] })))).request('tools/list');
    const [listed] = list.tools as Array<{ _meta: Record<string, unknown> }>;
    expect(listed?._meta.ui).toEqual({ visibility: ['app'] });
    expect(listed?._meta).not.toHaveProperty('ui/resourceUri');
  });

  it.each([
    ['a success', 'hello'],
    ['a fail() result', 'fail'],
    ['a thrown bug', 'throw'],
    ['an input the schema refuses', 'x'.repeat(21)],
  ])('answers %s byte for byte as the same tool without a view', async (_label, text) => {
    const call = async (tool: ReturnType<typeof echo>) => {
      const rpc = await raw(serverWith(tool));
      const result = await rpc.request('tools/call', { name: 'echo', arguments: { text } });
      // A thrown bug's result carries a fresh reference id; the rest must match.
      return JSON.stringify(result).replace(/ref [0-9a-f-]+/g, 'ref <id>');
    };
    expect(await call(echo({ resourceUri: 'ui://echo/view' }))).toBe(await call(echo()));
  });

  it('still refuses a call whose token lacks the scope, exactly as without a view', async () => {
    const call = async (tool: ReturnType<typeof echo>) => {
      const conn = await connectAs(serverWith(tool), tokenFor('alice', []));
      try {
        return JSON.stringify(await conn.client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
      } finally {
        await conn.close();
      }
    };
    const refused = await call(echo({ resourceUri: 'ui://echo/view' }));
    expect(refused).toBe(await call(echo()));
    expect(refused).toContain('needs the OAuth scope tasks:write');
  });
});

describe('the catalogue tools with views', () => {
  let dir: string;
  let store: TodoStore;
  let rpc: RawRpc;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tool-views-'));
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger(), now: NOW });
    await store.add('', 'Buy milk');
    rpc = await connectRaw(
      createMcpServer(testDeps({ todos: store, weather: createOfflineWeather(NOW), now: NOW })),
    );
  });
  afterAll(async () => {
    await rpc.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('declares ui://weather/forecast on get_weather, ui://tasks/board on list_tasks, and task_board_refresh app-only', async () => {
    const listed = (await rpc.request('tools/list')).tools as Array<{
      name: string;
      _meta: { ui?: unknown };
    }>;
    const ui = Object.fromEntries(
      listed.filter((tool) => tool._meta.ui).map((tool) => [tool.name, tool._meta.ui]),
    );
    // Exactly these for the workshop's three; any other tool with a view is checked by the test below
    // (and a workshop tool's whole listing by server-lists.test.ts's snapshot).
    expect({
      get_weather: ui.get_weather,
      list_tasks: ui.list_tasks,
      task_board_refresh: ui.task_board_refresh,
    }).toEqual({
      get_weather: { resourceUri: 'ui://weather/forecast' },
      list_tasks: { resourceUri: 'ui://tasks/board' },
      task_board_refresh: { visibility: ['app'] },
    });
    expect(tools.map((tool) => tool.name)).toContain('task_board_refresh');
  });

  it('names, for every tool with a view, a ui:// resource that is listed with the MCP Apps mime type', async () => {
    const listed = (await rpc.request('tools/list')).tools as Array<{
      name: string;
      _meta: { ui?: { resourceUri?: unknown; visibility?: unknown } };
    }>;
    type Listed = Array<{ uri: string; mimeType?: string }>;
    let page = await rpc.request('resources/list');
    const resources = [...(page.resources as Listed)];
    while (typeof page.nextCursor === 'string') {
      page = await rpc.request('resources/list', { cursor: page.nextCursor });
      resources.push(...(page.resources as Listed));
    }
    const withView = listed.filter((tool) => tool._meta.ui?.resourceUri !== undefined);
    expect(withView.length).toBeGreaterThanOrEqual(2);
    for (const tool of withView) {
      const uri = tool._meta.ui?.resourceUri;
      expect(uri, `${tool.name}: _meta.ui.resourceUri must be a ui:// URI`).toMatch(/^ui:\/\/[^/\s]+\/\S+$/);
      const resource = resources.find((entry) => entry.uri === uri);
      expect(
        resource,
        `${tool.name} names the view ${String(uri)}, which resources/list does not have: make its folder under views/ with a main.ts (views/<path>/ for ui://<path>)`,
      ).toBeDefined();
      expect(resource?.mimeType, `${String(uri)}: an MCP Apps view`).toBe('text/html;profile=mcp-app');
    }
    for (const tool of listed.filter((entry) => entry._meta.ui?.visibility !== undefined))
      expect(tool._meta.ui?.visibility, `${tool.name}: _meta.ui.visibility`).toEqual(
        expect.arrayContaining([expect.stringMatching(/^(model|app)$/)]),
      );
  });

  it('answers get_weather exactly as ok() builds it: content, structuredContent, isError, nothing more', async () => {
    const result = await rpc.request('tools/call', { name: 'get_weather', arguments: { location: 'Oslo' } });
    expect(Object.keys(result)).toEqual(['content', 'structuredContent', 'isError']);
    const content = result.content as Array<{ text: string }>;
    const expected = ok(result.structuredContent as Record<string, unknown>, { summary: content[1]?.text });
    expect(JSON.stringify(result)).toBe(JSON.stringify(expected));
    expect(content[1]?.text).toMatch(/^Oslo, Norway: .* \(offline dataset, not a live forecast\)\.$/);
  });

  it('answers list_tasks exactly as ok() builds it', async () => {
    const result = await rpc.request('tools/call', { name: 'list_tasks', arguments: {} });
    expect(Object.keys(result)).toEqual(['content', 'structuredContent', 'isError']);
    expect(result.structuredContent).toMatchObject({
      status: 'all',
      count: 1,
      items: [{ title: 'Buy milk' }],
    });
    const expected = ok(result.structuredContent as Record<string, unknown>, { summary: '1 task.' });
    expect(JSON.stringify(result)).toBe(JSON.stringify(expected));
  });
});
