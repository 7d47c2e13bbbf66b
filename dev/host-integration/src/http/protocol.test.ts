/**
 * Raw-HTTP tests of the 2025-era protocol on /mcp: they assert the bytes on the wire, not the
 * SDK's view of them, so a regression in either our wiring or the SDK shows up here.
 */

import { MAX_JSON_DEPTH } from '@mcp-workshop/mcp-host';
import { MCP_HEADERS, openRawSession, postOnSession, readMessages } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { tools as workshopTools } from '../test-support/workshop.js';

describe('POST /mcp (2025 handshake)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  const initialize = (protocolVersion: string) =>
    fetch(srv.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'init-1',
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      }),
    });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
    'echoes the supported protocol version %s',
    async (version) => {
      const response = await initialize(version);
      expect(response.status).toBe(200);
      const [message] = await readMessages(response);
      expect(message?.id).toBe('init-1');
      expect(message?.result?.protocolVersion).toBe(version);
      const sessionId = response.headers.get('mcp-session-id') ?? '';
      expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    },
  );

  it('answers an unsupported version with the latest one instead of an error', async () => {
    const [message] = await readMessages(await initialize('1999-01-01'));
    expect(message?.error).toBeUndefined();
    expect(message?.result?.protocolVersion).toBe('2025-11-25');
  });

  it('declares only the capabilities it serves, tools with an explicit boolean listChanged', async () => {
    const [message] = await readMessages(await initialize('2025-11-25'));
    const capabilities = (message?.result?.capabilities ?? {}) as Record<string, unknown>;
    // Each feature owner asserts its own entry exactly; the key list catches a capability nobody meant to add.
    expect(capabilities).toMatchObject({ tools: { listChanged: false }, logging: {} });
    expect(capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    // The skills folder (src/skills/catalogue.ts): its extension, with resources/directory/read.
    const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
    expect(extensions['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
    expect(['tools', 'logging', 'resources', 'prompts', 'completions', 'extensions']).toEqual(
      expect.arrayContaining(Object.keys(capabilities)),
    );
    expect(message?.result?.serverInfo).toMatchObject({
      name: 'mcp-workshop-server',
      version: expect.any(String),
    });
  });

  it('acknowledges a notification with 202 and an empty body', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const response = await postOnSession(srv.mcpUrl, sessionId, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('answers ping with an empty result and keeps a string id', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 'a-1', method: 'ping' }),
    );
    expect(message).toMatchObject({ id: 'a-1', result: {} });
  });

  it('returns -32601 for an unknown method', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 5, method: 'foo/bar', params: {} }),
    );
    expect(message?.error?.code).toBe(-32601);
  });

  it('returns the JSON-RPC error -32602 for an unknown tool, not a result', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, {
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'nope', arguments: {} },
      }),
    );
    expect(message?.result).toBeUndefined();
    expect(message?.error?.code).toBe(-32602);
  });

  it('returns invalid tool arguments as an isError result', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_weather', arguments: { location: 42 } },
      }),
    );
    expect(message?.result?.isError).toBe(true);
    expect(message?.result?.content).toEqual([{ type: 'text', text: expect.stringMatching(/location/) }]);
  });

  it('lists tools whose schemas have an object root and hints that are booleans', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 8, method: 'tools/list' }),
    );
    const tools = message?.result?.tools as Array<Record<string, Record<string, unknown>>>;
    // The registered list, so a tool added with `pnpm new-tool` is expected too.
    expect(tools.map((tool) => tool.name).sort()).toEqual(workshopTools.map((tool) => tool.name).sort());
    for (const tool of tools) {
      expect(String(tool.name)).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(tool.inputSchema?.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(typeof tool.description).toBe('string');
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
        expect(typeof tool.annotations?.[hint]).toBe('boolean');
      }
    }
  });
});

