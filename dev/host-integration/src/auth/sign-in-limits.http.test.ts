/**
 * Sign-in's second round, over real HTTP with tokens from the workshop's authorization server (a
 * separate process): bad tokens run into a per-address limit, a replay needs every scope its
 * session used, long-lived streams end with their token, and one client's streams stay within its
 * share.
 */
import { Writable } from 'node:stream';
import {
  AGENT_CLIENT,
  type AuthServerProcess,
  startAuthServerProcess,
} from '@mcp-workshop/auth-server/process';
import { CLOCK_TOLERANCE_SECONDS, discoverIssuer, type IssuerMetadata } from '@mcp-workshop/mcp-host';
import {
  MCP_HEADERS,
  MODERN_META,
  openRawSession,
  postInitialize,
  postOnSession,
  readMessages,
} from '@mcp-workshop/test-infra';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
/** The authorization server's token lifetime (its default, AUTH_ACCESS_TOKEN_TTL_SECONDS). */
const TOKEN_TTL_SECONDS = 600;

let auth: AuthServerProcess;
let issuer: IssuerMetadata;
const servers: TestServer[] = [];
let full = '';
let writeOnly = '';

beforeAll(async () => {
  auth = await startAuthServerProcess({ resources: [RESOURCE] });
  issuer = await discoverIssuer(auth.issuer);
  full = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
  writeOnly = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:write');
}, 60_000);

afterAll(async () => {
  await Promise.all([...servers.map((server) => server.close()), auth?.close()]);
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer({ ...options, auth: { issuer, resource: RESOURCE, ...options.auth } });
  servers.push(server);
  return server;
}

/**
 * What a token issued after the server started has left to live, tolerance included: room for the
 * few requests that open a stream on two loaded cores (`iat` is rounded down, so 1 s less at worst),
 * while the stream's end still comes well inside ENDS_WAIT_MS.
 */
const NEAR_EXPIRY_SECONDS = 5;

/** A server whose clock says a fresh token has `secondsLeft` to live, tolerance included. */
function startNearExpiry(secondsLeft: number): Promise<TestServer> {
  const offsetMs = (TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS - secondsLeft) * 1000;
  return start({ auth: { issuer, resource: RESOURCE, now: () => new Date(Date.now() + offsetMs) } });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function initialize(url: string, token: string): Promise<Response> {
  return postInitialize(url, bearer(token));
}

function openSession(url: string, token: string): Promise<string> {
  return openRawSession(url, '2025-11-25', bearer(token));
}

function onSession(url: string, sessionId: string, token: string, message: unknown): Promise<Response> {
  return postOnSession(url, sessionId, message, bearer(token));
}

function getStream(url: string, sessionId: string, token: string, lastEventId?: string): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: 'text/event-stream',
      ...bearer(token),
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
  });
}

function listen(url: string, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      ...bearer(token),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'subscriptions/listen',
      params: { notifications: { resourcesListChanged: true }, _meta: MODERN_META },
    }),
  });
}

type TextReader = ReadableStreamDefaultReader<string>;

/**
 * How long a test waits for a stream that should end: a safety net inside the test's timeout, not a
 * bar. Only the event under test (the token's expiry, the answer) can end the stream.
 */
const ENDS_WAIT_MS = 15_000;

/** Reads `reader` for up to `ms`: 'ended' when its stream ends, else 'open'. Each chunk goes to `onText`. */
async function readUntilEnd(
  reader: TextReader,
  ms: number,
  onText: (text: string) => void = () => {},
): Promise<'ended' | 'open'> {
  const deadline = Date.now() + ms;
  for (let reads = 0; reads < 1_000; reads++) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const next = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), left)),
    ]);
    if (next === 'timeout') break;
    if (next.done) return 'ended';
    onText(next.value);
  }
  return 'open';
}

/** Resolves 'ended' when the body ends within `ms`, else 'open' (and cancels the read). */
async function endsWithin(response: Response, ms: number): Promise<'ended' | 'open'> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) return 'ended';
  const outcome = await readUntilEnd(reader, ms);
  if (outcome === 'open') await reader.cancel().catch(() => undefined);
  return outcome;
}

