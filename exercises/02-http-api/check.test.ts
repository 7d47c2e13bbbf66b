/**
 * The check for exercise 02: `get_exchange_rate` against a local fake of the rates API (success,
 * 404, 500 with internals in the body, and a hang), driven through the official MCP client.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateToolResult } from '@mcp-workshop/shared';
import { freePort } from '@mcp-workshop/test-infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectTools, firstText } from '../test-support/mcp.js';
import { loadParticipant } from '../test-support/participant.js';

type Participant = typeof import('./starter/exchange-rate.js');

/**
 * Well under HANG_MS, so a correct tool gives up long before the fake drops a hung request, yet
 * long enough that a fake answering at once is never late on two busy cores: at 300 ms the first
 * call once timed out beside the rest of `pnpm test`.
 */
const TIMEOUT_MS = 1_000;
/** The fake drops a hung request after this, so even a tool without a timeout finishes the test. */
const HANG_MS = 3_000;
/** A failure message longer than this is not a short sentence. */
const MAX_FAILURE_CHARS = 200;
/** What a crashing API might send: a tool must never pass it on. */
const LEAKY_500_BODY = '{"error":"db down","stack":"at query (/srv/rates/secret.js:42)"}';

type Mode = 'ok' | 'fail' | 'hang';

interface FakeApi {
  baseUrl: string;
  mode: Mode;
  urls: string[];
  /** When each hung request's connection closed: early if the tool let go, at HANG_MS if not. */
  closedAt: number[];
  /** How many hung requests the fake dropped itself at HANG_MS, because the tool still held them. */
  dropped: number;
  close(): Promise<void>;
}

async function startFakeApi(): Promise<FakeApi> {
  const fake = { mode: 'ok' as Mode, urls: [] as string[], closedAt: [] as number[], dropped: 0 };
  const server: Server = createServer((req, res) => {
    fake.urls.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://fake');
    const from = url.searchParams.get('from');
    if (fake.mode === 'hang') {
      const drop = setTimeout(() => {
        fake.dropped += 1;
        res.destroy();
      }, HANG_MS).unref();
      res.on('close', () => {
        clearTimeout(drop);
        fake.closedAt.push(Date.now());
      });
      return;
    }
    if (fake.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' }).end(LEAKY_500_BODY);
      return;
    }
    if (url.pathname !== '/rates' || from === 'XXX') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `Unknown currency "${from}"` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rate: 11.5 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A base URL where nothing listens: a port that was free a moment ago. */
async function unreachableUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/`;
}

/** Polls `done` every few ms until it holds or `withinMs` passes; says which. */
async function waitFor(done: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return done();
}

describe('exercise 02: get_exchange_rate', () => {
  let api: FakeApi;
  let conn: Connected;
  let createTool: Participant['createExchangeRateTool'];
  beforeEach(async () => {
    ({ createExchangeRateTool: createTool } = await loadParticipant<Participant>(
      '02-http-api',
      'exchange-rate.ts',
    ));
    api = await startFakeApi();
    conn = await connectTools(createTool({ baseUrl: api.baseUrl, timeoutMs: TIMEOUT_MS }));
  });
  afterEach(async () => {
    await conn?.close();
    await api?.close();
  });

  const call = (args: Record<string, unknown>) =>
    conn.client.callTool({ name: 'get_exchange_rate', arguments: args });

  it('returns the rate from the API as structuredContent', async () => {
    const result = await call({ from: 'EUR', to: 'NOK' });
    expect(result.isError, `the call failed: ${firstText(result)}`).toBe(false);
    expect(result.structuredContent).toEqual({ from: 'EUR', to: 'NOK', rate: 11.5 });
    expect(api.urls, 'the API should be asked GET /rates?from=EUR&to=NOK').toEqual([
      '/rates?from=EUR&to=NOK',
    ]);
  });

  it('an unknown currency (404) is an isError result that passes on what the API said', async () => {
    const result = await call({ from: 'XXX', to: 'NOK' });
    expect(result.isError, 'a 404 should be an isError result').toBe(true);
    expect(validateToolResult(result).ok, 'the result breaks the workshop result contract').toBe(true);
    expect(firstText(result), 'the text should say which currency is unknown').toContain(
      'Unknown currency "XXX"',
    );
  });

  it('a 500 from the API is an isError result that says the service failed, without leaking its body', async () => {
    api.mode = 'fail';
    const result = await call({ from: 'EUR', to: 'NOK' });
    expect(result.isError, 'a 500 should be an isError result').toBe(true);
    const text = firstText(result);
    expect(text, 'the tool read the 500 body as data: check response.status first').not.toMatch(
      /validation/i,
    );
    expect(text, 'the text mentions an internal error with a ref: handle the status yourself').not.toMatch(
      /internal error/i,
    );
    expect(text, 'the text should say the service failed (or is unavailable)').toMatch(
      /fail|unavailable|500|down|try again/i,
    );
    expect(text, 'the API body (a stack trace) must not reach the model').not.toMatch(/secret|stack|\/srv/);
    expect(
      text.length,
      `the text should be a short sentence, under ${MAX_FAILURE_CHARS} characters`,
    ).toBeLessThan(MAX_FAILURE_CHARS);
  });

  it('an API that cannot be reached is an isError result that says the service failed', async () => {
    const offline = await connectTools(
      createTool({ baseUrl: await unreachableUrl(), timeoutMs: TIMEOUT_MS }),
    );
    try {
      const result = await offline.client.callTool({
        name: 'get_exchange_rate',
        arguments: { from: 'EUR', to: 'NOK' },
      });
      expect(result.isError, 'a refused connection should be an isError result').toBe(true);
      const text = firstText(result);
      expect(text, 'the tool threw, so the model got "internal error": catch the failed fetch').not.toMatch(
        /internal error/i,
      );
      expect(text, 'the text should say the service failed (or could not be reached)').toMatch(
        /fail|unavailable|reach|down|try again/i,
      );
    } finally {
      await offline.close();
    }
  });

  it('an API that hangs is given up after timeoutMs, with an isError result that says so', async () => {
    api.mode = 'hang';
    const result = await call({ from: 'EUR', to: 'NOK' });
    expect(
      api.dropped,
      `the tool was still waiting when the API dropped the request after ${HANG_MS} ms; it should give up after timeoutMs (${TIMEOUT_MS} ms)`,
    ).toBe(0);
    expect(result.isError, 'a timeout should be an isError result').toBe(true);
    expect(firstText(result), 'the text should say the service did not answer in time').toMatch(
      /time|did not answer|too long/i,
    );
  });

  it('a call the client cancels stops waiting for the API at once', async () => {
    // The tool's own timeout is longer than the hang, so only the client's cancel can end the wait early.
    const patient = await connectTools(createTool({ baseUrl: api.baseUrl, timeoutMs: HANG_MS * 2 }));
    try {
      api.mode = 'hang';
      const controller = new AbortController();
      const pending = patient.client
        .callTool(
          { name: 'get_exchange_rate', arguments: { from: 'EUR', to: 'NOK' } },
          { signal: controller.signal },
        )
        .catch(() => undefined);
      expect(await waitFor(() => api.urls.length > 0, HANG_MS), 'the tool never asked the API').toBe(true);
      controller.abort('the user clicked Stop');
      await pending;
      // The connection closes either way: by the tool at the cancel, or by the fake at HANG_MS.
      await waitFor(() => api.closedAt.length > 0, HANG_MS * 2);
      expect(
        api.dropped,
        'the tool kept waiting for the API after the client cancelled: pass `signal` on to fetch',
      ).toBe(0);
    } finally {
      await patient.close();
    }
  });
});
