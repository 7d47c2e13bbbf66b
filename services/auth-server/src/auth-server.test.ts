/**
 * The development authorization server over real HTTP: discovery, client credentials, and
 * authorization code + PKCE driven through its own sign-in pages the way a browser would.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningAuthServer, startAuthServer } from './lib.js';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
const OTHER_RESOURCE = 'http://127.0.0.1:3999/mcp';
let server: RunningAuthServer;
let metadata: Record<string, unknown> & {
  token_endpoint: string;
  authorization_endpoint: string;
  jwks_uri: string;
};

beforeAll(async () => {
  server = await startAuthServer({ host: '127.0.0.1', port: 0, resources: [RESOURCE, OTHER_RESOURCE] });
  metadata = (await (
    await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)
  ).json()) as typeof metadata;
});
afterAll(() => server?.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function tokenRequest(params: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(metadata.token_endpoint, { method: 'POST', headers, body: new URLSearchParams(params) });
}

function clientCredentials(id: string, secret: string, params: Record<string, string>) {
  return tokenRequest({ grant_type: 'client_credentials', ...params }, { authorization: basic(id, secret) });
}

describe('discovery', () => {
  it('serves the same metadata at the RFC 8414 and the OpenID Connect paths', async () => {
    const oidc = await (await fetch(`${server.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata).toEqual(oidc);
    expect(metadata).toMatchObject({
      issuer: server.issuer,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: expect.arrayContaining(['tasks:read', 'tasks:write']),
      grant_types_supported: expect.arrayContaining([
        'authorization_code',
        'client_credentials',
        'refresh_token',
      ]),
    });
    expect((await fetch(`${server.issuer}/health`)).status).toBe(200);
  });
});

describe('client credentials', () => {
  it('issues an RFC 9068 JWT for the resource, verifiable against the JWKS', async () => {
    const response = await clientCredentials('workshop-agent', 'workshop-agent-secret', {
      resource: RESOURCE,
      scope: 'tasks:read tasks:write',
    });
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    expect(decodeProtectedHeader(token)).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(metadata.jwks_uri)), {
      issuer: server.issuer,
      audience: RESOURCE,
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({
      sub: 'workshop-agent',
      client_id: 'workshop-agent',
      scope: 'tasks:read tasks:write',
    });
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('defaults to the first resource when the client names none', async () => {
    const { access_token: token } = (await (
      await clientCredentials('workshop-agent', 'workshop-agent-secret', { scope: 'tasks:read' })
    ).json()) as { access_token: string };
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(metadata.jwks_uri)));
    expect(payload.aud).toBe(RESOURCE);
  });

  it('refuses a wrong secret and an unknown resource', async () => {
    const wrong = await clientCredentials('workshop-agent', 'not-the-secret', { resource: RESOURCE });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
    const target = await clientCredentials('workshop-agent', 'workshop-agent-secret', {
      resource: 'https://evil.example/mcp',
    });
    expect(((await target.json()) as { error: string }).error).toBe('invalid_target');
  });

  it('gives the read-only client tasks:read, and a client that asks for no scope none (least privilege)', async () => {
    const keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
    const scopeOf = async (params: Record<string, string>) => {
      const response = await clientCredentials('workshop-reader', 'workshop-reader-secret', {
        resource: RESOURCE,
        ...params,
      });
      const { access_token: token } = (await response.json()) as { access_token: string };
      return (await jwtVerify(token, keys)).payload.scope;
    };
    expect(await scopeOf({ scope: 'tasks:read' })).toBe('tasks:read');
    // MCP clients ask for every scope the server's challenge names: narrowed, not refused (RFC 6749 §3.3).
    expect(await scopeOf({ scope: 'tasks:read tasks:write' })).toBe('tasks:read');
    expect(await scopeOf({ scope: 'tasks:write admin' })).toBeUndefined();
    expect(await scopeOf({})).toBeUndefined();
  });

  it.each([
    ['an empty body', ''],
    ['junk', '%%%&&&==='],
    ['an unknown grant type', 'grant_type=password&username=demo&password=demo'],
    ['an oversized body', `grant_type=client_credentials&resource=${'x'.repeat(2_000_000)}`],
  ])('answers %s with a 4xx, never a 5xx', async (_label, body) => {
    const response = await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: {
        authorization: basic('workshop-agent', 'workshop-agent-secret'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe('CORS on the token endpoint', () => {
  it('lets a public client call it from a loopback page (MCP Inspector), and nobody else', async () => {
    const ask = (origin: string, clientId: string) =>
      fetch(metadata.token_endpoint, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x' }),
      });
    expect(
      (await ask('http://localhost:6274', 'mcp-inspector')).headers.get('access-control-allow-origin'),
    ).toBe('http://localhost:6274');
    expect(
      (await ask('https://evil.example', 'mcp-inspector')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });
});

/** A cookie jar just big enough for one browser-like walk through the sign-in pages. */
class Browser {
  readonly #cookies = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  /** Follows redirects on this server; stops at (and returns) the first one that leaves it. */
  async follow(response: Response): Promise<Response> {
    let current = response;
    for (let hop = 0; hop < 10 && current.status >= 300 && current.status < 400; hop++) {
      const location = new URL(current.headers.get('location') ?? '', server.issuer);
      if (location.origin !== server.issuer) return current;
      current = await this.go(location.href);
    }
    return current;
  }

