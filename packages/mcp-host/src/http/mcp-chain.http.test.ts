/**
 * @module http/mcp-chain.http.test
 * `/mcp`'s one chain (`createApp`'s `mcpChain`, mounted once as the app's first route), over real
 * HTTP on the fixture host with sign-in and rate limits on. Every spelling express accepts for the
 * route (`/mcp`, a query, `/MCP`, `/mcp/`) gets each check of the chain: a foreign Host, a foreign
 * Origin, a missing token, a missing scope, and one rate-limit budget whichever way the calls came;
 * each test fails when its check is taken out of the list. A path under `/mcp` is not `/mcp`, and a
 * request for `/mcp` is answered without running any layer mounted after the route.
 */
import {
  freePort,
  MCP_HEADERS,
  modernMeta,
  rawPost,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverIssuer } from '../auth/issuer.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { FIXTURE_POLICY, NOTES_READ } from '../test-support/fixture-server.js';
import type { HttpHost } from './start.js';

/** What the app's layers are to express's router (router 2.x); only `handle` is swapped here. */
interface RouterLayer {
  handle: (...args: unknown[]) => unknown;
  route?: { path: string };
}

/** How clients spell `/mcp`, with a query, and the other spellings express matches the route with. */
const SPELLINGS = ['/mcp', '/mcp?via=query', '/MCP', '/mcp/', '/Mcp/?via=query'];
const CALLS_PER_MINUTE = 3;

/** One raw POST, so the Host header and the path are sent exactly as given. */
function post(port: number, path: string, body: object, headers: Record<string, string> = {}) {
  return rawPost(port, path, { ...MCP_HEADERS, host: `127.0.0.1:${port}`, ...headers }, JSON.stringify(body));
}

/** A 2026-07-28 call of a fixture tool, with the headers that go with it. */
function modernCall(name: string, args: Record<string, unknown>) {
  return {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: modernMeta(),
      },
    },
  };
}

describe('/mcp however it is spelt: one chain, every check', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  let port: number;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    port = await freePort();
    host = await startFixtureHost({
      port,
      rateLimits: { callsPerMinute: CALLS_PER_MINUTE, handshakesPerMinute: 100 },
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

  const bearer = async (subject: string, scopes: string[] = [NOTES_READ]) => ({
    authorization: `Bearer ${await issuer.token({ subject, resource: host.mcpUrl, scopes })}`,
  });
  const echo = modernCall('echo', { text: 'hello' });

  it.each(SPELLINGS)('%s: a foreign Host gets 403 before anything else', async (path) => {
    const answer = await post(port, path, echo.body, { ...echo.headers, host: 'evil.example' });
    expect(answer.status).toBe(403);
  });

  it.each(SPELLINGS)('%s: a foreign Origin gets 403, even with a valid token', async (path) => {
    const answer = await post(port, path, echo.body, {
      ...echo.headers,
      ...(await bearer(`origin${path}`)),
      origin: 'https://evil.example',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('hello');
  });

  it.each(SPELLINGS)('%s: no token gets 401', async (path) => {
    const answer = await post(port, path, echo.body, echo.headers);
    expect(answer.status).toBe(401);
  });

  it.each(SPELLINGS)('%s: a token without the scope a tool needs gets 403', async (path) => {
    const write = modernCall('write_note', { id: 'n1', text: 'x' });
    const answer = await post(port, path, write.body, {
      ...write.headers,
      ...(await bearer(`reader${path}`)),
    });
    expect(answer.status).toBe(403);
  });

  it.each(SPELLINGS)('%s: a valid token gets the call answered', async (path) => {
    const answer = await post(port, path, echo.body, { ...echo.headers, ...(await bearer(`caller${path}`)) });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('hello');
  });

  it('counts the calls of one client in one budget, whichever way they came', async () => {
    const headers = { ...echo.headers, ...(await bearer('one-budget')) };
    const statuses: number[] = [];
    for (const path of ['/mcp', '/MCP', '/mcp?via=query', '/mcp/']) {
      statuses.push((await post(port, path, echo.body, headers)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('does not serve a path under /mcp as /mcp', async () => {
    const answer = await post(port, '/mcp/extra', echo.body, { ...echo.headers, ...(await bearer('below')) });
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('hello');
  });

  it('answers /mcp from its route, the first after the request-target layer: no later layer runs', async () => {
    const stack = (host.app.app.router as unknown as { stack: RouterLayer[] }).stack;
    const at = stack.findIndex((layer) => layer.route?.path === '/mcp');
    expect(at).toBe(1);
    // Every later layer notes that it ran, keeping its arity: express tells error handlers by it.
    const ran: number[] = [];
    const originals = stack.slice(at + 1).map((layer, index) => {
      const original = layer.handle;
      layer.handle =
        original.length === 4
          ? (error: unknown, req: unknown, res: unknown, next: unknown) => {
              ran.push(index);
              return original(error, req, res, next);
            }
          : (req: unknown, res: unknown, next: unknown) => {
              ran.push(index);
              return original(req, res, next);
            };
      return { layer, original };
    });
    try {
      const headers = { ...echo.headers, ...(await bearer('no-walk')) };
      for (const path of ['/mcp', '/MCP'])
        expect((await post(port, path, echo.body, headers)).status).toBe(200);
      expect(ran).toEqual([]);
      // The notes work: a path that is not /mcp walks the later layers.
      await fetch(`${host.baseUrl}/health`);
      expect(ran.length).toBeGreaterThan(0);
    } finally {
      for (const { layer, original } of originals) layer.handle = original;
    }
  });
});
