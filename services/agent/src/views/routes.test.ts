/**
 * Tests for `routes.ts` through the whole HTTP API (`createAgentApp`) on a real socket, with the real
 * hub connected to two real MCP servers that declare views (`test-support/view-server.ts`): the page
 * reads only a view one of the server's tools names, and a view calls only its own server's tools
 * whose visibility includes "app". Each refusal is checked to have never reached the server.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiAccess } from '../api-access.js';
import { type AgentAppOptions, createAgentApp } from '../http.js';
import { createInputBroker, type InputRequestEvent } from '../input-broker.js';
import { createSilentLogger } from '../logger.js';
import { connectServer } from '../mcp/connect.js';
import { createMcpHub, type QualifiedMcpHub } from '../mcp/hub.js';
import { silentLogger } from '../mcp/test-support/logger.js';
import { createAgentStartup } from '../startup.js';
import { connectHub, createTestAgent, scriptedModel } from '../test-support/harness.js';
import type { ViewResource } from '../types.js';
import { EMPTY_CSP } from './csp.js';
import type { ViewCallAnswer } from './routes.js';
import {
  BOARD_HTML,
  CLEAR_QUESTION,
  FLAT_HTML,
  startViewServer,
  VIEW_TOOLS,
  type ViewServer,
} from './test-support/view-server.js';
import { MAX_VIEW_URI_CHARS } from './ui-meta.js';

/** No model is asked in these tests; the agent only needs one to exist. */
const model = scriptedModel('http://127.0.0.1:9/v1');
const TOKEN = '3f9a1c7e5b2d8046af13c9e7b5d2a8f0416c3e9b7a5d2f8e';
/** More than the requests of this file, so only the limit test meets the limit. */
const GENEROUS_LIMIT = 10_000;

let fixture: ViewServer;
let other: ViewServer;
let hub: QualifiedMcpHub;
let baseUrl: string;
const servers: Server[] = [];

