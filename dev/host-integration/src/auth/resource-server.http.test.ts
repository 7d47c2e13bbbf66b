/**
 * The server as an OAuth 2.1 resource server, end to end over HTTP, with real tokens from the
 * workshop's authorization server (a separate process) and tokens forged the ways attackers do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  AGENT_CLIENT,
  type AuthServerProcess,
  READER_CLIENT,
  startAuthServerProcess,
} from '@mcp-workshop/auth-server/process';
import { discoverIssuer, type IssuerMetadata } from '@mcp-workshop/mcp-host';
import {
  MCP_HEADERS,
  openRawSession,
  postModern,
  postOnSession,
  readMessages,
} from '@mcp-workshop/test-infra';
import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { REQUIRED_SCOPES_META_KEY } from '../test-support/workshop.js';

/** The audience tokens must name; the server need not listen there for the check to mean something. */
const RESOURCE = 'http://127.0.0.1:3000/mcp';
const OTHER_RESOURCE = 'http://127.0.0.1:3999/mcp';
const METADATA_URL = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';

let auth: AuthServerProcess;
let otherIssuer: AuthServerProcess;
let issuer: IssuerMetadata;
let server: TestServer;
let statelessServer: TestServer;
const tokens: Record<'agent' | 'reader' | 'writeOnly' | 'otherAudience' | 'otherIssuer', string> = {
  agent: '',
  reader: '',
  writeOnly: '',
  otherAudience: '',
  otherIssuer: '',
};

beforeAll(async () => {
  [auth, otherIssuer] = await Promise.all([
    startAuthServerProcess({ resources: [RESOURCE, OTHER_RESOURCE] }),
    startAuthServerProcess({ resources: [RESOURCE] }),
  ]);
  issuer = await discoverIssuer(auth.issuer);
  server = await startTestServer({ auth: { issuer, resource: RESOURCE } });
  statelessServer = await startTestServer({ stateless: true, auth: { issuer, resource: RESOURCE } });
  tokens.agent = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
  tokens.reader = await auth.token(READER_CLIENT, RESOURCE, 'tasks:read');
  tokens.writeOnly = await auth.token(AGENT_CLIENT, RESOURCE, 'tasks:write');
  tokens.otherAudience = await auth.token(AGENT_CLIENT, OTHER_RESOURCE, 'tasks:read tasks:write');
  tokens.otherIssuer = await otherIssuer.token(AGENT_CLIENT, RESOURCE, 'tasks:read tasks:write');
}, 60_000);

afterAll(async () => {
  await Promise.all([server?.close(), statelessServer?.close(), auth?.close(), otherIssuer?.close()]);
});

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

function modernCall(
  url: string,
  headers: Record<string, string>,
  method: string,
  params: Record<string, unknown>,
) {
  return postModern(url, method, params, { headers });
}

function callTool(url: string, token: string, name: string, args: Record<string, unknown> = {}) {
  return modernCall(url, bearer(token), 'tools/call', { name, arguments: args });
}

function openSession(url: string, token: string): Promise<string> {
  return openRawSession(url, '2025-11-25', bearer(token));
}

function onSession(url: string, sessionId: string, token: string, message: unknown) {
  return postOnSession(url, sessionId, message, bearer(token));
}

/** The auth-params of a `WWW-Authenticate: Bearer …` value. */
function challengeOf(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate') ?? '';
  expect(header.startsWith('Bearer ')).toBe(true);
  return Object.fromEntries([...header.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
}

async function expectUnauthorized(response: Response, token?: string) {
  expect(response.status).toBe(401);
  const challenge = challengeOf(response);
  expect(challenge.resource_metadata).toBe(METADATA_URL);
  expect(challenge.scope).toBe('tasks:read tasks:write');
  const body = await response.text();
  if (token) {
    expect(challenge.error).toBe('invalid_token');
    // Never echoed, not even a part of it.
    expect(body).not.toContain(token.slice(-20));
    expect(response.headers.get('www-authenticate')).not.toContain(token.slice(-20));
  } else {
    expect(challenge.error).toBeUndefined();
  }
  return JSON.parse(body) as { error: string; error_description: string };
}

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the path-aware and the root well-known URLs, naming exactly MCP_RESOURCE_URL', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        headers: { origin: 'https://inspector.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [auth.issuer],
        scopes_supported: ['tasks:read', 'tasks:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'mcp-workshop-server',
        resource_documentation: 'http://127.0.0.1:3000/docs/auth',
      });
    }
  });

  it('answers a CORS preflight, refuses other methods, and opens CORS on nothing else', async () => {
    const preflight = await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const post = await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    const mcp = await fetch(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: '{}' });
    expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('links a page that says which scope each tool needs', async () => {
    const response = await fetch(`${server.baseUrl}/docs/auth`);
    const text = await response.text();
    expect(text).toContain(`Authorization server: ${auth.issuer}`);
    expect(text).toContain('tool add_task: tasks:write');
    expect(text).toContain('tool list_tasks: tasks:read');
    expect(text).toContain('tool calculate: any valid token');
  });
});

