/**
 * Tests for the agent's HTTP API (`http.ts`) on a real socket: the real hub to the workshop server
 * and the minimal MCP server, the scripted model behind the real `openai` client. After every test
 * the server must still answer `/health`, whatever the test threw at it.
 */

import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from './conversations.js';
import { type ChatAnswer, createAgentApp, type StatusBody } from './http.js';
import { createSilentLogger } from './logger.js';
import { type Agent, createAgent } from './loop.js';
import type { QualifiedMcpHub } from './mcp/hub.js';
import type { AgentTelemetry } from './telemetry/types.js';
import {
  connectHub,
  createTestAgent,
  scriptedModel,
  startWorkshop,
  TEST_SETTINGS,
} from './test-support/harness.js';
import { type MinimalMcpServer, startMinimalMcpServer } from './test-support/minimal-mcp-server.js';
import { type ScriptedOpenAI, startScriptedOpenAI } from './test-support/scripted-openai.js';
import type { WorkshopProcess } from './test-support/workshop-process.js';

const MAX_BODY_BYTES = 256 * 1024;

let workshop: WorkshopProcess;
let minimal: MinimalMcpServer;
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI;
let agent: Agent;
let http: Server;
let baseUrl: string;

async function listen(app: ReturnType<typeof createAgentApp>): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  [workshop, minimal, openai] = await Promise.all([
    startWorkshop(),
    startMinimalMcpServer(),
    startScriptedOpenAI(),
  ]);
  hub = await connectHub([
    { name: 'workshop', url: workshop.mcpUrl },
    { name: 'minimal', url: minimal.url },
  ]);
  const model = scriptedModel(openai.baseUrl);
  agent = createTestAgent({ hub, model });
  ({ server: http, url: baseUrl } = await listen(
    createAgentApp({ agent, hub, model: model.description, logger: createSilentLogger() }),
  ));
});

afterAll(async () => {
  await close(http);
  await hub?.close();
  await Promise.all([workshop?.close(), minimal?.close(), openai?.close()]);
});

afterEach(async () => {
  const health = await fetch(`${baseUrl}/health`);
  expect(health.status).toBe(200);
});

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses a whole `text/event-stream` body into its events. */
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}

describe('GET /health', () => {
  it('reports the model, the servers and the tool count', async () => {
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'ok',
      model: { kind: 'custom', model: 'scripted', baseUrl: openai.baseUrl, api: 'chat' },
      tools: hub.tools().length,
    });
    expect((body.servers as Array<{ name: string }>).map((server) => server.name)).toEqual([
      'workshop',
      'minimal',
    ]);
  });
});

