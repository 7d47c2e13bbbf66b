/**
 * Tests for who may use the agent's HTTP API (`http-access.ts`, `api-access.ts`, in `http.ts`),
 * over real HTTP on 127.0.0.1: the token on every /api route, the one-time link and its cookie,
 * other web pages refused, the per-caller rate limit, and requests for input kept to the caller
 * whose turn asked. The agent is a stub whose turn asks for input when told to.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiAccess, createApiAccess } from './api-access.js';
import { createAgentApp } from './http.js';
import { createInputBroker, type InputRequestEvent } from './input-broker.js';
import { createSilentLogger } from './logger.js';
import type { Agent, AskOptions } from './loop.js';
import type { McpHub } from './types.js';

const TOKEN = 'c0ffee7e5a1d4b3f9e8d7c6b5a493827f1e2d3c4b5a69788';
const SCHEMA = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
const hub = { servers: () => [], tools: () => [], refresh: async () => false } as unknown as McpHub;
const model = { label: 'stub', kind: 'demo', baseUrl: '', model: 'stub', api: 'chat' } as never;

interface Harness {
  baseUrl: string;
  access: ApiAccess;
  /** Every turn the agent ran: the message and the conversation id it got. */
  turns: Array<{ message: string; conversationId: string | undefined }>;
  linkTokens: string[];
  close(): Promise<void>;
}

