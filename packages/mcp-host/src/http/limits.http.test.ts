/**
 * @module http/limits.http.test
 * Fair use between clients on the fixture host, over real HTTP: a client past its calls per
 * minute gets 429 with Retry-After while another client still gets through; a user past their
 * share of open streams gets 429 while another user opens one; and a 2026-07-28
 * `subscriptions/listen` stream hears its own user's `publishTo` events, never another user's.
 */
import {
  freePort,
  openListenStream,
  postInitialize,
  postModern,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverIssuer } from '../auth/issuer.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { createFixtureFeed, FIXTURE_POLICY, NOTES_READ } from '../test-support/fixture-server.js';
import type { HttpHost } from './start.js';

describe('rate limits per client', () => {
  let host: HttpHost;
  beforeAll(async () => {
    host = await startFixtureHost({
      stateless: true,
      trustProxy: 'loopback',
      rateLimits: { callsPerMinute: 2, handshakesPerMinute: 10 },
    });
  });
  afterAll(async () => {
    await host.close();
  });

  const callAs = (address: string, text: string) =>
    postModern(
      host.mcpUrl,
      'tools/call',
      { name: 'echo', arguments: { text } },
      { headers: { 'x-forwarded-for': address } },
    );

  it('answers a client past its calls per minute with 429 and Retry-After, and another client still gets in', async () => {
    for (let i = 0; i < 2; i++) {
      const allowed = await callAs('203.0.113.10', `call ${i}`);
      await allowed.text();
      expect(allowed.status).toBe(200);
    }
    const flooding = await callAs('203.0.113.10', 'one too many');
    expect(flooding.status).toBe(429);
    expect(Number(flooding.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await flooding.text()).not.toMatch(/"text":"one too many"/);
    const other = await callAs('203.0.113.11', 'someone else');
    expect(other.status).toBe(200);
    expect(await other.text()).toMatch(/someone else/);
  });
});

/** A listen stream on notes `uris` (and resource list changes), as `token`'s. */
function listen(mcpUrl: string, token: string, uris: readonly string[]) {
  return openListenStream(
    mcpUrl,
    { resourceSubscriptions: uris, resourcesListChanged: true },
    { authorization: `Bearer ${token}` },
  );
}

/** The fixture host with sign-in on, trusting a fresh test issuer. */
async function startSignedIn(options: Parameters<typeof startFixtureHost>[0]) {
  const issuer = await startTestIssuer();
  const port = await freePort();
  const host = await startFixtureHost({
    ...options,
    port,
    auth: {
      issuer: await discoverIssuer(issuer.issuer),
      resource: `http://127.0.0.1:${port}/mcp`,
      policy: FIXTURE_POLICY,
    },
  });
  return { issuer, host };
}

describe('publishEvents on 2026-07-28 listen streams', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  const feed = createFixtureFeed();
  beforeAll(async () => {
    ({ issuer, host } = await startSignedIn({ publishEvents: feed.publishEvents, maxStreamsPerClient: 2 }));
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  it("delivers A's event to A's stream and B's to B's, never one to the other", async () => {
    const tokenFor = (subject: string) =>
      issuer.token({ subject, resource: host.mcpUrl, scopes: [NOTES_READ] });
    const uris = ['notes://a', 'notes://b'];
    const alice = await listen(host.mcpUrl, await tokenFor('alice'), uris);
    const bob = await listen(host.mcpUrl, await tokenFor('bob'), uris);
    try {
      expect([alice.status, bob.status]).toEqual([200, 200]);
      feed.touch('sub:bob', 'b');
      feed.touch('sub:alice', 'a');
      // The acknowledgement names both URIs; an update names its own as `"uri":…`.
      const update = (id: string) => `"uri":"notes://${id}"`;
      expect(await alice.waitFor(update('a')), alice.heard()).toBe(true);
      expect(await bob.waitFor(update('b')), bob.heard()).toBe(true);
      // Events go out in order, so had bob's leaked to alice it would be there by now (and back).
      expect(alice.heard()).not.toContain(update('b'));
      expect(bob.heard()).not.toContain(update('a'));
      // A change about nobody's data reaches every stream that asked for list changes.
      feed.listChanged();
      expect(await alice.waitFor('notifications/resources/list_changed'), alice.heard()).toBe(true);
      expect(await bob.waitFor('notifications/resources/list_changed'), bob.heard()).toBe(true);
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it('answers a user past their share of streams with 429, while another user still opens one', async () => {
    const tokenFor = (subject: string) =>
      issuer.token({ subject, resource: host.mcpUrl, scopes: [NOTES_READ] });
    const dave = await tokenFor('dave');
    const opened = [
      await listen(host.mcpUrl, dave, ['notes://d']),
      await listen(host.mcpUrl, dave, ['notes://d']),
    ];
    const third = await listen(host.mcpUrl, dave, ['notes://d']);
    const erin = await listen(host.mcpUrl, await tokenFor('erin'), ['notes://e']);
    try {
      expect(opened.map((stream) => stream.status)).toEqual([200, 200]);
      expect(third.status).toBe(429);
      expect(erin.status).toBe(200);
    } finally {
      for (const stream of [...opened, third, erin]) await stream.close();
    }
  });

  it('refuses a listen stream on notes:// to a token without notes:read', async () => {
    const token = await issuer.token({ subject: 'carol', resource: host.mcpUrl, scopes: [] });
    const stream = await listen(host.mcpUrl, token, ['notes://a']);
    try {
      expect(stream.status).toBe(403);
    } finally {
      await stream.close();
    }
  });
});

describe('rate-limit buckets of signed-in clients', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  beforeAll(async () => {
    ({ issuer, host } = await startSignedIn({
      stateless: true,
      rateLimits: { callsPerMinute: 2, handshakesPerMinute: 100 },
    }));
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  const callAs = async (subject: string, clientId: string) => {
    const token = await issuer.token({ subject, clientId, resource: host.mcpUrl });
    const response = await postModern(
      host.mcpUrl,
      'tools/call',
      { name: 'echo', arguments: { text: `${subject} of ${clientId}` } },
      { headers: { authorization: `Bearer ${token}` } },
    );
    await response.text();
    return response.status;
  };

  it('keeps two identities apart whose subject and client id join into the same text', async () => {
    // Owner `sub:a|client:b` with client `c`, and owner `sub:a` with client `b|client:c`: one
    // string once joined with `|client:`, two clients all the same.
    expect([await callAs('a|client:b', 'c'), await callAs('a|client:b', 'c')]).toEqual([200, 200]);
    expect(await callAs('a|client:b', 'c')).toBe(429);
    expect(await callAs('a', 'b|client:c')).toBe(200);
  });
});

describe('a lowered global cap lowers the per-client share with it', () => {
  let issuer: TestIssuer;
  let host: HttpHost;
  beforeAll(async () => {
    // MCP_MAX_SESSIONS=20 and the per-client share left unset (its default is 50).
    ({ issuer, host } = await startSignedIn({ maxSessions: 20 }));
  });
  afterAll(async () => {
    await host?.close();
    await issuer?.close();
  });

  const initialize = async (token: string) => {
    const response = await postInitialize(host.mcpUrl, { authorization: `Bearer ${token}` });
    await response.text();
    return response.status;
  };

  it('lets one greedy subject take half the sessions, then 429, and the next user still gets one', async () => {
    const greedy = await issuer.token({ subject: 'greedy', resource: host.mcpUrl, scopes: [NOTES_READ] });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push(await initialize(greedy));
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    const next = await issuer.token({ subject: 'next-user', resource: host.mcpUrl, scopes: [NOTES_READ] });
    expect(await initialize(next)).toBe(200);
  });
});