describe('POST /api/chat', () => {
  it('answers with the answer, the conversation id and the tool calls', async () => {
    openai.push(
      { toolCalls: [{ name: 'calculate', arguments: { expression: '6 * 7' }, id: 'call_http' }] },
      { text: '6 * 7 = 42.' },
    );
    const response = await post('/api/chat', { message: 'What is 6 * 7?' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as {
      answer: string;
      conversationId: string;
      toolCalls: Array<Record<string, unknown>>;
    };
    expect(body.answer).toBe('6 * 7 = 42.');
    expect(body.conversationId).toMatch(/^[A-Za-z0-9_-]{1,100}$/);
    expect(body.toolCalls).toHaveLength(1);
    expect(body.toolCalls[0]).toMatchObject({
      id: 'call_http',
      functionName: 'calculate',
      server: 'workshop',
      tool: 'calculate',
      arguments: { expression: '6 * 7' },
      isError: false,
      sentAs: 'structured+text',
      sentToModel:
        '{"structuredContent":{"expression":"6 * 7","result":42,"formatted":"42"},"text":"6 * 7 = 42"}',
    });

    // The returned id continues the conversation.
    openai.push({ text: 'Still 42.' });
    const again = await post('/api/chat', { message: 'And again?', conversationId: body.conversationId });
    expect(((await again.json()) as { conversationId: string }).conversationId).toBe(body.conversationId);
    const lastRequest = openai.bodies().at(-1);
    expect(lastRequest?.messages.filter((message) => message.role === 'user')).toHaveLength(2);
  });

  it('answers 502 with the OPENAI_API_KEY hint when the model rejects the key', async () => {
    openai.push({ httpError: 401 });
    const response = await post('/api/chat', { message: 'Hi' });
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: string };
    expect(body.error).toContain('check OPENAI_API_KEY');
    expect(body.error).toContain('(401)');
  });

  it('answers 500 without details when the agent fails unexpectedly', async () => {
    const broken: Agent = {
      ask: async () => {
        throw new Error('secret internal detail');
      },
      reset: () => false,
    };
    const app = createAgentApp({
      agent: broken,
      hub,
      model: scriptedModel(openai.baseUrl).description,
      logger: createSilentLogger(),
    });
    const { server, url } = await listen(app);
    try {
      const response = await fetch(`${url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: 'The agent failed unexpectedly; see its log.' });
      expect(text).not.toContain('secret');
    } finally {
      await close(server);
    }
  });
});

describe('POST /api/chat/stream', () => {
  it('streams tool_start, tool_end, text and done events', async () => {
    openai.push(
      { toolCalls: [{ name: 'get_weather', arguments: { location: 'Oslo', days: 1 }, id: 'call_sse' }] },
      { text: 'It is mild in Oslo today.' },
    );
    const response = await post('/api/chat/stream', { message: 'Weather in Oslo?' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const raw = await response.text();
    // The wire format: "event: <name>\ndata: <one line of JSON>\n\n".
    expect(raw).toMatch(/^event: tool_start\ndata: \{.*\}\n\n/);
    const events = parseSse(raw);
    const names = events.map((event) => event.event);

    expect(names[0]).toBe('tool_start');
    expect(names[1]).toBe('tool_end');
    expect(names.at(-1)).toBe('done');
    expect(names.slice(2, -1).every((name) => name === 'text')).toBe(true);
    expect(names.filter((name) => name === 'text').length).toBeGreaterThan(0);

    expect(events[0]?.data).toMatchObject({
      id: 'call_sse',
      functionName: 'get_weather',
      server: 'workshop',
      tool: 'get_weather',
      arguments: { location: 'Oslo', days: 1 },
    });
    expect(events[1]?.data).toMatchObject({ id: 'call_sse', isError: false, sentAs: 'structured+text' });
    const text = events
      .filter((event) => event.event === 'text')
      .map((event) => (event.data as { text: string }).text)
      .join('');
    expect(text).toBe('It is mild in Oslo today.');
    expect(events.at(-1)?.data).toMatchObject({
      answer: 'It is mild in Oslo today.',
      conversationId: expect.any(String),
      toolCalls: [expect.objectContaining({ id: 'call_sse' })],
    });
  });

  it('ends the stream with an error event when the model fails', async () => {
    openai.push({ httpError: 401 });
    const response = await post('/api/chat/stream', { message: 'Hi' });
    expect(response.status).toBe(200);
    const events = parseSse(await response.text());
    expect(events).toHaveLength(1);
    expect(events[0]?.event).toBe('error');
    expect(events[0]?.data).toEqual({ message: expect.stringContaining('check OPENAI_API_KEY') });
  });

  it('cancels the running tool call when the client goes away', async () => {
    // No second step: the turn ends with the hang-up, the model is not asked again.
    openai.push({ toolCalls: [{ name: 'sleep', arguments: { ms: 10_000 } }] });
    const before = minimal.callCount('sleep');
    const response = await post('/api/chat/stream', { message: 'Sleep.' });
    // Wait until the tool runs on the server, then hang up.
    await expect.poll(() => minimal.callCount('sleep'), { timeout: 5_000 }).toBe(before + 1);
    await response.body?.cancel();

    await expect.poll(() => minimal.calls.at(-1)?.aborted, { timeout: 5_000 }).toBe(true);
  });

  it('validates the body before opening the stream', async () => {
    const response = await post('/api/chat/stream', { message: '' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('request validation', () => {
  it('answers 400 to a body that is not JSON', async () => {
    const response = await post('/api/chat', '{"message": "Hi"');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'The body is not valid JSON.' });
  });

  it('answers 400 with the problems when the message is missing', async () => {
    const response = await post('/api/chat', { conversationId: 'abc' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; problems: string[] };
    expect(body.error).toContain('"message"');
    expect(body.problems).toEqual([expect.stringMatching(/^message: /)]);
  });

  it.each([
    ['a number as message', { message: 42 }],
    ['an empty message', { message: '   ' }],
    ['a number as conversationId', { message: 'Hi', conversationId: 7 }],
    ['an unknown field', { message: 'Hi', extra: true }],
    ['an array as body', [{ message: 'Hi' }]],
    ['a string as body', '"Hi"'],
    ['null as body', 'null'],
  ])('answers 400 to %s', async (_label, body) => {
    const response = await post('/api/chat', body);
    expect(response.status).toBe(400);
    const parsed = (await response.json()) as { problems: string[] };
    expect(parsed.problems.length).toBeGreaterThan(0);
  });

  it('answers 400 to a message over 8000 characters', async () => {
    const response = await post('/api/chat', { message: 'x'.repeat(8_001) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { problems: string[] };
    expect(body.problems).toEqual([expect.stringMatching(/^message: /)]);
  });

  it('accepts a message of exactly 8000 characters', async () => {
    openai.push({ text: 'Long one.' });
    const response = await post('/api/chat', { message: 'x'.repeat(8_000) });
    expect(response.status).toBe(200);
  });

  it.each([
    ['a path', '../../etc/passwd'],
    ['dots', '..'],
    ['10,000 characters', 'a'.repeat(10_000)],
    ['a newline', 'abc\ndef'],
    ['an empty string', ''],
  ])('answers 400 to a conversationId with %s', async (_label, conversationId) => {
    const response = await post('/api/chat', { message: 'Hi', conversationId });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { problems: string[] };
    expect(body.problems).toEqual([expect.stringMatching(/^conversationId: /)]);
  });

  it('answers 413 to a body over 256 KB', async () => {
    const response = await post('/api/chat', { message: 'x'.repeat(MAX_BODY_BYTES + 1) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Request body too large.' });
  });

  it('answers a charset it cannot decode with a JSON error, not a stack trace', async () => {
    const response = await post(
      '/api/chat',
      { message: 'Hi' },
      { 'content-type': 'application/json; charset=iso-8859-1' },
    );
    expect(response.status).toBe(415);
    const text = await response.text();
    expect(text).not.toContain(' at ');
    expect(JSON.parse(text)).toEqual({ error: expect.stringContaining('charset') });
  });

  it('answers 403 to a foreign Origin (cross-site request)', async () => {
    const response = await post('/api/chat', { message: 'Hi' }, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });

  it('accepts a localhost Origin (the chat page)', async () => {
    openai.push({ text: 'Hello.' });
    const response = await post('/api/chat', { message: 'Hi' }, { origin: baseUrl });
    expect(response.status).toBe(200);
  });

  it('answers 403 to a foreign Host header (DNS rebinding)', async () => {
    const { port } = new URL(baseUrl);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/health', headers: { host: `evil.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.once('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('trace ids', () => {
  /** What OpenTelemetry makes a trace id; the stand-in telemetry below hands this one out. */
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  const TEMPLATE = 'http://localhost:16686/trace/{traceId}';

  /** The real loop, whose turns a stand-in for telemetry/start.ts wraps, as it wraps them. */
  function tracedAgent(): Agent {
    const telemetry: Pick<AgentTelemetry, 'turn' | 'chat'> = {
      turn: async (_conversationId, run) => ({ ...(await run()), traceId: TRACE_ID }),
      chat: (_model, run) => run(),
    };
    return createAgent({
      hub,
      model: scriptedModel(openai.baseUrl),
      conversations: new ConversationStore(10),
      settings: TEST_SETTINGS,
      telemetry,
    });
  }

  it('answers traceId and traceViewerUrl null with telemetry off', async () => {
    openai.push({ text: 'No trace.' }, { text: 'Still no trace.' });
    const answer = (await (await post('/api/chat', { message: 'Hi' })).json()) as ChatAnswer;
    expect(answer).toMatchObject({ answer: 'No trace.', traceId: null });
    const events = parseSse(await (await post('/api/chat/stream', { message: 'Hi' })).text());
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { traceId: null } });
    const status = (await (await fetch(`${baseUrl}/api/status`)).json()) as StatusBody;
    expect(status).toMatchObject({ state: 'ready', traceViewerUrl: null });
  });

  it("names each turn's trace, and relays the viewer's template untouched", async () => {
    const { server, url } = await listen(
      createAgentApp({
        agent: tracedAgent(),
        hub,
        model: scriptedModel(openai.baseUrl).description,
        logger: createSilentLogger(),
        traceViewerUrl: TEMPLATE,
      }),
    );
    try {
      openai.push({ text: 'Traced.' }, { text: 'Traced again.' });
      const chat = (body: unknown, path: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const answer = (await (await chat({ message: 'Hi' }, '/api/chat')).json()) as ChatAnswer;
      expect(answer).toMatchObject({ answer: 'Traced.', traceId: TRACE_ID });

      const events = parseSse(await (await chat({ message: 'Hi' }, '/api/chat/stream')).text());
      expect(events.at(-1)).toMatchObject({
        event: 'done',
        data: { answer: 'Traced again.', traceId: TRACE_ID },
      });

      // The template goes out as it is: the page fills in the id, the server builds no link.
      const status = (await (await fetch(`${url}/api/status`)).json()) as StatusBody;
      expect(status).toMatchObject({ state: 'ready', traceViewerUrl: TEMPLATE });
      expect(JSON.stringify(answer)).not.toContain('16686');
    } finally {
      await close(server);
    }
  });
});