async function listen(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An app over the shared hub, with `options` on top. */
function appWith(options: Pick<AgentAppOptions, 'access' | 'viewCallsPerMinute'> = {}): Express {
  return createAgentApp({
    agent: createTestAgent({ hub, model }),
    hub,
    model: model.description,
    logger: createSilentLogger(),
    viewCallsPerMinute: GENEROUS_LIMIT,
    ...options,
  });
}

beforeAll(async () => {
  [fixture, other] = await Promise.all([startViewServer('fixture'), startViewServer('other')]);
  hub = await connectHub([
    { name: 'fixture', url: fixture.url },
    { name: 'other', url: other.url },
  ]);
  baseUrl = await listen(appWith());
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await hub?.close();
  await Promise.all([fixture?.close(), other?.close()]);
});

function readView(server: string, uri: string, base = baseUrl, headers: Record<string, string> = {}) {
  const query = new URLSearchParams({ server, uri });
  return fetch(`${base}/api/views/resource?${query}`, { headers });
}

function call(body: unknown, base = baseUrl, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/api/views/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The data of the stream's `done` event, after checking the stream ends with it. */
async function done(response: Response): Promise<ViewCallAnswer> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  const events = text.split('\n\n').filter((block) => block.trim() !== '');
  const last = events.at(-1) ?? '';
  expect(last.startsWith('event: done\ndata: ')).toBe(true);
  return JSON.parse(last.slice('event: done\ndata: '.length)) as ViewCallAnswer;
}

/** Runs `request` and checks the view servers received no call and no read meanwhile. */
async function unseen<T>(request: () => Promise<T>): Promise<T> {
  const before = [fixture.calls.length, other.calls.length, fixture.reads.length, other.reads.length];
  const result = await request();
  expect([fixture.calls.length, other.calls.length, fixture.reads.length, other.reads.length]).toEqual(
    before,
  );
  return result;
}

describe('GET /api/views/resource', () => {
  it('reads the view a tool names, with its declared origins checked and its border wish', async () => {
    const response = await readView('fixture', fixture.views.board);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const view = (await response.json()) as ViewResource;
    expect(view).toEqual({
      server: 'fixture',
      uri: fixture.views.board,
      html: BOARD_HTML,
      // The bare "*" is left out; the upper-case origin is lower-cased.
      csp: {
        ...EMPTY_CSP,
        connectDomains: ['https://api.example.com'],
        resourceDomains: ['https://cdn.example.com'],
      },
      prefersBorder: true,
    });
    expect(fixture.reads.at(-1)).toBe(fixture.views.board);
  });

  it('reads a view named by the flat key and sent as a base64 blob', async () => {
    const response = await readView('fixture', fixture.views.flat);
    expect(response.status).toBe(200);
    expect(((await response.json()) as ViewResource).html).toBe(FLAT_HTML);
  });

  it('answers 502 with the reason when the server sends a view of the wrong MIME type', async () => {
    const response = await readView('fixture', fixture.views.wrongMime);
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toContain('text/html;profile=mcp-app');
  });

  it('answers 404, without reading, for a resource no tool names, though the server has it', async () => {
    const response = await unseen(() => readView('fixture', fixture.views.undeclared));
    expect(response.status).toBe(404);
  });

  it.each([
    ['another case', 'ui://fixture/BOARD'],
    ['an upper-case scheme', 'UI://fixture/board'],
    ['a trailing slash', 'ui://fixture/board/'],
    ['a percent-encoded letter', 'ui://fixture/%62oard'],
    ['a query', 'ui://fixture/board?x=1'],
    ['a fragment', 'ui://fixture/board#x'],
    ['the hostile URI a tool named', 'javascript:alert(1)'],
    ['another server’s view', 'ui://other/board'],
  ])('answers 404, without reading, for %s', async (_label, uri) => {
    const response = await unseen(() => readView('fixture', uri));
    expect(response.status).toBe(404);
  });

  it('answers 404 for a server it does not know, or another case of its name', async () => {
    for (const server of ['nobody', 'Fixture']) {
      const response = await unseen(() => readView(server, fixture.views.board));
      expect(response.status, server).toBe(404);
    }
  });

  it('answers 400 for missing, repeated or oversized parameters', async () => {
    const uri = encodeURIComponent(fixture.views.board);
    for (const query of [
      '',
      'server=fixture',
      `uri=${uri}`,
      `server=&uri=${uri}`,
      'server=fixture&uri=',
      `server=fixture&server=other&uri=${uri}`,
      `server=fixture&uri=${uri}&uri=${uri}`,
      `server=fixture&uri=ui://${'a'.repeat(MAX_VIEW_URI_CHARS)}`,
    ]) {
      const response = await unseen(() => fetch(`${baseUrl}/api/views/resource?${query}`));
      expect(response.status, query.slice(0, 80)).toBe(400);
    }
  });
});

describe('POST /api/views/call', () => {
  it('runs an app-only tool of the view’s server and streams done with the result and its trace', async () => {
    const calls = fixture.calls.length;
    const answer = await done(
      await call({
        server: 'fixture',
        uri: fixture.views.board,
        name: VIEW_TOOLS.appOnly,
        arguments: { column: 'done' },
      }),
    );
    expect(fixture.calls.slice(calls)).toEqual([VIEW_TOOLS.appOnly]);
    expect(answer.result).toMatchObject({
      content: [{ type: 'text', text: 'refreshed done' }],
      structuredContent: { column: 'done' },
    });
    expect(answer.trace).toMatchObject({
      calledBy: 'view',
      round: 0,
      server: 'fixture',
      tool: VIEW_TOOLS.appOnly,
      functionName: VIEW_TOOLS.appOnly,
      arguments: { column: 'done' },
      isError: false,
      sentToModel: '',
      result: { isError: false, structuredContent: { column: 'done' }, text: ['refreshed done'] },
    });
    expect(answer.trace.id).toMatch(/^view-[0-9a-f-]{36}$/);
  });

  it('runs a tool open to model and view alike, with no arguments as {}', async () => {
    const answer = await done(
      await call({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.both }),
    );
    expect(answer.result.content).toEqual([{ type: 'text', text: 'board shown' }]);
    expect(answer.trace).toMatchObject({ calledBy: 'view', round: 0, arguments: {} });
  });

  it('passes an isError result on as the tool gave it', async () => {
    const answer = await done(
      await call({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appFailing }),
    );
    expect(answer.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'the board is locked' }],
    });
    expect(answer.trace.isError).toBe(true);
  });

  it.each([
    ['a model-only tool', VIEW_TOOLS.modelOnly],
    ['a tool the server does not have', 'delete_everything'],
    ['an app tool’s name in another case', VIEW_TOOLS.appOnly.toUpperCase()],
    ['an app tool’s name with a space', ` ${VIEW_TOOLS.appOnly}`],
  ])('answers 403, without calling, for %s', async (_label, name) => {
    const response = await unseen(() => call({ server: 'fixture', uri: fixture.views.board, name }));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain('not available to views');
  });

  it('answers 404, without calling, when the URI is no view of that server', async () => {
    for (const [server, uri] of [
      ['fixture', other.views.board],
      ['other', fixture.views.board],
      ['fixture', fixture.views.undeclared],
      ['fixture', 'ui://fixture/board/'],
      ['fixture', 'UI://fixture/board'],
      ['nobody', fixture.views.board],
    ]) {
      const response = await unseen(() => call({ server, uri, name: VIEW_TOOLS.appOnly }));
      expect(response.status, `${server} ${uri}`).toBe(404);
    }
  });

  it('answers 400, without calling, for a malformed, oversized or padded body', async () => {
    const good = { server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appOnly };
    for (const body of [
      {},
      { ...good, name: undefined },
      { ...good, server: '' },
      { ...good, uri: 7 },
      { ...good, name: 'x'.repeat(129) },
      { ...good, server: 's'.repeat(201) },
      { ...good, uri: `ui://${'a'.repeat(MAX_VIEW_URI_CHARS)}` },
      { ...good, arguments: ['column'] },
      { ...good, arguments: 'column=done' },
      { ...good, extra: true },
      [good],
      'null',
      '"call"',
      '{"server": "fixture",',
    ]) {
      const response = await unseen(() => call(body));
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it('answers 413 for a body over the size limit, 415 for a body that is not JSON', async () => {
    const huge = {
      server: 'fixture',
      uri: fixture.views.board,
      name: VIEW_TOOLS.appOnly,
      arguments: { x: 'x'.repeat(300_000) },
    };
    expect((await unseen(() => call(huge))).status).toBe(413);
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await unseen(() =>
        fetch(`${baseUrl}/api/views/call`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: JSON.stringify({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appOnly }),
        }),
      );
      expect(response.status, type).toBe(415);
    }
  });

  it('answers 403 to a request from another web page', async () => {
    const good = { server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appOnly };
    expect((await unseen(() => call(good, baseUrl, { origin: 'http://evil.example' }))).status).toBe(403);
    expect(
      (await unseen(() => readView('fixture', fixture.views.board, baseUrl, { origin: 'null' }))).status,
    ).toBe(403);
  });
});