async function start(options: { rateLimitPerMinute?: number; token?: string | null } = {}): Promise<Harness> {
  const broker = createInputBroker({ timeoutMs: 5_000 });
  const turns: Harness['turns'] = [];
  const linkTokens: string[] = [];
  const token = options.token === null ? undefined : (options.token ?? TOKEN);
  const access = createApiAccess({
    ...(token !== undefined && { token }),
    onLinkToken: (link) => linkTokens.push(link),
  });
  /** "confirm" asks the person, like delete_task; anything else answers at once. */
  const agent = {
    async ask(message: string, askOptions: AskOptions = {}) {
      turns.push({ message, conversationId: askOptions.conversationId });
      const answer =
        message === 'confirm'
          ? JSON.stringify(
              await broker.handler({ server: 'workshop', message: 'Delete task 1?', schema: SCHEMA }),
            )
          : 'fine';
      return { answer, conversationId: askOptions.conversationId ?? 'fresh', toolCalls: [] };
    },
  } as unknown as Agent;
  const app = createAgentApp({
    agent,
    hub,
    model,
    logger: createSilentLogger(),
    inputBroker: broker,
    access,
    ...(options.rateLimitPerMinute !== undefined && { rateLimitPerMinute: options.rateLimitPerMinute }),
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    access,
    turns,
    linkTokens,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const bearer = { authorization: `Bearer ${TOKEN}` };
const json = { 'content-type': 'application/json' };

/** Opens the current one-time link and returns the Cookie header its session is sent with. */
async function session(harness: Harness): Promise<{ cookie: string }> {
  const response = await fetch(`${harness.baseUrl}/?token=${harness.access.linkToken()}`, {
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0] ?? '' };
}

describe('the API token', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(() => harness.close());

  const ROUTES: Array<[string, string, unknown]> = [
    ['GET', '/api/status', undefined],
    ['GET', '/api/tools', undefined],
    ['POST', '/api/chat', { message: 'hi' }],
    ['POST', '/api/chat/stream', { message: 'hi' }],
    ['POST', '/api/input/some-id', { action: 'decline' }],
  ];
  const WRONG: Array<[string, Record<string, string>]> = [
    ['no credentials', {}],
    ['a wrong token', { authorization: `Bearer ${TOKEN.slice(0, -1)}0` }],
    ['a short token', { authorization: 'Bearer x' }],
    ['the token without "Bearer"', { authorization: TOKEN }],
    // The cookie's name is right (the port of the Host header), its value made up.
    ['a made-up session cookie', { cookie: 'mcp_agent_session_PORT=made-up-session' }],
    ['the token as a session cookie', { cookie: `mcp_agent_session_PORT=${TOKEN}` }],
  ];

  it.each(WRONG)('answers 401 on every /api route to %s, and runs nothing', async (_label, wrong) => {
    const port = new URL(harness.baseUrl).port;
    const headers = Object.fromEntries(
      Object.entries(wrong).map(([name, value]) => [name, value.replace('PORT', port)]),
    );
    for (const [method, path, body] of ROUTES) {
      const response = await fetch(`${harness.baseUrl}${path}`, {
        method,
        headers: { ...json, ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expect(response.json()).resolves.toMatchObject({ error: expect.stringMatching(/one-time link/) });
    }
    expect(harness.turns).toEqual([]);
  });

  it('lets the bearer token through', async () => {
    const status = await fetch(`${harness.baseUrl}/api/status`, { headers: bearer });
    expect(status.status).toBe(200);
    const chat = await fetch(`${harness.baseUrl}/api/chat`, {
      method: 'POST',
      headers: { ...json, ...bearer },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(chat.status).toBe(200);
    await expect(chat.json()).resolves.toMatchObject({ answer: 'fine' });
  });

  it('tells a stranger on /health only whether the agent is up', async () => {
    const stranger = await fetch(`${harness.baseUrl}/health`);
    expect(stranger.status).toBe(200);
    await expect(stranger.json()).resolves.toEqual({ status: 'ok', ready: true });
    const caller = await fetch(`${harness.baseUrl}/health`, { headers: bearer });
    await expect(caller.json()).resolves.toMatchObject({ model: { label: 'stub' }, tools: 0 });
  });
});

describe('the one-time link', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(() => harness.close());

  it('sets an HttpOnly, SameSite=Strict cookie, redirects to the clean URL, and works once', async () => {
    const link = harness.access.linkToken() ?? '';
    expect(harness.linkTokens).toEqual([link]);
    // A HEAD (a link checker) does not spend it.
    const head = await fetch(`${harness.baseUrl}/?token=${link}`, { method: 'HEAD', redirect: 'manual' });
    expect(head.headers.get('set-cookie')).toBeNull();
    expect(harness.access.linkToken()).toBe(link);
    const first = await fetch(`${harness.baseUrl}/?token=${link}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    const setCookie = first.headers.get('set-cookie') ?? '';
    const port = new URL(harness.baseUrl).port;
    expect(setCookie).toMatch(new RegExp(`^mcp_agent_session_${port}=[A-Za-z0-9_-]{43}; `));
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain(link);
    const cookie = setCookie.split(';')[0] ?? '';
    expect((await fetch(`${harness.baseUrl}/api/status`, { headers: { cookie } })).status).toBe(200);

    // The same link again: refused, no cookie; a fresh link was minted for whoever runs the agent.
    const again = await fetch(`${harness.baseUrl}/?token=${link}`, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(harness.linkTokens).toHaveLength(2);
    expect(harness.linkTokens[1]).not.toBe(link);
    expect(harness.access.linkToken()).toBe(harness.linkTokens[1]);
  });

  it('refuses a wrong, repeated or secret-as-link token', async () => {
    for (const query of ['token=nope', `token=${TOKEN}`, 'token=a&token=b', 'token=']) {
      const response = await fetch(`${harness.baseUrl}/?${query}`, { redirect: 'manual' });
      expect(response.status, query).toBe(401);
      expect(response.headers.get('set-cookie'), query).toBeNull();
    }
  });

  it('keeps each session to its own conversations', async () => {
    const a = await session(harness);
    const b = await session(harness);
    const chat = (who: { cookie: string }, conversationId?: string) =>
      fetch(`${harness.baseUrl}/api/chat`, {
        method: 'POST',
        headers: { ...json, ...who },
        body: JSON.stringify({ message: 'hi', ...(conversationId && { conversationId }) }),
      }).then((response) => response.json() as Promise<{ conversationId: string }>);
    const started = await chat(a);
    // B names A's conversation: it gets a conversation of its own under the same name.
    const stolen = await chat(b, started.conversationId);
    expect(stolen.conversationId).toBe(started.conversationId);
    const [turnA, turnB] = harness.turns.slice(-2);
    expect(turnA?.conversationId).toMatch(/^session:[0-9a-f]{16}\//);
    expect(turnB?.conversationId).toMatch(/^session:[0-9a-f]{16}\//);
    expect(turnB?.conversationId).not.toBe(turnA?.conversationId);
    expect(turnB?.conversationId?.endsWith(`/${started.conversationId}`)).toBe(true);
  });
});

describe('other web pages', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(() => harness.close());

  it('refuses a form or text/plain POST with 415, before running anything', async () => {
    for (const [type, body] of [
      ['text/plain', JSON.stringify({ message: 'hi' })],
      ['application/x-www-form-urlencoded', 'message=hi'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="message"\r\n\r\nhi\r\n--x--',
      ],
    ]) {
      const response = await fetch(`${harness.baseUrl}/api/chat`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': type ?? '' },
        body,
      });
      expect(response.status, type).toBe(415);
    }
    expect(harness.turns).toEqual([]);
  });

  it('refuses with 403 any Origin but the page own (scheme, host and port)', async () => {
    const { host, port } = new URL(harness.baseUrl);
    for (const origin of [
      'https://evil.example',
      `http://127.0.0.1:${Number(port) + 1}`,
      `https://${host}`,
      `http://localhost:${port}`,
      'null',
    ]) {
      const response = await fetch(`${harness.baseUrl}/api/chat`, {
        method: 'POST',
        headers: { ...json, ...bearer, origin },
        body: JSON.stringify({ message: 'hi' }),
      });
      expect(response.status, origin).toBe(403);
    }
    // A cross-site request that sends no Origin still says where it came from.
    const noOrigin = await fetch(`${harness.baseUrl}/api/status`, {
      headers: { ...bearer, 'sec-fetch-site': 'cross-site' },
    });
    expect(noOrigin.status).toBe(403);
    expect(harness.turns).toEqual([]);
    const own = await fetch(`${harness.baseUrl}/api/chat`, {
      method: 'POST',
      headers: { ...json, ...bearer, origin: harness.baseUrl, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(own.status).toBe(200);
  });
});

describe('the rate limit', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start({ rateLimitPerMinute: 2 });
  });
  afterAll(() => harness.close());

  const chat = (headers: Record<string, string>, path = '/api/chat') =>
    fetch(`${harness.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...json, ...headers },
      body: JSON.stringify({ message: 'hi' }),
    });

  it('answers 429 with Retry-After and a JSON error once a caller is over it, per caller', async () => {
    const a = await session(harness);
    expect((await chat(a)).status).toBe(200);
    // The stream shares the bucket: a turn costs the same either way.
    const stream = await chat(a, '/api/chat/stream');
    expect(stream.status).toBe(200);
    await stream.text();
    const over = await chat(a);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect(over.json()).resolves.toMatchObject({
      error: expect.stringMatching(/at most 2 chat turns a minute per caller/),
      retryAfterSeconds: expect.any(Number),
    });
    expect(harness.turns).toHaveLength(2);
    // Another caller has a bucket of its own.
    const b = await session(harness);
    expect((await chat(b)).status).toBe(200);
    expect((await chat(bearer)).status).toBe(200);
  });

  it('limits answers to requests for input too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${harness.baseUrl}/api/input/unknown-id`, {
        method: 'POST',
        headers: { ...json, ...bearer },
        body: JSON.stringify({ action: 'decline' }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([404, 404, 429]);
  });
});

/** Reads a chat stream until `input_request` (returned with the rest of the stream) or the end. */
async function openStream(baseUrl: string, headers: Record<string, string>, message: string) {
  const response = await fetch(`${baseUrl}/api/chat/stream`, {
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify({ message }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const until = async (pattern: RegExp): Promise<RegExpExecArray | null> => {
    // Bounded: the stub's turn writes at most a handful of events.
    for (let reads = 0; reads < 50; reads += 1) {
      const found = pattern.exec(text);
      if (found) return found;
      const { value, done } = await reader.read();
      if (done) return pattern.exec(text);
      text += decoder.decode(value, { stream: true });
    }
    throw new Error(`no ${pattern} in ${text}`);
  };
  return { until, text: () => text };
}

describe('requests for input', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(() => harness.close());

  it('reach only the caller whose turn asked, and another caller cannot answer them', async () => {
    const a = await session(harness);
    const b = await session(harness);
    const streamA = await openStream(harness.baseUrl, a, 'confirm');
    const match = await streamA.until(/event: input_request\ndata: (.*)\n\n/);
    const request = JSON.parse(match?.[1] ?? '{}') as InputRequestEvent;
    expect(request).toMatchObject({ server: 'workshop', message: 'Delete task 1?' });

    // B's stream, open at the same time, hears nothing of it.
    const streamB = await openStream(harness.baseUrl, b, 'hi');
    await streamB.until(/event: done/);
    expect(streamB.text()).not.toContain('input_request');
    expect(streamB.text()).not.toContain(request.id);

    // B (and the bearer token's holder) answering A's request: 404, and A's turn still waits.
    for (const other of [b, bearer]) {
      const stolen = await fetch(`${harness.baseUrl}/api/input/${request.id}`, {
        method: 'POST',
        headers: { ...json, ...other },
        body: JSON.stringify({ action: 'accept', content: { confirm: true } }),
      });
      expect(stolen.status).toBe(404);
    }
    expect(streamA.text()).not.toContain('event: done');

    const own = await fetch(`${harness.baseUrl}/api/input/${request.id}`, {
      method: 'POST',
      headers: { ...json, ...a },
      body: JSON.stringify({ action: 'decline' }),
    });
    expect(own.status).toBe(200);
    await streamA.until(/event: done/);
    expect(streamA.text()).toContain(JSON.stringify(JSON.stringify({ action: 'decline' })));
  });
});

describe('without AGENT_API_TOKEN', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start({ token: null });
  });
  afterAll(() => harness.close());

  it('lets a local caller in, prints no link, and still refuses other pages and forms', async () => {
    expect(harness.linkTokens).toEqual([]);
    expect((await fetch(`${harness.baseUrl}/api/status`)).status).toBe(200);
    const form = await fetch(`${harness.baseUrl}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect(form.status).toBe(415);
    const foreign = await fetch(`${harness.baseUrl}/api/chat`, {
      method: 'POST',
      headers: { ...json, origin: 'http://127.0.0.1:1' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(foreign.status).toBe(403);
    expect(harness.turns).toEqual([]);
  });
});
