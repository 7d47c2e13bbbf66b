/**
 * @module http/sessions.test
 * The session registry on its own (TTL, in-flight requests, shares), then over real HTTP on the
 * fixture server: per-client share 429, global cap 503, DELETE frees a share, TTL ends a session.
 */
import { MCP_HEADERS, openRawSession, postOnSession } from '@mcp-workshop/test-infra';
import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { SessionRegistry, type SessionRegistryOptions } from './sessions.js';
import type { HttpHost } from './start.js';

const ONE_CLIENT = { owner: '', clientId: undefined, clientKey: 'ip:127.0.0.1' };

/** A registry with a 1 s TTL, room for 10 and a silent logger; `options` changes any of them. */
function registry(options: Partial<SessionRegistryOptions> = {}): SessionRegistry {
  return new SessionRegistry({ ttlMs: 1000, maxSessions: 10, logger: createSilentLogger(), ...options });
}

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
    const sessions = registry({ now: () => now });
    const fake = fakeSession();
    sessions.add(fake.transport, fake.server, 'a', ONE_CLIENT);
    now = 999;
    expect(await sessions.sweep()).toBe(0);
    now = 1000;
    expect(await sessions.sweep()).toBe(1);
    expect(sessions.get('a')).toBeUndefined();
    expect(fake.closed).toEqual({ transport: true, server: true });
    await sessions.closeAll();
  });

  it('never expires a session while a request is in flight, and restarts the clock after it', async () => {
    let now = 0;
    const sessions = registry({ now: () => now });
    const fake = fakeSession();
    const session = sessions.add(fake.transport, fake.server, 'a', ONE_CLIENT);
    const done = sessions.track(session);
    now = 60_000;
    expect(await sessions.sweep()).toBe(0);
    done();
    done(); // a second call must not go negative
    expect(session.inFlight).toBe(0);
    now = 60_999;
    expect(await sessions.sweep()).toBe(0);
    now = 61_000;
    expect(await sessions.sweep()).toBe(1);
    await sessions.closeAll();
  });

  it('makes room at the cap only by expiring idle sessions', async () => {
    let now = 0;
    const sessions = registry({ maxSessions: 2, now: () => now });
    sessions.add(fakeSession().transport, fakeSession().server, 'a', {
      owner: '',
      clientId: undefined,
      clientKey: 'x',
    });
    sessions.add(fakeSession().transport, fakeSession().server, 'b', {
      owner: '',
      clientId: undefined,
      clientKey: 'y',
    });
    expect(await sessions.refusal('z')).toBe('global');
    now = 5000;
    expect(await sessions.refusal('z')).toBeUndefined();
    expect(sessions.size).toBe(0);
    await sessions.closeAll();
  });

  it("refuses a client past its own share with 'client' while others still get in, and frees the share on close", async () => {
    const sessions = registry({ ttlMs: 60_000, maxSessionsPerClient: 2 });
    const greedy = { owner: '', clientId: undefined, clientKey: 'ip:greedy' };
    sessions.add(fakeSession().transport, fakeSession().server, 'a', greedy);
    sessions.add(fakeSession().transport, fakeSession().server, 'b', greedy);
    expect(await sessions.refusal('ip:greedy')).toBe('client');
    expect(await sessions.refusal('ip:someone-else')).toBeUndefined();
    sessions.remove('a');
    expect(sessions.heldBy('ip:greedy')).toBe(1);
    expect(await sessions.refusal('ip:greedy')).toBeUndefined();
    await sessions.closeAll();
    expect(sessions.heldBy('ip:greedy')).toBe(0);
  });

  it('expires a session on the TTL from its last request even while a GET stream is open', async () => {
    let now = 0;
    const sessions = registry({ now: () => now });
    const fake = fakeSession();
    const session = sessions.add(fake.transport, fake.server, 'a', ONE_CLIENT);
    sessions.track(session, 'stream');
    now = 999;
    expect(await sessions.sweep()).toBe(0);
    now = 1000;
    expect(await sessions.sweep()).toBe(1);
    expect(fake.closed).toEqual({ transport: true, server: true });
    await sessions.closeAll();
  });
});

describe('sessions over HTTP', () => {
  let srv: HttpHost | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  /** initialize from a client the (trusted, loopback) proxy header names. */
  const initializeAs = (url: string, client: string) =>
    fetch(url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'x-forwarded-for': client },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
      }),
    });

  it('gives a client past its own share 429, others still get in, a full server says 503, and a DELETE frees a share', async () => {
    srv = await startFixtureHost({ maxSessions: 3, maxSessionsPerClient: 2, trustProxy: 'loopback' });
    const opened: string[] = [];
    for (let i = 0; i < 2; i++) {
      const response = await initializeAs(srv.mcpUrl, '203.0.113.1');
      await response.text();
      expect(response.status).toBe(200);
      opened.push(response.headers.get('mcp-session-id') ?? '');
    }
    const greedy = await initializeAs(srv.mcpUrl, '203.0.113.1');
    expect(greedy.status).toBe(429);
    expect(greedy.headers.get('retry-after')).toBe('30');
    expect(await greedy.json()).toMatchObject({
      id: 7,
      error: {
        code: -32000,
        message: expect.stringMatching(/Too many open sessions.*for this client: at most 2/),
      },
    });

    const other = await initializeAs(srv.mcpUrl, '203.0.113.2');
    await other.text();
    expect(other.status).toBe(200);
    const full = await initializeAs(srv.mcpUrl, '203.0.113.3');
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ error: { message: expect.stringMatching(/on this server/) } });

    await fetch(srv.mcpUrl, {
      method: 'DELETE',
      headers: { 'mcp-session-id': opened[0] ?? '', 'x-forwarded-for': '203.0.113.1' },
    });
    const again = await initializeAs(srv.mcpUrl, '203.0.113.1');
    await again.text();
    expect(again.status).toBe(200);
    expect(srv.app.sessions?.size).toBe(3);
  });

  it('closes a session on its TTL although its GET stream is still open, and ends that stream', async () => {
    srv = await startFixtureHost({ sessionTtlSeconds: 1 });
    const sessionId = await openRawSession(srv.mcpUrl);
    const stream = await fetch(srv.mcpUrl, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(stream.status).toBe(200);
    const ended = stream.text().then(() => 'ended');
    // Bounded wait: TTL 1 s, swept every 500 ms, so 5 s is ample.
    for (let i = 0; i < 50 && (srv.app.sessions?.size ?? 0) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(srv.app.sessions?.size).toBe(0);
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000));
    expect(await Promise.race([ended, timeout])).toBe('ended');
  });

  it('expires an idle session after MCP_SESSION_TTL_SECONDS, after which its id gets 404', async () => {
    srv = await startFixtureHost({ sessionTtlSeconds: 1 });
    const sessionId = await openRawSession(srv.mcpUrl);
    expect(srv.app.sessions?.size).toBe(1);
    // Bounded wait: TTL 1 s, swept every 500 ms, so 3 s is ample.
    for (let i = 0; i < 30 && (srv.app.sessions?.size ?? 0) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(srv.app.sessions?.size).toBe(0);
    const response = await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(404);
  });
});
