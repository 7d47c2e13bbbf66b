import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logger.js';
import {
  MCP_HEADERS,
  openRawSession,
  postOnSession,
  startTestServer,
  type TestServer,
} from '../test-support/http.js';
import { SessionRegistry } from './sessions.js';

describe('SessionRegistry', () => {
  const fakeSession = () => {
    const closed = { transport: false, server: false };
    return {
      closed,
      transport: {
        close: async () => {
          closed.transport = true;
        },
      } as never,
      server: {
        close: async () => {
          closed.server = true;
        },
      } as never,
    };
  };

  it('closes a session that has been idle for longer than the TTL', async () => {
    let now = 0;
    const registry = new SessionRegistry({
      ttlMs: 1000,
      maxSessions: 10,
      logger: createSilentLogger(),
      now: () => now,
    });
    const fake = fakeSession();
    registry.add(fake.transport, fake.server, 'a');
    now = 999;
    expect(await registry.sweep()).toBe(0);
    now = 1000;
    expect(await registry.sweep()).toBe(1);
    expect(registry.get('a')).toBeUndefined();
    expect(fake.closed).toEqual({ transport: true, server: true });
    await registry.closeAll();
  });

  it('never expires a session while a request is in flight, and restarts the clock after it', async () => {
    let now = 0;
    const registry = new SessionRegistry({
      ttlMs: 1000,
      maxSessions: 10,
      logger: createSilentLogger(),
      now: () => now,
    });
    const fake = fakeSession();
    const session = registry.add(fake.transport, fake.server, 'a');
    const done = registry.track(session);
    now = 60_000;
    expect(await registry.sweep()).toBe(0);
    done();
    done(); // a second call must not go negative
    expect(session.inFlight).toBe(0);
    now = 60_999;
    expect(await registry.sweep()).toBe(0);
    now = 61_000;
    expect(await registry.sweep()).toBe(1);
    await registry.closeAll();
  });

  it('makes room at the cap only by expiring idle sessions', async () => {
    let now = 0;
    const registry = new SessionRegistry({
      ttlMs: 1000,
      maxSessions: 2,
      logger: createSilentLogger(),
      now: () => now,
    });
    registry.add(fakeSession().transport, fakeSession().server, 'a');
    registry.add(fakeSession().transport, fakeSession().server, 'b');
    expect(await registry.hasRoom()).toBe(false);
    now = 5000;
    expect(await registry.hasRoom()).toBe(true);
    expect(registry.size).toBe(0);
    await registry.closeAll();
  });
});

describe('sessions over HTTP', () => {
  let srv: TestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  it('refuses a new session at the cap with 503 and Retry-After, and accepts one after a DELETE', async () => {
    srv = await startTestServer({ maxSessions: 2 });
    const first = await openRawSession(srv.mcpUrl);
    await openRawSession(srv.mcpUrl);
    await expect(openRawSession(srv.mcpUrl)).rejects.toThrow(/HTTP 503/);
    const refused = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
      }),
    });
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringMatching(/Too many open sessions/) },
    });
    await fetch(srv.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': first } });
    await expect(openRawSession(srv.mcpUrl)).resolves.toEqual(expect.any(String));
    expect(srv.workshop.sessions?.size).toBe(2);
  });

  it('expires an idle session after MCP_SESSION_TTL_SECONDS, after which its id gets 404', async () => {
    srv = await startTestServer({ sessionTtlSeconds: 1 });
    const sessionId = await openRawSession(srv.mcpUrl);
    expect(srv.workshop.sessions?.size).toBe(1);
    // Bounded wait: TTL 1 s, swept every 500 ms, so 3 s is ample.
    for (let i = 0; i < 30 && (srv.workshop.sessions?.size ?? 0) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(srv.workshop.sessions?.size).toBe(0);
    const response = await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(404);
  });
});
