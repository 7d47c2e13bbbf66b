/**
 * The built entry as other packages and compose run it: it refuses to listen off loopback with
 * published secrets (and says what to set), starts on loopback with them, takes secrets of your
 * own from the environment, and lets `signInAsDemoUser` sign in as either person.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthServerProcess } from './process.js';

/** The built module, as other packages load it: it runs the built entry next to it in dist/. */
type Built = typeof import('./process.js');
let built: Built;
beforeAll(async () => {
  built = (await import(new URL('../dist/process.js', import.meta.url).href)) as Built;
});

const RESOURCE = 'http://127.0.0.1:3000/mcp';
/** How long the entry may take to refuse; it reads its env before anything else. */
const EXIT_TIMEOUT_MS = 10_000;

let auth: AuthServerProcess | undefined;
afterEach(async () => {
  await auth?.close();
  auth = undefined;
});

/** Runs the entry with `env` until it exits (or kills it after EXIT_TIMEOUT_MS). */
function runEntry(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [built.AUTH_SERVER_ENTRY], {
      env: { PATH: process.env.PATH ?? '', AUTH_PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('the entry', () => {
  // 192.0.2.10 is a documentation address no interface has: were the check missing, listening
  // would fail too, but with another message, and nothing would ever listen beyond loopback.
  it('refuses to start off loopback with the published secrets, naming each and what to do', async () => {
    const { code, stderr } = await runEntry({ AUTH_HOST: '192.0.2.10' });
    expect(code).toBe(1);
    for (const key of [
      'AUTH_AGENT_CLIENT_SECRET',
      'AUTH_READER_CLIENT_SECRET',
      'AUTH_DEMO_PASSWORD',
      'AUTH_GUEST_PASSWORD',
    ]) {
      expect(stderr).toContain(`set ${key} to`);
    }
    expect(stderr).not.toContain('    at ');
  });

  it('starts on loopback with the published secrets, and they work', async () => {
    auth = await built.startAuthServerProcess({ resources: [RESOURCE] });
    expect(await auth.token(built.AGENT_CLIENT, RESOURCE)).toMatch(/^ey/);
  });

  // What a fresh-clone CI once hit: another test's server took the free port first, answered
  // /health, and the metadata request then read that server's plain-text page as JSON.
  it('does not take another server on its port for itself, and starts on the next free one', async () => {
    const squatter = createServer((_request, response) => response.end('a page that is not JSON'));
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as AddressInfo).port;
    try {
      auth = await built.startAuthServerProcess({ resources: [RESOURCE], port: taken });
      expect(auth.issuer).not.toBe(`http://127.0.0.1:${taken}`);
      expect(await auth.token(built.AGENT_CLIENT, RESOURCE)).toMatch(/^ey/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    // Two starts of the server, one refused: under a loaded CI each start has taken 7 s.
  }, 60_000);

  it('takes client secrets of its own from the environment, and then refuses the published one', async () => {
    const secret = randomBytes(18).toString('base64url');
    auth = await built.startAuthServerProcess({
      resources: [RESOURCE],
      env: { AUTH_AGENT_CLIENT_SECRET: secret },
    });
    expect(await auth.token({ id: built.AGENT_CLIENT.id, secret }, RESOURCE)).toMatch(/^ey/);
    await expect(auth.token(built.AGENT_CLIENT, RESOURCE)).rejects.toThrow(/invalid_client/);
  });
});

describe('signInAsDemoUser', () => {
  /** Signs in through the pages as `username` and returns the access token's subject. */
  async function subjectOf(server: AuthServerProcess, password: string | undefined, username?: string) {
    const verifier = randomBytes(32).toString('base64url');
    const redirectUri = 'http://127.0.0.1:5003/callback';
    const url = new URL(`${server.issuer}/auth`);
    for (const [key, value] of Object.entries({
      client_id: 'workshop-chat',
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid tasks:read',
      resource: RESOURCE,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(key, value);
    const callback = new URL(await built.signInAsDemoUser(url.href, password, username));
    const response = await fetch(server.tokenEndpoint, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'workshop-chat',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(server.jwksUri)));
    return payload.sub;
  }

  it('signs in as demo by default and as guest when told, each with their own subject', async () => {
    auth = await built.startAuthServerProcess({ resources: [RESOURCE] });
    expect(await subjectOf(auth, undefined)).toBe('demo');
    expect(await subjectOf(auth, 'demo')).toBe('demo');
    expect(await subjectOf(auth, undefined, built.GUEST_PERSON.username)).toBe('guest');
  });

  it("uses AUTH_GUEST_PASSWORD, and never lets guest in with demo's password", async () => {
    auth = await built.startAuthServerProcess({
      resources: [RESOURCE],
      env: { AUTH_GUEST_PASSWORD: 'a guest of our own' },
    });
    expect(await subjectOf(auth, 'a guest of our own', 'guest')).toBe('guest');
    await expect(subjectOf(auth, 'demo', 'guest')).rejects.toThrow(/sign-in/);
  });
});