describe('bad tokens count against their address', () => {
  it('answers 429 once an address has sent its share of bad tokens, and logs them at debug only', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const server = await start({
      logger: pino({ level: 'trace' }, sink),
      rateLimits: { callsPerMinute: 0, handshakesPerMinute: 0, authFailuresPerMinute: 5 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer not-a-token-${i}` },
        body: '{}',
      });
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const limited = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: 'Bearer one-more-junk' },
      body: '{}',
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: 'too_many_requests' });
    const noToken = await fetch(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: '{}' });
    expect(noToken.status).toBe(429);
    await noToken.text();
    // Every junk token was still checked (the refusal is logged) before the budget said 429.
    const refusals = lines.filter((line) => line.msg === 'refused an access token');
    expect(refusals.length).toBe(9);
    expect(refusals.every((line) => line.level === 20)).toBe(true);
  });

  it('serves a valid token from an address that is over its bad-token budget, of another user too', async () => {
    const server = await start({
      rateLimits: { callsPerMinute: 0, handshakesPerMinute: 0, authFailuresPerMinute: 60 },
    });
    // The finding: 61 junk tokens from 127.0.0.1, then a valid token of another user, got 429.
    for (let i = 0; i < 61; i++) {
      const response = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: 'Bearer junk' },
        body: '{}',
      });
      await response.text();
    }
    const junk = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: 'Bearer junk' },
      body: '{}',
    });
    expect(junk.status).toBe(429);
    await junk.text();
    const reader = await auth.token(
      { id: 'workshop-reader', secret: 'workshop-reader-secret' },
      RESOURCE,
      'tasks:read',
    );
    for (const token of [reader, full]) {
      const served = await initialize(server.mcpUrl, token);
      expect(served.status).toBe(200);
      await served.text();
    }
    const tools = await fetch(`${server.baseUrl}/tools`, { headers: bearer(full) });
    expect(tools.status).toBe(200);
    await tools.text();
  });

  it('gives the hit back when the token proves good, so a signed-in client never runs into it', async () => {
    const server = await start({
      rateLimits: { callsPerMinute: 0, handshakesPerMinute: 0, authFailuresPerMinute: 3 },
    });
    for (let i = 0; i < 10; i++) {
      const response = await initialize(server.mcpUrl, full);
      await response.text();
      expect(response.status).toBe(200);
    }
    const bad = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: 'Bearer x' },
    });
    expect(bad.status).toBe(401);
  });
});

describe('a replay (Last-Event-ID) needs every scope its session used', () => {
  it('refuses a narrower token of the same subject with 403 insufficient_scope, and replays to the full one', async () => {
    const server = await start();
    const sessionId = await openSession(server.mcpUrl, full);
    await (
      await onSession(server.mcpUrl, sessionId, full, { jsonrpc: '2.0', method: 'notifications/initialized' })
    ).text();
    await (
      await onSession(server.mcpUrl, sessionId, full, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add_task', arguments: { title: 'secret plans' } },
      })
    ).text();
    const listed = await onSession(server.mcpUrl, sessionId, full, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'list_tasks', arguments: {} },
    });
    const raw = await listed.text();
    expect(raw).toContain('secret plans');
    // The priming event's id names the stream the answer went out on.
    const eventId = /^id: (.+)$/m.exec(raw)?.[1];
    expect(eventId).toBeDefined();

    const narrow = await getStream(server.mcpUrl, sessionId, writeOnly, eventId);
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toMatch(
      /insufficient_scope.*scope="tasks:read tasks:write"/,
    );
    expect(await narrow.text()).not.toContain('secret plans');

    const wide = await getStream(server.mcpUrl, sessionId, full, eventId);
    expect(wide.status).toBe(200);
    // The replay is sent at once; the stream then stays open for new events.
    const reader = wide.body?.getReader();
    let replayed = '';
    for (let i = 0; i < 20 && !replayed.includes('secret plans'); i++) {
      const chunk = await Promise.race([
        reader?.read(),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2_000)),
      ]);
      if (!chunk || chunk.done) break;
      replayed += new TextDecoder().decode(chunk.value);
    }
    await reader?.cancel();
    expect(replayed).toContain('secret plans');
  });
});

describe('long-lived streams end with their token', () => {
  it('ends a 2025 GET stream when its token expires, and the same token is then refused', async () => {
    const server = await startNearExpiry(NEAR_EXPIRY_SECONDS);
    const token = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
    const sessionId = await openSession(server.mcpUrl, token);
    const stream = await getStream(server.mcpUrl, sessionId, token);
    expect(stream.status).toBe(200);
    expect(await endsWithin(stream, ENDS_WAIT_MS)).toBe('ended');
    const again = await getStream(server.mcpUrl, sessionId, token);
    expect(again.status).toBe(401);
    await again.text();
  });

  it('ends a 2026-07-28 listen stream when its token expires', async () => {
    const server = await startNearExpiry(NEAR_EXPIRY_SECONDS);
    const token = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
    const stream = await listen(server.mcpUrl, token);
    expect(stream.status).toBe(200);
    expect(await endsWithin(stream, ENDS_WAIT_MS)).toBe('ended');
  });

  it('keeps a stream open while its token is valid', async () => {
    const server = await startNearExpiry(120);
    const stream = await listen(server.mcpUrl, full);
    expect(stream.status).toBe(200);
    expect(await endsWithin(stream, 1_500)).toBe('open');
  });
});

describe("one client's streams stay within its share", () => {
  it('gives a client past its listen-stream share 429 while another subject still listens, and frees the share on close', async () => {
    const server = await start({ maxStreamsPerClient: 2, maxStreams: 100 });
    const open = [await listen(server.mcpUrl, full), await listen(server.mcpUrl, full)];
    expect(open.map((response) => response.status)).toEqual([200, 200]);
    const third = await listen(server.mcpUrl, full);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('30');
    expect(await third.json()).toMatchObject({
      id: 9,
      error: { message: expect.stringMatching(/for this client: at most 2/) },
    });

    const other = await auth.token(
      { id: 'workshop-reader', secret: 'workshop-reader-secret' },
      RESOURCE,
      'tasks:read',
    );
    const theirs = await listen(server.mcpUrl, other);
    expect(theirs.status).toBe(200);
    await theirs.body?.cancel();

    await open[0]?.body?.cancel();
    // The share comes back once the server sees the close; bounded wait.
    let again = 0;
    for (let i = 0; i < 30 && again !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = await listen(server.mcpUrl, full);
      again = response.status;
      if (again === 200) await response.body?.cancel();
      else await response.text();
    }
    expect(again).toBe(200);
    await open[1]?.body?.cancel();
  });

  it('counts 2025 GET streams in the same share, and answers 503 only when the server is full for everyone', async () => {
    const server = await start({ maxStreamsPerClient: 2, maxStreams: 3 });
    const sessionA = await openSession(server.mcpUrl, full);
    const sessionB = await openSession(server.mcpUrl, full);
    const getA = await getStream(server.mcpUrl, sessionA, full);
    expect(getA.status).toBe(200);
    const listenA = await listen(server.mcpUrl, full);
    expect(listenA.status).toBe(200);
    // The agent holds its two: a GET stream on its other session is over its share.
    const getB = await getStream(server.mcpUrl, sessionB, full);
    expect(getB.status).toBe(429);
    await getB.text();

    const reader = await auth.token(
      { id: 'workshop-reader', secret: 'workshop-reader-secret' },
      RESOURCE,
      'tasks:read',
    );
    const theirs = await listen(server.mcpUrl, reader);
    expect(theirs.status).toBe(200);
    // Three of three taken: the reader still has room in its share, but the server has none.
    const full503 = await listen(server.mcpUrl, reader);
    expect(full503.status).toBe(503);
    expect(full503.headers.get('retry-after')).toBe('30');
    expect(await full503.json()).toMatchObject({
      error: { message: expect.stringMatching(/on this server/) },
    });
    await Promise.all([getA.body?.cancel(), listenA.body?.cancel(), theirs.body?.cancel()]);
  });
});

/** The id of the task an add_task answer (request id 2) names. */
function addedTaskId(messages: readonly unknown[]): number {
  const answer = messages.find((message) => (message as { id?: unknown }).id === 2) as
    | { result: { structuredContent: { task: { id: number } } } }
    | undefined;
  if (!answer) throw new Error(`no answer to add_task in ${JSON.stringify(messages)}`);
  return answer.result.structuredContent.task.id;
}

/** Opens a 2025 session whose client can answer form elicitation (so delete_task asks it). */
async function openAskingSession(url: string, token: string): Promise<string> {
  const response = await postInitialize(url, bearer(token), '2025-11-25', { elicitation: { form: {} } });
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize gave no session (HTTP ${response.status})`);
  await (
    await onSession(url, sessionId, token, { jsonrpc: '2.0', method: 'notifications/initialized' })
  ).text();
  return sessionId;
}

/** Adds a task, then calls delete_task on it and reads its stream until the server asks to confirm. */
async function callWaitingOnElicitation(url: string, sessionId: string, token: string) {
  const added = await readMessages(
    await onSession(url, sessionId, token, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_task', arguments: { title: 'keep me' } },
    }),
  );
  const taskId = addedTaskId(added);
  const call = await onSession(url, sessionId, token, {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'delete_task', arguments: { id: taskId } },
  });
  expect(call.status).toBe(200);
  const reader = call.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new Error('delete_task answered without a body');
  let text = '';
  /** Every message the call's stream carried so far. */
  const sent = () =>
    text
      // Whole lines only: a read can end inside one. A priming event's data line is empty.
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
      .map((line) => JSON.parse(line.slice('data: '.length)) as { id?: string | number; method?: string });
  const question = () => sent().find((message) => message.method === 'elicitation/create');
  for (let reads = 0; reads < 100 && !question(); reads++) {
    const next = await reader.read();
    if (next.done) break;
    text += next.value;
  }
  const questionId = question()?.id;
  expect(questionId, text).toBeDefined();
  const endsWithin = (ms: number) => readUntilEnd(reader, ms, (chunk) => (text += chunk));
  return { taskId, questionId, endsWithin, sent };
}

describe('a 2025 call waiting on its client is a long-lived response', () => {
  it('ends with its token: the call is cancelled, its response ends, and nothing is deleted', async () => {
    const server = await startNearExpiry(NEAR_EXPIRY_SECONDS);
    const token = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
    const sessionId = await openAskingSession(server.mcpUrl, token);
    const waiting = await callWaitingOnElicitation(server.mcpUrl, sessionId, token);
    expect(await waiting.endsWithin(ENDS_WAIT_MS)).toBe('ended');
    // The call was cancelled, not answered: no result for it went out, and the task is still there.
    expect(waiting.sent().filter((message) => message.id === 3)).toEqual([]);
    const tasks = await server.deps.todos.list(`sub:${AGENT_CLIENT.id}`, 'all');
    expect(tasks.map((task) => task.id)).toContain(waiting.taskId);
  });

  it("counts toward the client's stream share while it waits, and gives it back once answered", async () => {
    const server = await start({ maxStreamsPerClient: 1, maxStreams: 100 });
    const sessionId = await openAskingSession(server.mcpUrl, full);
    const waiting = await callWaitingOnElicitation(server.mcpUrl, sessionId, full);
    const refused = await listen(server.mcpUrl, full);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/at most 1/) } });
    // Declined: the call ends with its answer, and its share comes back.
    const answered = await onSession(server.mcpUrl, sessionId, full, {
      jsonrpc: '2.0',
      id: waiting.questionId,
      result: { action: 'decline' },
    });
    expect(answered.status).toBe(202);
    expect(await waiting.endsWithin(ENDS_WAIT_MS)).toBe('ended');
    let again = 0;
    for (let i = 0; i < 30 && again !== 200; i++) {
      const response = await listen(server.mcpUrl, full);
      again = response.status;
      if (again === 200) await response.body?.cancel();
      else {
        await response.text();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(again).toBe(200);
  });

  it('fails the question, not the server, when the client already holds its whole share', async () => {
    const server = await start({ maxStreamsPerClient: 1, maxStreams: 100 });
    const held = await listen(server.mcpUrl, full);
    expect(held.status).toBe(200);
    const sessionId = await openAskingSession(server.mcpUrl, full);
    const added = await readMessages(
      await onSession(server.mcpUrl, sessionId, full, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add_task', arguments: { title: 'still here' } },
      }),
    );
    const taskId = addedTaskId(added);
    const messages = await readMessages(
      await onSession(server.mcpUrl, sessionId, full, {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'delete_task', arguments: { id: taskId } },
      }),
    );
    // The question could not be asked, so nothing is deleted (delete_task fails safe).
    expect(messages.find((message) => message.id === 3)).toMatchObject({
      result: {
        isError: true,
        content: [{ text: expect.stringMatching(/^Not deleted: the user's confirmation/) }],
      },
    });
    const tasks = await server.deps.todos.list(`sub:${AGENT_CLIENT.id}`, 'all');
    expect(tasks.map((task) => task.id)).toContain(taskId);
    await held.body?.cancel();
  });
});

describe('hostile input on the long-lived routes', () => {
  it('answers a GET with a junk Last-Event-ID on a live session without crashing or leaking', async () => {
    const server = await start();
    const sessionId = await openSession(server.mcpUrl, full);
    for (const junk of ['', 'x', '..', `${'9'.repeat(500)}.1`, '%zz.1']) {
      const response = await getStream(server.mcpUrl, sessionId, full, junk);
      expect([200, 400, 404, 409]).toContain(response.status);
      await response.body?.cancel();
    }
    const messages = await readMessages(
      await onSession(server.mcpUrl, sessionId, full, { jsonrpc: '2.0', id: 5, method: 'ping' }),
    );
    expect(messages[0]).toMatchObject({ id: 5, result: {} });
  });
});