describe('the views API and the tool list', () => {
  it('keeps app-only tools out of the page’s tool list, which is the model’s', async () => {
    const response = await fetch(`${baseUrl}/api/tools`);
    const names = ((await response.json()) as { tools: Array<{ server: string; name: string }> }).tools
      .filter((tool) => tool.server === 'fixture')
      .map((tool) => tool.name);
    expect(names).toContain(VIEW_TOOLS.both);
    expect(names).toContain(VIEW_TOOLS.modelOnly);
    expect(names).not.toContain(VIEW_TOOLS.appOnly);
    expect(names).not.toContain(VIEW_TOOLS.appFailing);
    expect(names).not.toContain(VIEW_TOOLS.appAsking);
  });
});

describe('the views API’s limits and sign-in', () => {
  it('answers 429 once AGENT_VIEW_CALLS_PER_MINUTE reads and calls together are used up', async () => {
    const limited = await listen(appWith({ viewCallsPerMinute: 2 }));
    expect((await readView('fixture', fixture.views.board, limited)).status).toBe(200);
    await done(await call({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.both }, limited));
    for (const request of [
      () => readView('fixture', fixture.views.board, limited),
      () => call({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.both }, limited),
    ]) {
      const response = await unseen(request);
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await response.json()) as { error: string }).error).toContain('AGENT_VIEW_CALLS_PER_MINUTE');
    }
    // The other app, on the same hub, keeps its own count.
    expect((await readView('fixture', fixture.views.board)).status).toBe(200);
  });

  it('answers 401 without the API token, and serves the caller who has it', async () => {
    const secured = await listen(appWith({ access: createApiAccess({ token: TOKEN }) }));
    const good = { server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appOnly };
    const strangers: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: TOKEN },
    ];
    for (const headers of strangers) {
      expect((await unseen(() => readView('fixture', fixture.views.board, secured, headers))).status).toBe(
        401,
      );
      expect((await unseen(() => call(good, secured, headers))).status).toBe(401);
    }
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect((await readView('fixture', fixture.views.board, secured, bearer)).status).toBe(200);
    await done(await call(good, secured, bearer));
  });

  it('answers 503 while the agent is still connecting', async () => {
    const starting = await listen(
      createAgentApp({ startup: createAgentStartup(), logger: createSilentLogger() }),
    );
    expect((await readView('fixture', fixture.views.board, starting)).status).toBe(503);
    const response = await call(
      { server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appOnly },
      starting,
    );
    expect(response.status).toBe(503);
  });
});

