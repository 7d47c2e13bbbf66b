/**
 * @module http/body-errors.http.test
 * A body the client got wrong is the client's mistake, over raw sockets on the fixture host: a body
 * that is not the gzip its Content-Encoding says gets 400 and JSON-RPC -32700, an encoding nobody
 * reads 415, and neither writes more than a debug line; each one spends the sender's budget, so a
 * flood of them gets 429 (a signed-in sender's own budget, not its address's); a client that hangs
 * up mid-body gets no answer and leaves no error in the log.
 */
import { gzipSync } from 'node:zlib';
import {
  freePort,
  MCP_HEADERS,
  modernMeta,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverIssuer } from '../auth/issuer.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { FIXTURE_POLICY } from '../test-support/fixture-server.js';
import { abandonBody, rawExchange } from '../test-support/raw-socket.js';
import type { HttpHost } from './start.js';

const HANDSHAKES_PER_MINUTE = 5;
/** pino's numbers: 20 debug, 30 info, 40 warn, 50 error. */
const INFO = 30;

interface LogLine {
  level: number;
  msg: string;
}

const echo = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'unzipped' }, _meta: modernMeta() },
};
const echoHeaders = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

describe('a request body the client got wrong or abandoned', () => {
  let host: HttpHost;
  const lines: LogLine[] = [];
  const heard: Array<() => void> = [];
  beforeAll(async () => {
    const logger = pino(
      { level: 'debug' },
      {
        write(line: string) {
          lines.push(JSON.parse(line) as LogLine);
          for (const wake of heard.splice(0)) wake();
        },
      },
    );
    host = await startFixtureHost({
      logger,
      stateless: true,
      trustProxy: 'loopback',
      rateLimits: { callsPerMinute: 100, handshakesPerMinute: HANDSHAKES_PER_MINUTE },
    });
  });
  afterAll(async () => {
    await host?.close();
  });

  /** The log lines at info or above written since `from`. */
  const loudSince = (from: number) => lines.slice(from).filter((line) => line.level >= INFO);
  const nextLine = () => new Promise<void>((resolve) => heard.push(resolve));

  const post = (address: string, headers: Record<string, string>, body: string | Buffer) =>
    rawExchange(host.port, {
      target: '/mcp',
      headers: {
        ...MCP_HEADERS,
        ...echoHeaders,
        host: `127.0.0.1:${host.port}`,
        'x-forwarded-for': address,
        ...headers,
      },
      body,
    });

  it('serves a body that is the gzip it says it is', async () => {
    const answer = await post('198.51.100.1', { 'content-encoding': 'gzip' }, gzipSync(JSON.stringify(echo)));
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('unzipped');
  });

  it('answers a body that is not the gzip it says it is with 400 and -32700, and logs nothing above debug', async () => {
    const from = lines.length;
    const answer = await post('198.51.100.2', { 'content-encoding': 'gzip' }, JSON.stringify(echo));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    const parsed = JSON.parse(answer.body) as { jsonrpc: string; error: { code: number; message: string } };
    expect(parsed.jsonrpc).toBe('2.0');
    expect(parsed.error.code).toBe(-32700);
    expect(parsed.error.message).toMatch(/gzip/);
    expect(loudSince(from)).toEqual([]);
  });

  it('answers an encoding nobody reads with 415, and logs nothing above debug', async () => {
    const from = lines.length;
    const answer = await post('198.51.100.3', { 'content-encoding': 'compress' }, JSON.stringify(echo));
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    expect(loudSince(from)).toEqual([]);
  });

  it('counts each undecodable body against its sender: a flood gets 429, another sender still gets in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < HANDSHAKES_PER_MINUTE + 2; i++) {
      const answer = await post('198.51.100.4', { 'content-encoding': 'gzip' }, 'not gzip at all');
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array<number>(HANDSHAKES_PER_MINUTE).fill(400), 429, 429]);
    const other = await post('198.51.100.5', {}, JSON.stringify(echo));
    expect(other.status).toBe(200);
  });

  it('gives a client that hangs up mid-body no answer and no error in the log, and keeps serving', async () => {
    const from = lines.length;
    const logged = nextLine();
    await abandonBody(
      host.port,
      {
        target: '/mcp',
        headers: {
          ...MCP_HEADERS,
          ...echoHeaders,
          host: `127.0.0.1:${host.port}`,
          'x-forwarded-for': '198.51.100.6',
        },
      },
      10_000,
      '{"jsonrpc":"2.0","id":1,',
    );
    // The server says, at debug level, that the client left; the test waits for that line, not for a time.
    await logged;
    expect(lines.slice(from).map((line) => line.level)).toEqual([20]);
    const after = await post('198.51.100.6', {}, JSON.stringify(echo));
    expect(after.status).toBe(200);
  });
});

describe('a signed-in sender of bad bodies', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    const port = await freePort();
    host = await startFixtureHost({
      port,
      stateless: true,
      rateLimits: { callsPerMinute: 100, handshakesPerMinute: 3 },
      auth: {
        issuer: await discoverIssuer(issuer.issuer),
        resource: `http://127.0.0.1:${port}/mcp`,
        policy: FIXTURE_POLICY,
      },
    });
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  const badBodyAs = async (subject: string) => {
    const token = await issuer.token({ subject, resource: host.mcpUrl });
    const answer = await rawExchange(host.port, {
      target: '/mcp',
      headers: {
        ...MCP_HEADERS,
        host: `127.0.0.1:${host.port}`,
        authorization: `Bearer ${token}`,
        'content-encoding': 'gzip',
      },
      body: 'not gzip',
    });
    return answer.status;
  };

  it('spends its own budget, not its address: past it 429, while another user at that address gets 400', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await badBodyAs('flooder'));
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(await badBodyAs('neighbour')).toBe(400);
  });
});
