/**
 * @module auth/issuer.test
 * Start-up discovery over real HTTP on 127.0.0.1: an issuer that comes up late (or answers 503
 * first) is waited for; one that never comes up is given up on within the bound, with "is the
 * authorization server up?"; a wrong answer (404, junk, another issuer) fails at once, no retries.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@mcp-workshop/test-infra';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DiscoveryWait, discoverIssuer } from './issuer.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(handler: RequestListener, port = 0): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

/** A valid RFC 8414 document for `issuer`. */
const metadata = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/auth`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ['code'],
});

const serveMetadata =
  (issuer: () => string): RequestListener =>
  (req, res) => {
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata(issuer())));
    } else res.writeHead(404).end();
  };

/** A clock that moves only when the discovery sleeps: the waits add up without taking real time. */
function fakeClock() {
  let time = 0;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      time += ms;
    },
    sleeps,
  };
}

describe('discoverIssuer', () => {
  // discoverIssuer loads the client SDK on its first call; loaded here, it is not part of a test.
  beforeAll(() => import('@modelcontextprotocol/client'));

  it('waits for an issuer that starts after the server, then finds it', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    // The issuer comes up while the second wait is announced, not after a fixed time: on a busy
    // machine one refused attempt can take longer than any delay a test could pick.
    let started: Promise<unknown> | undefined;
    const waits: DiscoveryWait[] = [];
    const found = await discoverIssuer(issuer, {
      deadlineMs: 10_000,
      onWait: (wait) => {
        waits.push(wait);
        if (waits.length === 2)
          started = listen(
            serveMetadata(() => issuer),
            port,
          );
      },
    });
    await started;
    expect(found.issuer).toBe(issuer);
    expect(found.jwksUri.href).toBe(`${issuer}/jwks`);
    // Refused twice, waiting 250 then 500 ms (doubling), and found on the third attempt.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toMatchObject({ issuerUrl: issuer, attempt: 1, delayMs: 250, reason: 'fetch failed' });
    expect(waits[1]?.delayMs).toBe(500);
  });

  it('retries an issuer that answers 503 while it starts', async () => {
    let calls = 0;
    const server = await listen((req, res) => {
      calls++;
      if (calls <= 2) res.writeHead(503).end();
      else serveMetadata(() => server.url)(req, res);
    });
    const waits: DiscoveryWait[] = [];
    const found = await discoverIssuer(server.url, {
      onWait: (wait) => waits.push(wait),
      initialDelayMs: 10,
    });
    expect(found.issuer).toBe(server.url);
    expect(waits.map((wait) => wait.reason)).toEqual(['HTTP 503', 'HTTP 503']);
  });

  it('gives up on an issuer that never answers within the deadline, asking whether it is up', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const clock = fakeClock();
    const waits: DiscoveryWait[] = [];
    await expect(discoverIssuer(issuer, { ...clock, onWait: (wait) => waits.push(wait) })).rejects.toThrow(
      new RegExp(
        `^MCP_AUTH_ISSUER=${issuer}: discovery failed: fetch failed \\(tried ${issuer}/\\.well-known/oauth-authorization-server, .*\\)\\. Is the authorization server up\\? Nothing usable answered at ${issuer} in \\d+ attempts\\.$`,
      ),
    );
    // Exponential from 250 ms, capped at 2 s, and never past the 30 s default.
    expect(clock.sleeps.slice(0, 6)).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
    expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(30_000);
    expect(waits).toHaveLength(clock.sleeps.length);
  });

  it('gives up on the real clock too, after waiting between attempts', async () => {
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const waits: DiscoveryWait[] = [];
    // The fake-clock test above pins the schedule; this one shows the real clock and sleep end it.
    const error = await discoverIssuer(issuer, {
      deadlineMs: 1_500,
      onWait: (wait) => waits.push(wait),
    }).catch((caught: unknown) => caught);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect((error as Error).message).toMatch(
      new RegExp(`Is the authorization server up\\? .* in ${waits.length + 1} attempts\\.$`),
    );
  });

  it('stops after maxAttempts even when the clock never moves', async () => {
    const issuer = `http://127.0.0.1:${await freePort()}`;
    let sleeps = 0;
    await expect(
      discoverIssuer(issuer, {
        now: () => 0,
        sleep: async () => {
          sleeps++;
        },
      }),
    ).rejects.toThrow(/in 20 attempts/);
    expect(sleeps).toBe(19);
  });

  it('tries once with deadlineMs 0', async () => {
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const clock = fakeClock();
    await expect(discoverIssuer(issuer, { ...clock, deadlineMs: 0 })).rejects.toThrow(/in 1 attempt\./);
    expect(clock.sleeps).toEqual([]);
  });

  it('fails at once, without retrying, when the issuer has no metadata (404)', async () => {
    const server = await listen((_req, res) => res.writeHead(404).end());
    const clock = fakeClock();
    await expect(discoverIssuer(server.url, clock)).rejects.toThrow(
      /no authorization server metadata was found \(tried .*oauth-authorization-server.*openid-configuration/,
    );
    expect(clock.sleeps).toEqual([]);
    expect(server.hits()).toBe(2); // the RFC 8414 URL and the OpenID one, once each
  });

  it('fails at once on metadata that is not JSON', async () => {
    const server = await listen((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
    );
    const clock = fakeClock();
    await expect(discoverIssuer(server.url, clock)).rejects.toThrow(/MCP_AUTH_ISSUER=.*discovery failed/);
    expect(clock.sleeps).toEqual([]);
    expect(server.hits()).toBe(1);
  });

  it('fails at once on metadata that names another issuer', async () => {
    const server = await listen(serveMetadata(() => 'http://127.0.0.1:9'));
    const clock = fakeClock();
    await expect(discoverIssuer(server.url, clock)).rejects.toThrow(/Issuer mismatch/);
    expect(clock.sleeps).toEqual([]);
  });

  it('fails at once on metadata without a usable jwks_uri', async () => {
    const server = await listen((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ...metadata(server.url), jwks_uri: undefined })),
    );
    const clock = fakeClock();
    await expect(discoverIssuer(server.url, clock)).rejects.toThrow(/no jwks_uri/);
    expect(clock.sleeps).toEqual([]);
  });
});
