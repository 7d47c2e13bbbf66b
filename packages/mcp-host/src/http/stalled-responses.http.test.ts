/**
 * @module http/stalled-responses.http.test
 * Over real HTTP, with a small bound: a client that asks for a large answer and never reads it loses
 * its connection, and the server's response ends there instead of holding the answer; an event
 * stream that is not read stays open; a client that reads gets the whole answer. Events, not time:
 * each test waits for a `close`, and the stream's case rests on timers of one length firing in the
 * order they were set. Partner: `stalled-responses.ts`.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { MCP_HEADERS, modernMeta, openRawSession } from '@mcp-workshop/test-infra';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { type HttpHost, startHttpHost } from './start.js';

/**
 * Far more than loopback's socket buffers on both sides take, so the server's writes back up: with
 * Linux's defaults the kernel takes about 4 MiB of an answer nobody reads (3.9 MB measured), and
 * this is four times that. Not more: each test builds, sends and parses the answer, which on two
 * loaded cores took 20 s at 64 MiB.
 */
const ANSWER_BYTES = 16 * 1024 * 1024;
/** A safety net for a loaded machine; the tests wait for events, and take about 1 s when idle. */
const TEST_TIMEOUT_MS = 60_000;
/** Small, so a dropped socket comes soon; the tests wait for events, never for this. */
const STALLED_MS = 50;

function bigAnswerServer(): McpServer {
  const server = new McpServer({ name: 'big-answers', version: '1.0.0' });
  server.registerTool('big', { description: 'Answers with a lot of text.' }, async () => ({
    content: [{ type: 'text', text: 'x'.repeat(ANSWER_BYTES) }],
  }));
  return server;
}

function start(stalledResponseMs?: number): Promise<HttpHost> {
  return startHttpHost({
    buildServer: bigAnswerServer,
    info: { name: 'big-answers', version: '1.0.0' },
    logger: createSilentLogger(),
    sessionTtlSeconds: 60,
    ...(stalledResponseMs !== undefined && { stalledResponseMs }),
  });
}

const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call' } as const;

/** A 2026-07-28 call of `big`: its answer is one JSON body. */
function modernCall(port: number): string {
  const body = JSON.stringify({ ...CALL, params: { name: 'big', arguments: {}, _meta: modernMeta() } });
  return request(port, body, {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'big',
  });
}

/** A 2025 call of `big` on a session: its answer comes as an event stream. */
function sessionCall(port: number, sessionId: string): string {
  const body = JSON.stringify({ ...CALL, params: { name: 'big', arguments: {} } });
  return request(port, body, { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': sessionId });
}

function request(port: number, body: string, headers: Record<string, string>): string {
  const lines = [`POST /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`];
  for (const [name, value] of Object.entries({ ...MCP_HEADERS, ...headers })) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${Buffer.byteLength(body)}`, '', body);
  return lines.join('\r\n');
}

/** Sends `raw` and never reads a byte of the answer. */
async function sendAndNeverRead(port: number, raw: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.pause();
  socket.write(raw);
  return socket;
}

/** Reads what is left on `socket` and counts the bytes, until the connection closes. */
function readUntilClose(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    // A reset, rather than a close after the last byte, is also the server letting go.
    socket.on('error', () => {});
    socket.once('close', () => resolve(bytes));
    socket.resume();
  });
}

/** The server's side of the next POST /mcp: its response, and the first write its socket refused. */
function nextExchange(host: HttpHost) {
  return new Promise<{
    req: IncomingMessage;
    res: ServerResponse;
    closed: Promise<unknown>;
    backedUp: Promise<void>;
  }>((resolve) => {
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== 'POST') return;
      host.server.off('request', onRequest);
      let refused: () => void = () => {};
      const backedUp = new Promise<void>((done) => {
        refused = done;
      });
      for (const method of ['write', 'end'] as const) {
        const original = res[method].bind(res) as (...args: unknown[]) => unknown;
        res[method] = ((...args: unknown[]) => {
          const result = original(...args);
          if (result === false || (!res.writableFinished && req.socket.writableNeedDrain)) refused();
          return result;
        }) as never;
      }
      resolve({ req, res, closed: once(res, 'close'), backedUp });
    };
    host.server.on('request', onRequest);
  });
}

describe('an answer nobody reads', () => {
  const hosts: HttpHost[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    for (const host of hosts.splice(0)) await host.close();
  });

  it(
    'drops the connection of a JSON answer its client never reads: the response ends, the client finds it cut',
    async () => {
      const host = await start(STALLED_MS);
      hosts.push(host);
      const exchange = nextExchange(host);
      const socket = await sendAndNeverRead(host.port, modernCall(host.port));
      sockets.push(socket);
      const { req, res, closed, backedUp } = await exchange;
      await backedUp;
      await closed;
      expect(res.getHeader('content-type') ?? 'application/json').toMatch(/^application\/json/);
      expect(req.socket.destroyed).toBe(true);
      // Nothing holds the answer any more: the socket's queue went with it.
      expect(req.socket.writableLength).toBe(0);
      // A client that reads now gets what the kernel had taken, far from the whole answer, then the close.
      const received = await readUntilClose(socket);
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(ANSWER_BYTES);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'leaves an event stream nobody reads open, while a JSON answer stalled after it is dropped',
    async () => {
      const host = await start(STALLED_MS);
      hosts.push(host);
      const sessionId = await openRawSession(host.mcpUrl);
      const streamExchange = nextExchange(host);
      const stream = await sendAndNeverRead(host.port, sessionCall(host.port, sessionId));
      sockets.push(stream);
      const streamed = await streamExchange;
      await streamed.backedUp;

      // Stalled after the stream: were the stream under the rule, its timer (set first, as long)
      // would have fired before this one's.
      const jsonExchange = nextExchange(host);
      const json = await sendAndNeverRead(host.port, modernCall(host.port));
      sockets.push(json);
      const dropped = await jsonExchange;
      await dropped.backedUp;
      await dropped.closed;

      expect(dropped.req.socket.destroyed).toBe(true);
      expect(streamed.req.socket.destroyed).toBe(false);
      expect(streamed.res.closed).toBe(false);
      expect(streamed.req.socket.writableLength).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'gives the whole answer to a client that reads it',
    async () => {
      const host = await start();
      hosts.push(host);
      const response = await fetch(host.mcpUrl, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'big',
        },
        body: JSON.stringify({ ...CALL, params: { name: 'big', arguments: {}, _meta: modernMeta() } }),
      });
      const answer = (await response.json()) as { result: { content: Array<{ text: string }> } };
      expect(answer.result.content[0]?.text).toHaveLength(ANSWER_BYTES);
    },
    TEST_TIMEOUT_MS,
  );

  it('refuses a bound that is not a positive number of milliseconds', async () => {
    for (const bound of [0, -1, Number.NaN]) {
      await expect(start(bound)).rejects.toThrow(RangeError);
    }
  });
});
