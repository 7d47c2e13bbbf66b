/**
 * @module http/eras.http.test
 * The host serving the fixture server over real HTTP, with no sign-in: a 2025 session from
 * `initialize` to `DELETE` (server→client elicitation and progress kept on it), 2025 stateless,
 * 2026-07-28 per-request `_meta`; a foreign Host or Origin refused; a body over 1 MB and JSON
 * nested too deep refused while the server keeps answering; the curl path lists and calls tools.
 */
import {
  MCP_HEADERS,
  openRawSession,
  postModern,
  postOnSession,
  rawPost,
  readMessages,
} from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHost } from '../test-support/fixture-host.js';
import type { HttpHost } from './start.js';

const echoCall = (id: number, text: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text } },
});

describe('the host over HTTP, stateful (2025 sessions and 2026-07-28)', () => {
  let host: HttpHost;
  beforeAll(async () => {
    host = await startFixtureHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('runs a 2025 session: initialize → tools/call → DELETE, after which the id is gone (404)', async () => {
    const sessionId = await openRawSession(host.mcpUrl);
    expect(host.app.sessions?.size).toBe(1);
    const called = await readMessages(
      await postOnSession(host.mcpUrl, sessionId, echoCall(2, 'in a session')),
    );
    expect(called[0]?.result?.content).toEqual([{ type: 'text', text: 'in a session' }]);
    const deleted = await fetch(host.mcpUrl, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(deleted.status).toBe(200);
    expect(host.app.sessions?.size).toBe(0);
    expect((await postOnSession(host.mcpUrl, sessionId, echoCall(3, 'x'))).status).toBe(404);
  });

  it('answers an unknown session id with 404 and runs nothing', async () => {
    const response = await postOnSession(host.mcpUrl, 'not-a-session', echoCall(1, 'ghost'));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toMatch(/ghost/);
  });

  it('keeps server→client requests on a 2025 session: the fixture elicits, and progress and logs arrive', async () => {
    const client = new Client({ name: 'eras-test', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(host.mcpUrl)));
    try {
      const asked = await client.callTool({ name: 'ask_name', arguments: {} });
      expect(asked.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    } finally {
      await client.close();
    }
    const sessionId = await openRawSession(host.mcpUrl);
    const stepped = await readMessages(
      await postOnSession(host.mcpUrl, sessionId, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'slow_steps', arguments: {}, _meta: { progressToken: 'p1' } },
      }),
    );
    expect(stepped.map((message) => message.method ?? 'result')).toEqual([
      'notifications/message',
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
    expect(
      stepped.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progress),
    ).toEqual([1, 2]);
  });

  it('answers a 2026-07-28 tools/call carrying its _meta envelope, with no session', async () => {
    const before = host.app.sessions?.size;
    const response = await postModern(host.mcpUrl, 'tools/call', {
      name: 'echo',
      arguments: { text: 'modern' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await readMessages(response))[0]?.result?.content).toEqual([{ type: 'text', text: 'modern' }]);
    expect(host.app.sessions?.size).toBe(before);
  });

  it('refuses a 2026-07-28 call whose Mcp-Name header disagrees with its body', async () => {
    const response = await postModern(
      host.mcpUrl,
      'tools/call',
      { name: 'echo', arguments: { text: 'mismatch' } },
      { headers: { 'mcp-name': 'whoami' } },
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toMatch(/"text":"mismatch"/);
  });

  it.each([
    ['a foreign Host (DNS rebinding)', { host: 'evil.example' }],
    ['a foreign Host on our own port', { host: 'evil.example:PORT' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
  ])('answers %s with 403 and runs nothing', async (_label, headers) => {
    const named = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key, value.replace('PORT', String(host.port))]),
    );
    const answer = await rawPost(
      host.port,
      '/mcp',
      { ...MCP_HEADERS, ...named },
      JSON.stringify(echoCall(1, 'cross-site')),
    );
    expect(answer.status).toBe(403);
    expect(answer.body).not.toMatch(/cross-site/);
  });

  it('accepts a localhost Origin', async () => {
    const response = await postModern(
      host.mcpUrl,
      'tools/call',
      { name: 'echo', arguments: { text: 'local page' } },
      { headers: { origin: `http://localhost:${host.port}` } },
    );
    expect(response.status).toBe(200);
  });

  it('answers a body over 1 MB with 413 and too-deep JSON with 400, and still answers afterwards', async () => {
    const huge = await fetch(host.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify(echoCall(1, 'x'.repeat(1024 * 1024 + 1))),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { message: expect.stringMatching(/1 MB/) } });
    const deep = await fetch(host.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"deep","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}}}`,
    });
    expect(deep.status).toBe(400);
    const refusal = await deep.text();
    expect(refusal).toMatch(/nested deeper than/);
    expect(refusal).not.toMatch(/"text":"deep"/);
    const after = await postModern(host.mcpUrl, 'tools/call', {
      name: 'echo',
      arguments: { text: 'still here' },
    });
    expect((await readMessages(after))[0]?.result?.content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it("lists the fixture's tools on GET /tools and calls one on POST /tools/:name", async () => {
    const listed = (await (await fetch(`${host.baseUrl}/tools`)).json()) as unknown;
    expect(JSON.stringify(listed)).toMatch(/"echo"/);
    expect(JSON.stringify(listed)).toMatch(/"ask_name"/);
    const called = await fetch(`${host.baseUrl}/tools/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"by curl"}',
    });
    expect(called.status).toBe(200);
    expect(await called.text()).toMatch(/by curl/);
    const unknown = await fetch(`${host.baseUrl}/tools/no_such_tool`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
  });
});

describe('the host over HTTP, stateless (2025)', () => {
  let host: HttpHost;
  beforeAll(async () => {
    host = await startFixtureHost({ stateless: true });
  });
  afterAll(async () => {
    await host.close();
  });

  it('answers tools/call without initialize or session, and hands out no session id', async () => {
    const response = await fetch(host.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(echoCall(1, 'stateless')),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect((await readMessages(response))[0]?.result?.content).toEqual([{ type: 'text', text: 'stateless' }]);
    expect(host.app.sessions).toBeUndefined();
  });

  it('reuses pooled servers instead of building one per request', async () => {
    const before = host.app.serversBuilt();
    for (let i = 0; i < 5; i++) {
      const response = await postModern(host.mcpUrl, 'tools/call', {
        name: 'echo',
        arguments: { text: `n${i}` },
      });
      await response.text();
    }
    expect(host.app.serversBuilt() - before).toBeLessThan(5);
  });
});
