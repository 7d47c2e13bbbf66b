/**
 * Tests for the input-request part of the HTTP API (`http.ts` with `input-broker.ts`): the chat
 * stream announces `input_request` while it is open and `POST /api/input/:id` answers it. The
 * agent is a stub whose turn asks for input, so no model or MCP server is needed.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentApp } from './http.js';
import { createInputBroker, type InputRequestEvent, NO_PAGE_NOT_ASKED } from './input-broker.js';
import { createSilentLogger } from './logger.js';
import type { Agent } from './loop.js';
import type { McpHub } from './types.js';

const broker = createInputBroker({ timeoutMs: 5_000 });
const SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** A turn that asks the person one question and answers with what they said. */
const agent = {
  async ask() {
    const answer = await broker.handler({ server: 'workshop', message: 'Delete task 1?', schema: SCHEMA });
    return { answer: JSON.stringify(answer), conversationId: 'c1', toolCalls: [] };
  },
} as unknown as Agent;
const hub = { servers: () => [], tools: () => [] } as unknown as McpHub;
const model = { label: 'stub', kind: 'demo', baseUrl: '', model: 'stub', api: 'chat' } as never;

let http: Server;
let baseUrl: string;

beforeAll(async () => {
  const app = createAgentApp({ agent, hub, model, logger: createSilentLogger(), inputBroker: broker });
  http = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => http.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Opens a chat stream, answers its input_request with `answer`, and returns the stream's text. */
async function chatAnswering(answer: (request: InputRequestEvent) => Promise<void>): Promise<string> {
  const response = await postJson('/api/chat/stream', { message: 'Delete task 1' });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let answered = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    const match = /event: input_request\ndata: (.*)\n\n/.exec(text);
    if (match && !answered) {
      answered = true;
      await answer(JSON.parse(match[1] ?? '{}') as InputRequestEvent);
    }
  }
}

describe('input requests over HTTP', () => {
  it('forwards input_request on the open stream and takes the answer at POST /api/input/:id', async () => {
    const text = await chatAnswering(async (request) => {
      expect(request).toMatchObject({ server: 'workshop', message: 'Delete task 1?', schema: SCHEMA });
      const response = await postJson(`/api/input/${request.id}`, {
        action: 'accept',
        content: { confirm: true },
      });
      expect(response.status).toBe(200);
      await expect(response.json()).resolves.toEqual({ ok: true });
      // A second answer to the same request finds nothing to answer.
      expect((await postJson(`/api/input/${request.id}`, { action: 'decline' })).status).toBe(404);
    });
    expect(text).toContain('event: done');
    expect(text).toContain(JSON.stringify(JSON.stringify({ action: 'accept', content: { confirm: true } })));
    expect(broker.pending()).toBe(0);
  });

  it('passes a decline through', async () => {
    const text = await chatAnswering(async (request) => {
      expect((await postJson(`/api/input/${request.id}`, { action: 'decline' })).status).toBe(200);
    });
    expect(text).toContain(JSON.stringify(JSON.stringify({ action: 'decline' })));
  });

  it('declines at once when no stream is open, saying nobody was asked', async () => {
    const response = await postJson('/api/chat', { message: 'Delete task 1' });
    await expect(response.json()).resolves.toMatchObject({
      answer: JSON.stringify({ action: 'decline', notAsked: NO_PAGE_NOT_ASKED }),
    });
  });

  it('answers 404 for an unknown id and 400 for a malformed answer or id', async () => {
    expect((await postJson('/api/input/unknown-id', { action: 'cancel' })).status).toBe(404);
    for (const body of [
      { action: 'maybe' },
      {},
      { action: 'decline', content: { confirm: true } },
      { action: 'accept', content: { confirm: { nested: true } } },
      { action: 'accept', content: { note: 'x'.repeat(2_001) } },
      { action: 'accept', content: { list: [1, 2] } },
      'decline',
    ]) {
      expect((await postJson('/api/input/unknown-id', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await postJson('/api/input/bad.id', { action: 'cancel' })).status).toBe(400);
  });

  it('answers 404 when the app has no broker', async () => {
    const app = createAgentApp({ agent, hub, model, logger: createSilentLogger() });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/input/some-id`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'decline' }),
    });
    expect(response.status).toBe(404);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
