/**
 * @module http/request-target.http.test
 * An absolute-form request-target (`POST http://127.0.0.1:port/mcp HTTP/1.1`, RFC 9112 §3.2.2, which
 * a server MUST accept) is served exactly as the origin form `/mcp`, over raw sockets, in both eras:
 * a 2026-07-28 call and a 2025 session are answered; the authority it names becomes the Host and
 * meets the Host check, and so does the Host header it came with; no token gets 401 and a missing scope 403; and its
 * calls share one rate-limit budget with the origin form's.
 */
import {
  freePort,
  MCP_HEADERS,
  modernMeta,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverIssuer } from '../auth/issuer.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { FIXTURE_POLICY, NOTES_READ } from '../test-support/fixture-server.js';
import { rawExchange } from '../test-support/raw-socket.js';
import type { HttpHost } from './start.js';

const CALLS_PER_MINUTE = 3;

function modernCall(name: string, args: Record<string, unknown>) {
  return {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: modernMeta() },
    },
  };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

describe('an absolute-form request-target is served as the origin form', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  let port: number;
  let authority: string;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    port = await freePort();
    authority = `127.0.0.1:${port}`;
    host = await startFixtureHost({
      port,
      rateLimits: { callsPerMinute: CALLS_PER_MINUTE, handshakesPerMinute: 100 },
      auth: {
        issuer: await discoverIssuer(issuer.issuer),
        resource: `http://${authority}/mcp`,
        policy: FIXTURE_POLICY,
      },
    });
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  const bearer = async (subject: string, scopes: string[] = [NOTES_READ]) => ({
    authorization: `Bearer ${await issuer.token({ subject, resource: host.mcpUrl, scopes })}`,
  });
  const post = (target: string, body: object, headers: Record<string, string>) =>
    rawExchange(port, {
      target,
      headers: { ...MCP_HEADERS, host: authority, ...headers },
      body: JSON.stringify(body),
    });
  const absolute = () => `http://${authority}/mcp`;

  it('answers a 2026-07-28 call', async () => {
    const echo = modernCall('echo', { text: 'absolute hello' });
    const answer = await post(absolute(), echo.body, { ...echo.headers, ...(await bearer('modern')) });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('absolute hello');
  });

  it('opens a 2025 session and calls a tool on it', async () => {
    const auth = await bearer('legacy');
    const opened = await post(absolute(), INITIALIZE, auth);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers['mcp-session-id'];
    expect(sessionId).toBeDefined();
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'on the session' } },
    };
    const answer = await post(absolute(), call, {
      ...auth,
      'mcp-session-id': sessionId ?? '',
      'mcp-protocol-version': '2025-11-25',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('on the session');
  });

  it('checks the authority it names as the Host, in both eras', async () => {
    const echo = modernCall('echo', { text: 'x' });
    const modern = await post('http://evil.example/mcp', echo.body, {
      ...echo.headers,
      ...(await bearer('m')),
    });
    expect(modern.status).toBe(403);
    const legacy = await post('http://evil.example:80/mcp', INITIALIZE, await bearer('l'));
    expect(legacy.status).toBe(403);
  });

  it('checks the Host header it came with too: a foreign one gets 403 whatever the target names', async () => {
    const echo = modernCall('echo', { text: 'x' });
    const answer = await post(absolute(), echo.body, {
      ...echo.headers,
      ...(await bearer('h')),
      host: 'evil.example',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('"text":"x"');
  });

  it('needs a token (401) and the scope a tool needs (403), as the origin form does', async () => {
    const echo = modernCall('echo', { text: 'x' });
    expect((await post(absolute(), echo.body, echo.headers)).status).toBe(401);
    const write = modernCall('write_note', { id: 'n1', text: 'x' });
    const refused = await post(absolute(), write.body, { ...write.headers, ...(await bearer('reader')) });
    expect(refused.status).toBe(403);
  });

  it('counts its calls in the same budget as the origin form', async () => {
    const echo = modernCall('echo', { text: 'counted' });
    const headers = { ...echo.headers, ...(await bearer('one-budget')) };
    const statuses: number[] = [];
    for (const target of ['/mcp', absolute(), '/mcp', absolute()]) {
      statuses.push((await post(target, echo.body, headers)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('refuses a target that is neither a path nor an http URL with 400', async () => {
    const echo = modernCall('echo', { text: 'x' });
    const answer = await post('ftp://127.0.0.1/mcp', echo.body, {
      ...echo.headers,
      ...(await bearer('ftp')),
    });
    expect(answer.status).toBe(400);
  });
});
