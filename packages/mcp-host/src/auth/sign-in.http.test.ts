/**
 * @module auth/sign-in.http.test
 * The OAuth resource server around the fixture server, over real HTTP with a test issuer: no or
 * a wrong-audience token gets 401 and the way to a token; a token without the scope the fixture's
 * policy asks for gets 403 `insufficient_scope` for the guarded tool, prompt and `notes://` family
 * (odd spellings of the scheme included), in every era; the right scope gets through; a session
 * answers only its own user; and the metadata publishes the policy's scopes and the server's name.
 */
import {
  ERAS,
  EraClient,
  freePort,
  openRawSession,
  postOnSession,
  resultIn,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpHost } from '../http/start.js';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { FIXTURE_INFO, FIXTURE_POLICY, NOTES_READ, NOTES_WRITE } from '../test-support/fixture-server.js';
import { discoverIssuer } from './issuer.js';

let issuer: TestIssuer;
/** Sessions on, for the 2025 session and 2026-07-28 eras. */
let host: HttpHost;
/** Stateless, for the 2025 stateless era. */
let statelessHost: HttpHost;
let resource: string;
const token = (subject: string, scopes: readonly string[] = [], audience = resource) =>
  issuer.token({ subject, resource: audience, scopes });

/** A signed-in fixture host whose resource URL is its own /mcp (the port is picked first to know it). */
async function startSignedIn(stateless: boolean): Promise<HttpHost> {
  const port = await freePort();
  return startFixtureHost({
    port,
    stateless,
    maxSessions: 100,
    auth: {
      issuer: await discoverIssuer(issuer.issuer),
      resource: `http://127.0.0.1:${port}/mcp`,
      policy: FIXTURE_POLICY,
    },
  });
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  host = await startSignedIn(false);
  statelessHost = await startSignedIn(true);
  resource = host.mcpUrl;
});
afterAll(async () => {
  await host?.close();
  await statelessHost?.close();
  await issuer?.close();
});

const echo = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' } },
});
const post = (headers: Record<string, string>) =>
  fetch(host.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: echo,
  });

describe('sign-in on the fixture host', () => {
  it('answers no token with 401 and WWW-Authenticate naming the resource metadata', async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    expect(await response.text()).not.toMatch(/"text":"hi"/);
  });

  it.each([
    ['a token for another resource', async () => token('alice', [NOTES_READ], 'http://127.0.0.1:1/mcp')],
    ['junk', async () => 'not.a.jwt'],
  ])('answers %s with 401 invalid_token', async (_label, make) => {
    const response = await post({ authorization: `Bearer ${await make()}` });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it("publishes the policy's supported scopes and the server's name in the protected-resource metadata", async () => {
    const response = await fetch(`${host.baseUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource,
      authorization_servers: [issuer.issuer],
      scopes_supported: [NOTES_READ, NOTES_WRITE],
      resource_name: FIXTURE_INFO.name,
    });
  });

  it("refuses another user's session id with 403 and runs nothing", async () => {
    const alice = await token('alice');
    const bob = await token('bob');
    const sessionId = await openRawSession(host.mcpUrl, '2025-11-25', { authorization: `Bearer ${alice}` });
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    const stolen = await postOnSession(host.mcpUrl, sessionId, call, { authorization: `Bearer ${bob}` });
    expect(stolen.status).toBe(403);
    expect(await stolen.text()).not.toMatch(/sub:/);
    const own = await postOnSession(host.mcpUrl, sessionId, call, { authorization: `Bearer ${alice}` });
    expect(own.status).toBe(200);
    expect(await own.text()).toMatch(/sub:alice/);
  });
});

describe.each(ERAS)('scopes on the fixture host, %s', (era) => {
  const client = async (scopes: readonly string[]) => {
    const target = era === '2025 stateless' ? statelessHost : host;
    return new EraClient(era, target.mcpUrl, await token(`user-${era}`, scopes, target.mcpUrl));
  };

  it('lets any signed-in client call an open tool, and the handler sees who is asking', async () => {
    const answer = await (await client([])).send('tools/call', { name: 'whoami', arguments: {} });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(resultIn(answer.text))).toContain(`sub:user-${era}`);
  });

  it.each([
    ['the guarded tool', 'tools/call', { name: 'write_note', arguments: { body: 'secret' } }, NOTES_WRITE],
    ['the guarded prompt', 'prompts/get', { name: 'summarize_note', arguments: { id: '1' } }, NOTES_READ],
    ['notes://1', 'resources/read', { uri: 'notes://1' }, NOTES_READ],
    ['NOTES://1', 'resources/read', { uri: 'NOTES://1' }, NOTES_READ],
    ['" notes://1"', 'resources/read', { uri: ' notes://1' }, NOTES_READ],
    ['"no\\ttes://1"', 'resources/read', { uri: 'no\ttes://1' }, NOTES_READ],
  ])('answers %s without its scope with 403 insufficient_scope', async (_label, method, params, scope) => {
    const other = scope === NOTES_READ ? NOTES_WRITE : NOTES_READ;
    const answer = await (await client([other])).send(method, params);
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/insufficient_scope/);
    expect(answer.text).toContain(scope);
    expect(resultIn(answer.text)).toBeUndefined();
  });

  it.each([
    [
      'the guarded tool',
      'tools/call',
      { name: 'write_note', arguments: { body: 'mine' } },
      NOTES_WRITE,
      /noted: mine/,
    ],
    [
      'the guarded prompt',
      'prompts/get',
      { name: 'summarize_note', arguments: { id: '7' } },
      NOTES_READ,
      /Summarize note 7/,
    ],
    ['notes://3', 'resources/read', { uri: 'notes://3' }, NOTES_READ, /note 3/],
  ])('serves %s with its scope', async (_label, method, params, scope, expected) => {
    const answer = await (await client([scope])).send(method, params);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(resultIn(answer.text))).toMatch(expected);
  });
});