describe('a view’s call that asks for input', () => {
  const broker = createInputBroker({ timeoutMs: 5_000 });
  let askingHub: QualifiedMcpHub;
  let asking: string;

  beforeAll(async () => {
    // Requests for input go to the broker, as in index.ts, so the page that made the call is asked.
    const connection = await connectServer(
      { transport: 'http', name: 'fixture', url: fixture.url },
      {
        clientInfo: { name: 'agent-test', version: '0.0.0' },
        logger: silentLogger(),
        onInput: broker.handler,
        retry: { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
      },
    );
    askingHub = createMcpHub([connection], silentLogger());
    asking = await listen(
      createAgentApp({
        agent: createTestAgent({ hub: askingHub, model }),
        hub: askingHub,
        model: model.description,
        logger: createSilentLogger(),
        inputBroker: broker,
        viewCallsPerMinute: GENEROUS_LIMIT,
      }),
    );
  });
  afterAll(async () => {
    await askingHub?.close();
  });

  /** Calls board_clear, answers its input_request with `answer`, and returns the events' names and `done`. */
  async function clearAnswering(answer: unknown): Promise<{ events: string[]; done: ViewCallAnswer }> {
    const response = await fetch(`${asking}/api/views/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appAsking }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const events: string[] = [];
    let buffer = '';
    // Bounded by the fetch's timeout; the stream ends after `done`.
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const [, event = '', data = ''] = /^event: (.*)\ndata: (.*)$/s.exec(block) ?? [];
        events.push(event);
        if (event === 'input_request') {
          const request = JSON.parse(data) as InputRequestEvent;
          expect(request).toMatchObject({ server: 'fixture', message: CLEAR_QUESTION });
          const answered = await fetch(`${asking}/api/input/${request.id}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(answer),
          });
          expect(answered.status).toBe(200);
        }
        if (event === 'done') return { events, done: JSON.parse(data) as ViewCallAnswer };
      }
    }
    throw new Error(`the stream ended without done: ${events.join(', ')}`);
  }

  it('asks the page that made the call, and passes its answer to the tool', async () => {
    const { events, done: answer } = await clearAnswering({ action: 'accept', content: { confirm: true } });
    expect(events).toEqual(['input_request', 'done']);
    expect(answer.result.content).toEqual([{ type: 'text', text: 'board cleared' }]);
    expect(answer.trace).toMatchObject({
      calledBy: 'view',
      inputs: [{ message: CLEAR_QUESTION, action: 'accept' }],
    });
    expect(broker.pending()).toBe(0);
  });

  it('passes a decline on to the tool', async () => {
    const { done: answer } = await clearAnswering({ action: 'decline' });
    expect(answer.result.content).toEqual([{ type: 'text', text: 'not cleared (decline)' }]);
  });

  it('asks nobody, and the tool hears decline, when the agent has no broker', async () => {
    const response = await call({ server: 'fixture', uri: fixture.views.board, name: VIEW_TOOLS.appAsking });
    const answer = await done(response);
    expect(answer.result.content).toEqual([{ type: 'text', text: 'not cleared (decline)' }]);
  });
});