describe('401 for requests without a valid token', () => {
  it('asks for a token, without an error code, when none was sent; /health stays open', async () => {
    const body = await expectUnauthorized(
      await modernCall(server.mcpUrl, {}, 'tools/call', {
        name: 'calculate',
        arguments: { expression: '1+1' },
      }),
    );
    expect(body.error_description).toContain(METADATA_URL);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    await expectUnauthorized(await fetch(`${server.baseUrl}/tools`));
    await expectUnauthorized(
      await fetch(server.mcpUrl, { method: 'GET', headers: { accept: 'text/event-stream' } }),
    );
  });

  it.each([
    ['another scheme', 'Basic d29ya3Nob3AtYWdlbnQ6c2VjcmV0'],
    ['no token', 'Bearer'],
    ['two tokens', 'Bearer abc def'],
    ['characters a token cannot hold', 'Bearer <script>alert(1)</script>'],
    ['an oversized token', `Bearer ${'a'.repeat(10_000)}`],
    ['a token that is not a JWT', 'Bearer not-a-jwt'],
    ['three segments of junk', 'Bearer abc.def.ghi'],
  ])('refuses a malformed Authorization header: %s', async (_label, header) => {
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: header },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(challengeOf(response).error).toBe('invalid_token');
  });

  it('refuses a token issued for another resource (audience)', async () => {
    const body = await expectUnauthorized(
      await callTool(server.mcpUrl, tokens.otherAudience, 'calculate', { expression: '1+1' }),
      tokens.otherAudience,
    );
    expect(body.error_description).toMatch(/not issued for this server/);
  });

  it('refuses a token from another issuer (another server, with keys of its own)', async () => {
    await expectUnauthorized(
      await callTool(server.mcpUrl, tokens.otherIssuer, 'calculate', { expression: '1+1' }),
      tokens.otherIssuer,
    );
  });

  it("refuses a token signed with the trusted issuer's own key that names another iss, or another aud", async () => {
    const thirdParty = await startMinimalIssuer();
    const guarded = await startTestServer({
      auth: { issuer: await discoverIssuer(thirdParty.url), resource: RESOURCE },
    });
    try {
      // The key is the trusted one, so only the claim can be what is refused.
      const valid = await thirdParty.sign({ scope: 'tasks:read' });
      expect((await callTool(guarded.mcpUrl, valid, 'list_tasks')).status).toBe(200);
      const otherIss = await thirdParty.sign(
        { scope: 'tasks:read' },
        { issuer: 'https://other-issuer.example' },
      );
      const wrongIssuer = await expectUnauthorized(
        await callTool(guarded.mcpUrl, otherIss, 'list_tasks'),
        otherIss,
      );
      expect(wrongIssuer.error_description).toBe('The token comes from another issuer (iss).');
      const otherAud = await thirdParty.sign({ scope: 'tasks:read' }, { audience: OTHER_RESOURCE });
      const wrongAudience = await expectUnauthorized(
        await callTool(guarded.mcpUrl, otherAud, 'list_tasks'),
        otherAud,
      );
      expect(wrongAudience.error_description).toBe('The token was not issued for this server (aud).');
    } finally {
      await Promise.all([guarded.close(), thirdParty.close()]);
    }
  });

  it('refuses an expired token, and one not valid yet', async () => {
    const later = await startTestServer({
      auth: { issuer, resource: RESOURCE, now: () => new Date(Date.now() + 2 * 3600_000) },
    });
    const earlier = await startTestServer({
      auth: { issuer, resource: RESOURCE, now: () => new Date(Date.now() - 2 * 3600_000) },
    });
    try {
      const expired = await expectUnauthorized(
        await callTool(later.mcpUrl, tokens.agent, 'calculate', { expression: '1+1' }),
        tokens.agent,
      );
      expect(expired.error_description).toMatch(/expired/);
      const early = await expectUnauthorized(
        await callTool(earlier.mcpUrl, tokens.agent, 'calculate', { expression: '1+1' }),
        tokens.agent,
      );
      expect(early.error_description).toMatch(/not valid yet|issued in the future/);
    } finally {
      await Promise.all([later.close(), earlier.close()]);
    }
  });

  it('refuses alg none, and an HS256 token signed with the public key', async () => {
    const [header, payload] = tokens.agent.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const original = JSON.parse(Buffer.from(header as string, 'base64url').toString());
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${payload}.`;
    await expectUnauthorized(await callTool(server.mcpUrl, none, 'calculate', { expression: '1+1' }), none);

    const jwks = (await (await fetch(auth.jwksUri)).json()) as { keys: Array<Record<string, unknown>> };
    const publicJwk = jwks.keys.find((key) => key.kid === original.kid);
    const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: original.kid })
      .sign(secret);
    const body = await expectUnauthorized(
      await callTool(server.mcpUrl, hs256, 'calculate', { expression: '1+1' }),
      hs256,
    );
    expect(body.error_description).toMatch(/algorithm/);
  });

  it("refuses a token whose payload was changed after signing, with the issuer's own kid", async () => {
    const [header, payload, signature] = tokens.reader.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const raised = base64url.encode(JSON.stringify({ ...claims, scope: 'tasks:read tasks:write' }));
    const tampered = `${header}.${raised}.${signature}`;
    const body = await expectUnauthorized(
      await callTool(server.mcpUrl, tampered, 'add_task', { title: 'not allowed' }),
      tampered,
    );
    expect(body.error_description).toBe("The token's signature is invalid.");
  });

  it('works with any standard issuer: a third-party one, and its nbf claim', async () => {
    const thirdParty = await startMinimalIssuer();
    const guarded = await startTestServer({
      auth: { issuer: await discoverIssuer(thirdParty.url), resource: RESOURCE },
    });
    try {
      const valid = await thirdParty.sign({ scope: 'tasks:read' });
      expect((await callTool(guarded.mcpUrl, valid, 'list_tasks')).status).toBe(200);
      const early = await thirdParty.sign({ scope: 'tasks:read' }, { notBefore: '10m' });
      const body = await expectUnauthorized(await callTool(guarded.mcpUrl, early, 'list_tasks'), early);
      expect(body.error_description).toBe('The token is not valid yet (nbf).');
    } finally {
      await Promise.all([guarded.close(), thirdParty.close()]);
    }
  });

  it('never writes a token to its logs, not even in part', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    const logging = await startTestServer({
      logger: pino({ level: 'trace' }, sink),
      auth: { issuer, resource: RESOURCE },
    });
    try {
      const forged = await forgedToken('never-published');
      for (const token of [tokens.agent, tokens.otherAudience, tokens.reader, forged]) {
        await (await callTool(logging.mcpUrl, token, 'add_task', { title: 'logged?' })).text();
      }
      expect(logged).toMatch(/refused/);
      for (const token of [tokens.agent, tokens.otherAudience, tokens.reader, forged]) {
        for (const part of token.split('.')) expect(logged).not.toContain(part.slice(0, 16));
      }
    } finally {
      await logging.close();
    }
  });

  it('refetches the JWKS once for an unknown kid, then refuses; another unknown kid within 30 s fetches nothing', async () => {
    let fetches = 0;
    const proxy = await serve(async (_req, res) => {
      fetches++;
      const upstream = await fetch(auth.jwksUri);
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    const counted = await startTestServer({
      auth: { issuer: { ...issuer, jwksUri: new URL(proxy.url) }, resource: RESOURCE },
    });
    try {
      expect((await callTool(counted.mcpUrl, tokens.agent, 'calculate', { expression: '1+1' })).status).toBe(
        200,
      );
      expect(fetches).toBe(1);
      // Past the 30 s cooldown since that fetch (only Date is faked: sockets and timers run as usual).
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 31_000);
      const forged = await forgedToken('unknown-kid-1');
      await expectUnauthorized(
        await callTool(counted.mcpUrl, forged, 'calculate', { expression: '1+1' }),
        forged,
      );
      expect(fetches).toBe(2);
      const again = await forgedToken('unknown-kid-2');
      await expectUnauthorized(
        await callTool(counted.mcpUrl, again, 'calculate', { expression: '1+1' }),
        again,
      );
      expect(fetches).toBe(2);
      expect((await callTool(counted.mcpUrl, tokens.agent, 'calculate', { expression: '1+1' })).status).toBe(
        200,
      );
    } finally {
      vi.useRealTimers();
      await counted.close();
      await proxy.close();
    }
  });

  it('answers 503 with Retry-After, never a 500 or an open door, while the JWKS is down', async () => {
    const down = await serve((_req, res) => res.writeHead(502).end('bad gateway'));
    const refused = await startTestServer({
      auth: { issuer: { ...issuer, jwksUri: new URL(down.url) }, resource: RESOURCE },
    });
    const gone = await startTestServer({
      auth: { issuer: { ...issuer, jwksUri: new URL('http://127.0.0.1:9/jwks') }, resource: RESOURCE },
    });
    try {
      for (const target of [refused, gone]) {
        const response = await callTool(target.mcpUrl, tokens.agent, 'calculate', { expression: '1+1' });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('30');
        expect(((await response.json()) as { error: string }).error).toBe('temporarily_unavailable');
      }
    } finally {
      await Promise.all([refused.close(), gone.close(), down.close()]);
    }
  });
});

describe('scopes per tool (403 insufficient_scope, for step-up)', () => {
  it('lets any valid token call the tools that do not touch tasks, and list every tool with its scopes', async () => {
    const response = await callTool(server.mcpUrl, tokens.writeOnly, 'calculate', { expression: '2+3' });
    expect(response.status).toBe(200);
    const [message] = await readMessages(response);
    expect(message?.result?.structuredContent).toMatchObject({ result: 5 });

    const list = await readMessages(
      await modernCall(server.mcpUrl, bearer(tokens.writeOnly), 'tools/list', {}),
    );
    const listed = (list[0]?.result?.tools as Array<{ name: string; _meta?: Record<string, unknown> }>) ?? [];
    expect(listed.map((tool) => tool.name)).toContain('delete_task');
    const scopesOf = (name: string) =>
      listed.find((tool) => tool.name === name)?._meta?.[REQUIRED_SCOPES_META_KEY];
    expect(scopesOf('add_task')).toEqual(['tasks:write']);
    expect(scopesOf('list_tasks')).toEqual(['tasks:read']);
    expect(scopesOf('get_weather')).toEqual([]);
  });

  async function expectForbidden(response: Response, scope: string) {
    expect(response.status).toBe(403);
    const challenge = challengeOf(response);
    expect(challenge).toMatchObject({ error: 'insufficient_scope', scope, resource_metadata: METADATA_URL });
    expect(((await response.json()) as { error_description: string }).error_description).toContain(scope);
  }

  it('2026-07-28: a tasks:read token may list tasks but not add one; a tasks:write token may', async () => {
    expect((await callTool(server.mcpUrl, tokens.reader, 'list_tasks')).status).toBe(200);
    await expectForbidden(
      await callTool(server.mcpUrl, tokens.reader, 'add_task', { title: 'x' }),
      'tasks:write',
    );
    await expectForbidden(await callTool(server.mcpUrl, tokens.writeOnly, 'list_tasks'), 'tasks:read');
    const added = await readMessages(
      await callTool(server.mcpUrl, tokens.agent, 'add_task', { title: 'Scoped' }),
    );
    expect(added[0]?.result?.isError).toBe(false);
  });

  it('2025 session: the same rules on every call of the session', async () => {
    const session = await openSession(server.mcpUrl, tokens.reader);
    const call = (name: string, args = {}) =>
      onSession(server.mcpUrl, session, tokens.reader, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name, arguments: args },
      });
    expect((await call('list_tasks')).status).toBe(200);
    await expectForbidden(await call('delete_task', { id: 1 }), 'tasks:write');
  });

  it('stateless mode and a 2025-03-26 batch: every message of the batch counts', async () => {
    await expectForbidden(
      await fetch(statelessServer.mcpUrl, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...bearer(tokens.reader), 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_tasks', arguments: {} } },
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'complete_task', arguments: { id: 1 } },
          },
        ]),
      }),
      // Every scope the batch needs, so one step-up covers it.
      'tasks:read tasks:write',
    );
    await expectUnauthorized(
      await fetch(statelessServer.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: '{}' }),
    );
  });

  it('tasks:// resources and task prompts need tasks:read; other resources do not', async () => {
    const read = (token: string, uri: string) =>
      modernCall(server.mcpUrl, bearer(token), 'resources/read', { uri });
    await expectForbidden(await read(tokens.writeOnly, 'tasks://all'), 'tasks:read');
    await expectForbidden(await read(tokens.writeOnly, 'TASKS://1'), 'tasks:read');
    expect((await read(tokens.reader, 'tasks://all')).status).toBe(200);
    expect((await read(tokens.writeOnly, 'cities://all')).status).toBe(200);
    await expectForbidden(
      await modernCall(server.mcpUrl, bearer(tokens.writeOnly), 'prompts/get', {
        name: 'review_tasks',
        arguments: {},
      }),
      'tasks:read',
    );
    await expectForbidden(
      await modernCall(server.mcpUrl, bearer(tokens.writeOnly), 'subscriptions/listen', {
        notifications: { resourceSubscriptions: ['tasks://all'] },
      }),
      'tasks:read',
    );
  });

  it('skills need a valid token and no scope: public documentation (src/skills/catalogue.ts)', async () => {
    const call = (headers: Record<string, string>, method: string, params: Record<string, unknown>) =>
      modernCall(server.mcpUrl, headers, method, params);
    const skill = 'skill://add-a-tool/SKILL.md';
    for (const [method, params] of [
      ['skills/list', {}],
      ['skills/get', { uri: skill }],
      ['resources/read', { uri: skill }],
      ['resources/directory/read', { uri: 'skill://add-a-tool' }],
    ] as const) {
      const answer = await call(bearer(tokens.writeOnly), method, params);
      expect(answer.status, method).toBe(200);
      expect((await readMessages(answer))[0]?.result, method).toBeDefined();
      await expectUnauthorized(await call({}, method, params));
    }
  });

  it('resources/list shows tasks (ids and titles) only to a token with tasks:read', async () => {
    const title = `Listed only with tasks:read ${Date.now()}`;
    const added = await readMessages(await callTool(server.mcpUrl, tokens.agent, 'add_task', { title }));
    expect(added[0]?.result?.isError).toBe(false);
    const listed = (messages: Awaited<ReturnType<typeof readMessages>>) =>
      (messages[0]?.result?.resources as Array<{ uri: string; title?: string }>) ?? [];
    const isTask = (uri: string) => /^tasks:\/\/\d/.test(uri);
    const modern = async (token: string) => {
      const response = await modernCall(server.mcpUrl, bearer(token), 'resources/list', {});
      expect(response.status).toBe(200);
      return listed(await readMessages(response));
    };

    // The owner (workshop-agent) sees its task; another subject with tasks:read (workshop-reader)
    // has a list of its own, which does not hold it.
    expect((await modern(tokens.agent)).some((resource) => resource.title?.includes(title))).toBe(true);
    expect(JSON.stringify(await modern(tokens.reader))).not.toContain(title);
    const withoutRead = await modern(tokens.writeOnly);
    expect(withoutRead.filter((resource) => isTask(resource.uri))).toEqual([]);
    expect(JSON.stringify(withoutRead)).not.toContain(title);
    expect(withoutRead.map((resource) => resource.uri)).toContain('cities://all');
    expect(withoutRead.some((resource) => resource.uri.startsWith('adr://'))).toBe(true);

    // The same on a 2025 session, whose token comes with each request.
    const session = await openSession(server.mcpUrl, tokens.writeOnly);
    const onWriteOnly = await onSession(server.mcpUrl, session, tokens.writeOnly, {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/list',
      params: {},
    });
    expect(onWriteOnly.status).toBe(200);
    const sessionList = listed(await readMessages(onWriteOnly));
    expect(sessionList.map((resource) => resource.uri)).toContain('cities://all');
    expect(sessionList.filter((resource) => isTask(resource.uri))).toEqual([]);
  });

  it('the curl path obeys the same rules', async () => {
    const post = (token: string, name: string, body: unknown) =>
      fetch(`${server.baseUrl}/tools/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify(body),
      });
    await expectForbidden(await post(tokens.reader, 'add_task', { title: 'curl' }), 'tasks:write');
    expect((await post(tokens.reader, 'list_tasks', {})).status).toBe(200);
    expect((await post(tokens.writeOnly, 'calculate', { expression: '1+1' })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/tools`, { headers: bearer(tokens.writeOnly) })).status).toBe(200);
    await expectUnauthorized(
      await post(tokens.otherAudience, 'calculate', { expression: '1+1' }),
      tokens.otherAudience,
    );
  });
});

describe('a 2025 session is bound to the subject that opened it', () => {
  it("refuses another subject's token on the session id with 403, and keeps serving its owner", async () => {
    const session = await openSession(server.mcpUrl, tokens.agent);
    const ping = { jsonrpc: '2.0', id: 5, method: 'ping' };
    const hijack = await onSession(server.mcpUrl, session, tokens.reader, ping);
    expect(hijack.status).toBe(403);
    expect(((await hijack.json()) as { error: { message: string } }).error.message).toMatch(/another user/);
    const owner = await onSession(server.mcpUrl, session, tokens.agent, ping);
    expect(owner.status).toBe(200);
    expect((await readMessages(owner))[0]?.result).toEqual({});
  });
});

describe('rate limits per signed-in client', () => {
  it('counts each subject on its own, even from the same address', async () => {
    const limited = await startTestServer({
      auth: { issuer, resource: RESOURCE },
      rateLimits: { callsPerMinute: 2, handshakesPerMinute: 100 },
    });
    try {
      const call = (token: string) => callTool(limited.mcpUrl, token, 'calculate', { expression: '1+1' });
      expect((await call(tokens.reader)).status).toBe(200);
      expect((await call(tokens.reader)).status).toBe(200);
      const refused = await call(tokens.reader);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect((await call(tokens.agent)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('start-up discovery', () => {
  it('names the variable and the URLs it tried when the issuer cannot be reached', async () => {
    await expect(discoverIssuer('http://127.0.0.1:9/', { deadlineMs: 0 })).rejects.toThrow(
      /MCP_AUTH_ISSUER=http:\/\/127\.0\.0\.1:9\/: .*tried http:\/\/127\.0\.0\.1:9\/\.well-known\/oauth-authorization-server/,
    );
  });

  it('refuses an issuer whose metadata names another issuer', async () => {
    const liar = await serve(async (_req, res) => {
      const real = await (await fetch(`${auth.issuer}/.well-known/openid-configuration`)).text();
      res.writeHead(200, { 'content-type': 'application/json' }).end(real);
    });
    try {
      await expect(discoverIssuer(liar.url)).rejects.toThrow(/MCP_AUTH_ISSUER/);
    } finally {
      await liar.close();
    }
  });

  it('refuses metadata that is not JSON or has no jwks_uri', async () => {
    const junk = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
    );
    try {
      await expect(discoverIssuer(junk.url)).rejects.toThrow(/MCP_AUTH_ISSUER/);
    } finally {
      await junk.close();
    }
  });
});

/**
 * The smallest standard issuer: RFC 8414 metadata and a JWKS, with its own key. Nothing of the
 * workshop's authorization server, so the resource server is shown to work with others.
 */
async function startMinimalIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'third-party-1', alg: 'ES256', use: 'sig' };
  let base = '';
  const http = await serve((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          jwks_uri: `${base}/jwks`,
          response_types_supported: ['code'],
        }),
      );
    } else if (req.url === '/jwks') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  base = http.url.replace(/\/$/, '');
  return {
    url: base,
    close: http.close,
    /** A token signed with this issuer's key; `issuer` and `audience` override its `iss` and `aud`. */
    sign(
      claims: Record<string, unknown>,
      {
        notBefore,
        issuer = base,
        audience = RESOURCE,
      }: { notBefore?: string; issuer?: string; audience?: string } = {},
    ) {
      const jwt = new SignJWT({ client_id: 'third-party-client', ...claims })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject('someone-elsewhere')
        .setIssuedAt()
        .setExpirationTime('5m');
      return (notBefore ? jwt.setNotBefore(notBefore) : jwt).sign(privateKey);
    },
  };
}

/** A token signed by a key the issuer never published, with every claim otherwise right. */
async function forgedToken(kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT({ client_id: 'workshop-agent', scope: 'tasks:read tasks:write' })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
    .setIssuer(auth.issuer)
    .setAudience(RESOURCE)
    .setSubject('workshop-agent')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

async function serve(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