describe('POST /mcp, malformed and hostile input', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  /** After every hostile request the server must still answer a normal one. */
  const stillAnswers = async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 'alive', method: 'ping' }),
    );
    expect(message?.result).toEqual({});
  };

  it('answers malformed JSON with HTTP 400 and -32700', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: '{"jsonrpc": "2.0", "id": 1,',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    await stillAnswers();
  });

  it('answers a body over 1 MB with 413', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(1024 * 1024) },
    });
    const response = await fetch(srv.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: big });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/1 MB/) },
    });
    await stillAnswers();
  });

  it('rejects deeply nested JSON without crashing', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const response = await fetch(srv.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: deep });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    await stillAnswers();
  });

  it('refuses a body one level deeper than MAX_JSON_DEPTH with 400 and says why, before parsing it', async () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    const response = await fetch(srv.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: deep });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.` },
    });
    await stillAnswers();
  });

  it('rejects deeply nested tool arguments with an isError result or a 4xx', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    // Built as text: JSON.stringify itself would overflow the stack on an object this deep.
    const nested = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    const response = await postOnSession(
      srv.mcpUrl,
      sessionId,
      `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"calculate","arguments":{"expression":${nested}}}}`,
    );
    if (response.status === 200) {
      const [message] = await readMessages(response);
      expect(message?.result?.isError).toBe(true);
    } else {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    await stillAnswers();
  });

  it('returns an isError result for a huge string argument', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const [message] = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, {
        jsonrpc: '2.0',
        id: 10,
        method: 'tools/call',
        params: { name: 'get_weather', arguments: { location: 'O'.repeat(500_000) } },
      }),
    );
    expect(message?.result?.isError).toBe(true);
    await stillAnswers();
  });

  it('refuses a JSON-RPC batch array on 2025-06-18 and later, where batching was removed', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const response = await postOnSession(srv.mcpUrl, sessionId, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/batch/i) },
    });
    await stillAnswers();
  });

  it('still accepts a batch from a 2025-03-26 client, which must be able to send one', async () => {
    const sessionId = await openRawSession(srv.mcpUrl, '2025-03-26');
    const response = await postOnSession(
      srv.mcpUrl,
      sessionId,
      [
        { jsonrpc: '2.0', id: 'b1', method: 'ping' },
        { jsonrpc: '2.0', id: 'b2', method: 'ping' },
      ],
      { 'mcp-protocol-version': '2025-03-26' },
    );
    expect(response.status).toBe(200);
    const ids = (await readMessages(response)).map((message) => message.id).sort();
    expect(ids).toEqual(['b1', 'b2']);
  });

  it.each([
    ['an array', '[]'],
    ['a number', '42'],
    ['null', 'null'],
    ['a string', '"initialize"'],
    ['an object without jsonrpc', '{"id":1,"method":"ping"}'],
  ])('answers %s as a body with a 4xx', async (_label, body) => {
    const response = await fetch(srv.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    await stillAnswers();
  });

  it('answers a foreign Origin with 403', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: 'http://evil.example.com' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(403);
    await stillAnswers();
  });

  it('answers a foreign Host with 403 (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        srv.mcpUrl,
        { method: 'POST', headers: { ...MCP_HEADERS, host: 'evil.example.com' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    expect(status).toBe(403);
  });

  it('accepts a localhost Origin', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: srv.baseUrl },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'o', version: '0' } },
      }),
    });
    expect(response.status).toBe(200);
  });

  it('answers an unknown session id with 404', async () => {
    const response = await postOnSession(srv.mcpUrl, 'no-such-session', {
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expect(response.status).toBe(404);
  });

  it('answers a missing session id with 400', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(400);
  });

  it('ends a session on DELETE, after which the id gets 404', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const deleted = await fetch(srv.mcpUrl, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(deleted.status).toBe(200);
    const after = await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(after.status).toBe(404);
  });

  it('answers an unsupported MCP-Protocol-Version header with 400', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const response = await postOnSession(
      srv.mcpUrl,
      sessionId,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '1900-01-01' },
    );
    expect(response.status).toBe(400);
  });
});
