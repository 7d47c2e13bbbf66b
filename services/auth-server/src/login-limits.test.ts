/**
 * The limits on guessing, over real HTTP from chosen loopback addresses: failed sign-ins on the
 * login form and failed client authentications at the token endpoint, per client address.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningAuthServer, startAuthServer } from './lib.js';
import { clientAddress } from './login-limits.js';
import { Browser, httpRequest } from './test-support/browser.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
const LIMIT = 3;
/** Addresses a test connects from; every one of them is this machine. */
const ALICE = '127.0.0.2';
const BOB = '127.0.0.3';

let server: RunningAuthServer | undefined;
afterEach(() => server?.close());

async function start(options: { loginWindowMs?: number } = {}) {
  server = await startAuthServer({
    host: '127.0.0.1',
    port: 0,
    resources: [RESOURCE],
    loginAttemptsPerMinute: LIMIT,
    ...options,
  });
  return server.issuer;
}

/** One sign-in attempt from `from`, on a fresh sign-in page. */
async function signIn(issuer: string, from: string, username: string, password: string) {
  const browser = new Browser(issuer, from);
  const action = await browser.openSignIn(RESOURCE);
  return browser.post(action, { username, password });
}

function clientCredentials(issuer: string, from: string, secret: string) {
  return httpRequest(`${issuer}/token`, {
    method: 'POST',
    localAddress: from,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`workshop-agent:${secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: RESOURCE }).toString(),
  });
}

describe('the sign-in limit', () => {
  it('answers 429 with Retry-After after the limit of wrong passwords, and refuses the right one too', async () => {
    const issuer = await start();
    for (let attempt = 0; attempt < LIMIT; attempt++) {
      expect((await signIn(issuer, ALICE, 'demo', 'wrong')).status).toBe(401);
    }
    const limited = await signIn(issuer, ALICE, 'demo', 'wrong');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toContain('Too many failed sign-ins');
    expect(limited.body).toContain(`Try again in ${retryAfter} seconds`);

    const right = await signIn(issuer, ALICE, 'demo', 'demo');
    expect(right.status).toBe(429);
    expect(right.headers.location).toBeUndefined();
  });

  it('keeps a bucket per address: another address still signs in', async () => {
    const issuer = await start();
    for (let attempt = 0; attempt <= LIMIT; attempt++) await signIn(issuer, ALICE, 'demo', 'wrong');
    expect((await signIn(issuer, ALICE, 'demo', 'demo')).status).toBe(429);
    expect((await signIn(issuer, BOB, 'demo', 'wrong')).status).toBe(401);
    const bob = await signIn(issuer, BOB, 'demo', 'demo');
    expect(bob.status).toBe(303);
  });

  it('counts failures only: more successful sign-ins than the limit all pass', async () => {
    const issuer = await start();
    for (let attempt = 0; attempt < LIMIT + 2; attempt++) {
      expect((await signIn(issuer, ALICE, 'demo', 'demo')).status).toBe(303);
    }
    // The failures still have their whole allowance.
    for (let attempt = 0; attempt < LIMIT; attempt++) {
      expect((await signIn(issuer, ALICE, 'guest', 'wrong')).status).toBe(401);
    }
    expect((await signIn(issuer, ALICE, 'guest', 'guest')).status).toBe(429);
  });

  it('counts an unknown user name and an oversized form as failures', async () => {
    const issuer = await start();
    await signIn(issuer, ALICE, 'nobody', 'demo');
    await signIn(issuer, ALICE, 'demo', 'x'.repeat(20_000));
    await signIn(issuer, ALICE, 'admin', 'admin');
    expect((await signIn(issuer, ALICE, 'demo', 'demo')).status).toBe(429);
  });

  it('lets the right password in again once the window has passed', async () => {
    const windowMs = 1_000;
    const issuer = await start({ loginWindowMs: windowMs });
    for (let attempt = 0; attempt <= LIMIT; attempt++) await signIn(issuer, ALICE, 'demo', 'wrong');
    expect((await signIn(issuer, ALICE, 'demo', 'demo')).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, windowMs + 200));
    expect((await signIn(issuer, ALICE, 'demo', 'demo')).status).toBe(303);
  });
});

describe('the client authentication limit', () => {
  it('answers 429 JSON with Retry-After after the limit of wrong secrets, and refuses the right one too', async () => {
    const issuer = await start();
    for (let attempt = 0; attempt < LIMIT; attempt++) {
      const wrong = await clientCredentials(issuer, ALICE, 'not-the-secret');
      expect(wrong.status).toBe(401);
      expect(JSON.parse(wrong.body).error).toBe('invalid_client');
    }
    const limited = await clientCredentials(issuer, ALICE, 'workshop-agent-secret');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(JSON.parse(limited.body)).toMatchObject({
      error: 'slow_down',
      error_description: expect.stringContaining(`Retry in ${retryAfter} s`),
      retry_after: retryAfter,
    });
    // Another address, and the sign-in form, keep their own buckets.
    expect((await clientCredentials(issuer, BOB, 'workshop-agent-secret')).status).toBe(200);
    expect((await signIn(issuer, ALICE, 'demo', 'demo')).status).toBe(303);
  });

  it('counts failed authentications only, and leaves public clients (no secret to guess) alone', async () => {
    const issuer = await start();
    for (let attempt = 0; attempt < LIMIT + 2; attempt++) {
      expect((await clientCredentials(issuer, ALICE, 'workshop-agent-secret')).status).toBe(200);
    }
    for (let attempt = 0; attempt <= LIMIT; attempt++) await clientCredentials(issuer, ALICE, 'wrong');
    expect((await clientCredentials(issuer, ALICE, 'workshop-agent-secret')).status).toBe(429);
    const publicClient = await httpRequest(`${issuer}/token`, {
      method: 'POST',
      localAddress: ALICE,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'workshop-chat',
        refresh_token: 'not-a-token',
      }).toString(),
    });
    expect(publicClient.status).toBe(400);
    expect(JSON.parse(publicClient.body).error).toBe('invalid_grant');
  });
});

describe('clientAddress', () => {
  const from = (remoteAddress: string) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
    return clientAddress(new IncomingMessage(socket));
  };

  it('is the TCP peer, never a forwarded header', () => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: '10.0.0.7' });
    const req = new IncomingMessage(socket);
    req.headers['x-forwarded-for'] = '203.0.113.9';
    req.headers.forwarded = 'for=203.0.113.9';
    expect(clientAddress(req)).toBe('10.0.0.7');
  });

  it('puts an IPv4-mapped address in its IPv4 bucket, and an IPv6 /56 in one bucket', () => {
    expect(from('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(from('2001:db8:1:ff:1::1')).toBe(from('2001:db8:1:00:ffff::2'));
    expect(from('2001:db8:1:ff::1')).not.toBe(from('2001:db8:2::1'));
  });
});
