/**
 * `GET /api/catalogue/events` on a real socket, with the real hub connected to a small real MCP
 * server (the official SDK behind `createMcpHandler`) whose `/health` the test controls: the stream
 * opens with the tools and the server's dev status; a tool added and announced is pushed with no
 * request from the page; a failed save on a dev server is pushed with its file:line, and cleared
 * by the next good one; a resource change is pushed as `views_changed`; a server without a dev
 * block has a null status. Each step waits for its event, never for a time.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentApp } from './http.js';
import { createSilentLogger } from './logger.js';
import type { QualifiedMcpHub } from './mcp/hub.js';
import { type ServedFetch, serveFetch } from './mcp/test-support/serve-fetch.js';
import { connectHub, createTestAgent, scriptedModel } from './test-support/harness.js';

/** Safety net only: each event comes as soon as the server announces. */
const GIVE_UP_MS = 20_000;

let tools: string[] = ['first_tool'];
let health: unknown = { status: 'ok' };
let handler: ReturnType<typeof createMcpHandler>;
let served: ServedFetch;
let hub: QualifiedMcpHub;
let http: Server;
let base = '';

const DEV_OK = { reloading: true, lastReload: { outcome: 'reloaded' }, typecheck: { state: 'passed' } };
const DEV_FAILED = {
  reloading: true,
  lastReload: {
    outcome: 'failed',
    message: '[PARSE_ERROR] Unexpected token',
    place: { file: 'src/tools/shout.ts', line: 13, column: 16 },
  },
  typecheck: { state: 'checking' },
};

beforeAll(async () => {
  const buildServer = () => {
    const server = new McpServer({ name: 'feed-test', version: '0.0.1' });
    for (const name of tools)
      server.registerTool(name, { description: `The ${name}.` }, async () => ({ content: [] }));
    server.registerResource('a-view', 'ui://feed-test/view.html', {}, async () => ({ contents: [] }));
    return server;
  };
  handler = createMcpHandler(buildServer);
  served = await serveFetch(async (request) =>
    new URL(request.url).pathname === '/health' ? Response.json(health) : handler.fetch(request),
  );
  hub = await connectHub([{ name: 'feed', url: served.url }]);
  // No turn is asked for here: the model is never reached.
  const model = scriptedModel('http://127.0.0.1:9/v1');
  const app = createAgentApp({
    logger: createSilentLogger(),
    hub,
    agent: createTestAgent({ hub, model }),
    model: model.description,
  });
  http = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  await hub?.close();
  await handler?.close();
  await served?.close();
});

interface FeedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Opens the feed and reads it in the background; `next` resolves with the next event that matches. */
async function openFeed() {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/catalogue/events`, { signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const events: FeedEvent[] = [];
  let wake: () => void = () => undefined;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        wake();
      }
    }
  })().catch(() => undefined);
  let read = 0;
  const next = async (matches: (event: FeedEvent) => boolean, what: string): Promise<FeedEvent> => {
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      while (read < events.length) {
        const event = events[read++] as FeedEvent;
        if (matches(event)) return event;
      }
      if (Date.now() > deadline) throw new Error(`no ${what} event; heard ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1_000);
      });
    }
  };
  return { next, close: () => controller.abort() };
}

const toolNames = (event: FeedEvent) =>
  (event.data.tools as Array<{ name: string }>).map((tool) => tool.name);

describe('GET /api/catalogue/events', () => {
  it('opens with the tools and a null dev status for a server that offers none', async () => {
    const feed = await openFeed();
    try {
      const first = await feed.next((event) => event.event === 'tools', 'tools');
      expect(toolNames(first)).toEqual(['first_tool']);
      expect((await feed.next((event) => event.event === 'dev', 'dev')).data).toEqual({
        server: 'feed',
        status: null,
      });
    } finally {
      feed.close();
    }
  });

  it('pushes a tool the server adds and announces, without the page asking', async () => {
    const feed = await openFeed();
    try {
      await feed.next((event) => event.event === 'dev', 'the opening dev status');
      tools = [...tools, 'pushed_tool'];
      handler.notify.toolsChanged();
      const pushed = await feed.next((event) => event.event === 'tools', 'the pushed tools');
      expect(toolNames(pushed)).toEqual(['first_tool', 'pushed_tool']);
    } finally {
      feed.close();
    }
  });

  it("pushes a dev server's failed save with its file:line, and clears it on the next good save", async () => {
    health = { status: 'ok', dev: DEV_OK };
    const feed = await openFeed();
    try {
      await feed.next((event) => event.event === 'dev', 'the opening dev status');
      health = { status: 'ok', dev: DEV_FAILED };
      handler.notify.toolsChanged();
      const failed = await feed.next((event) => event.event === 'dev', 'the failed save');
      expect(failed.data).toEqual({
        server: 'feed',
        status: {
          server: 'feed',
          failedSave: { where: 'src/tools/shout.ts:13:16', message: '[PARSE_ERROR] Unexpected token' },
          typeErrors: { count: 0, first: [] },
        },
      });
      health = { status: 'ok', dev: DEV_OK };
      handler.notify.toolsChanged();
      expect((await feed.next((event) => event.event === 'dev', 'the good save')).data).toEqual({
        server: 'feed',
        status: null,
      });
    } finally {
      feed.close();
    }
  });

  it('pushes views_changed when the server announces a resource change', async () => {
    const feed = await openFeed();
    try {
      await feed.next((event) => event.event === 'dev', 'the opening dev status');
      handler.notify.resourcesChanged();
      expect((await feed.next((event) => event.event === 'views_changed', 'views_changed')).data).toEqual({
        server: 'feed',
      });
    } finally {
      feed.close();
    }
  });
});