  post(url: string, form: Record<string, string>): Promise<Response> {
    return this.go(new URL(url, server.issuer).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
  }
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(metadata.authorization_endpoint);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

const formAction = (html: string, action: string) =>
  new RegExp(`action="(/interaction/[^"]+/${action})"`).exec(html)?.[1] ?? '';

describe('authorization code with PKCE, through the sign-in pages', () => {
  async function signIn(password: string, redirectUri: string, username = 'demo') {
    const browser = new Browser();
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    let page = await browser.follow(
      await browser.go(
        authorizeUrl({
          client_id: 'workshop-chat',
          response_type: 'code',
          redirect_uri: redirectUri,
          scope: 'openid offline_access tasks:read tasks:write',
          resource: RESOURCE,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state,
          prompt: 'consent',
        }),
      ),
    );
    const login = await page.text();
    expect(login).toContain('Sign in');
    page = await browser.post(formAction(login, 'login'), { username, password });
    return { browser, page, verifier, state };
  }

  /** Signs in, allows, and returns the code the redirect carries. */
  async function authorizationCode(redirectUri: string, username = 'demo', password = 'demo') {
    const { browser, page, verifier, state } = await signIn(password, redirectUri, username);
    const consentHtml = await (await browser.follow(page)).text();
    expect(consentHtml).toContain('tasks:write');
    const done = await browser.follow(await browser.post(formAction(consentHtml, 'confirm'), {}));
    const callback = new URL(done.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe(state);
    return { code: callback.searchParams.get('code') ?? '', verifier };
  }

  const exchange = (code: string, redirectUri: string, verifier: string) =>
    tokenRequest({
      grant_type: 'authorization_code',
      client_id: 'workshop-chat',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      resource: RESOURCE,
    });

  it('signs the demo user in on a loopback redirect with any port, exchanges the code, and refreshes', async () => {
    const redirectUri = 'http://127.0.0.1:49152/callback';
    const { code, verifier } = await authorizationCode(redirectUri);
    const response = await exchange(code, redirectUri, verifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as { access_token: string; refresh_token?: string };
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(metadata.jwks_uri)), {
      audience: RESOURCE,
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({
      sub: 'demo',
      client_id: 'workshop-chat',
      scope: 'tasks:read tasks:write',
    });
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: 'workshop-chat',
      refresh_token: tokens.refresh_token ?? '',
      resource: RESOURCE,
    });
    expect(refreshed.status).toBe(200);
    // A code is single-use.
    expect(((await (await exchange(code, redirectUri, verifier)).json()) as { error: string }).error).toBe(
      'invalid_grant',
    );
  });

  it('signs the second person in as guest, with their own password and subject', async () => {
    const redirectUri = 'http://127.0.0.1:49153/callback';
    const { code, verifier } = await authorizationCode(redirectUri, 'guest', 'guest');
    const response = await exchange(code, redirectUri, verifier);
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(metadata.jwks_uri)), {
      audience: RESOURCE,
    });
    expect(payload).toMatchObject({
      sub: 'guest',
      client_id: 'workshop-chat',
      scope: 'tasks:read tasks:write',
    });
  });

  it.each([
    ["guest with demo's password", 'guest', 'demo'],
    ["demo with guest's password", 'demo', 'guest'],
    ['an unknown user with a known password', 'admin', 'demo'],
    ['an empty user name', '', 'demo'],
  ])('refuses %s', async (_label, username, password) => {
    const { page } = await signIn(password, 'http://localhost:5556/callback', username);
    expect(page.status).toBe(401);
    expect(page.headers.get('location')).toBeNull();
  });

  it('refuses a code with the wrong PKCE verifier', async () => {
    const redirectUri = 'http://localhost:40000/callback';
    const { code } = await authorizationCode(redirectUri);
    const response = await exchange(code, redirectUri, pkce().verifier);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('shows an error and issues no code for a wrong password', async () => {
    const { page } = await signIn('wrong', 'http://localhost:5555/callback');
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html).toContain('Wrong user name or password.');
    expect(page.headers.get('location')).toBeNull();
  });

  it('escapes what it echoes and refuses an authorization request without PKCE or with a foreign redirect', async () => {
    const browser = new Browser();
    const noPkce = await browser.go(
      authorizeUrl({
        client_id: 'workshop-chat',
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:5000/callback',
        scope: 'openid',
      }),
    );
    const target = new URL(noPkce.headers.get('location') ?? 'http://x/');
    expect(target.searchParams.get('error')).toBe('invalid_request');

    const foreign = await browser.go(
      authorizeUrl({
        client_id: 'workshop-chat',
        response_type: 'code',
        redirect_uri: 'https://evil.example/callback',
        scope: 'openid',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();

    const bogus = await browser.go(`${server.issuer}/interaction/%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).not.toContain('<script>');
  });

  it("takes MCP Inspector's callbacks under both loopback names, and no other path", async () => {
    const start = (redirectUri: string) =>
      new Browser().go(
        authorizeUrl({
          client_id: 'mcp-inspector',
          response_type: 'code',
          redirect_uri: redirectUri,
          scope: 'openid tasks:read',
          resource: RESOURCE,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }),
      );
    for (const host of ['localhost', '127.0.0.1']) {
      for (const path of ['/oauth/callback', '/oauth/callback/debug']) {
        const response = await start(`http://${host}:6274${path}`);
        expect(response.status, `${host}${path}`).toBe(303);
        expect(response.headers.get('location'), `${host}${path}`).toMatch(/^\/interaction\//);
      }
    }
    const other = await start('http://127.0.0.1:6274/elsewhere');
    expect(other.status).toBe(400);
    expect(other.headers.get('location')).toBeNull();
  });

  it('refuses an oversized sign-in form', async () => {
    const { browser } = await (async () => {
      const b = new Browser();
      return { browser: b };
    })();
    const started = await browser.follow(
      await browser.go(
        authorizeUrl({
          client_id: 'workshop-chat',
          response_type: 'code',
          redirect_uri: 'http://127.0.0.1:5001/callback',
          scope: 'openid',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }),
      ),
    );
    const action = formAction(await started.text(), 'login');
    const response = await browser.post(action, { username: 'demo', password: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
  });
});
