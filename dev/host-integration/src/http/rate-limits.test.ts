/**
 * Rate limits over real HTTP: a burst of tool calls gets 429 with Retry-After, handshakes have
 * their own bucket (MCP Tasks polls included), the curl path shares the calls' bucket, and a batch
 * counts every call in it.
 */

import { MCP_HEADERS, postModern, readMessages, TASKS_CAPABILITIES } from '@mcp-workshop/test-infra';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function start(callsPerMinute: number, handshakesPerMinute: number) {
  return startTestServer({ rateLimits: { callsPerMinute, handshakesPerMinute } });
}

function modern(url: string, id: number, method: string, params: Record<string, unknown> = {}) {
  return postModern(url, method, params, { id });
}

const calculate = (url: string, id: number) =>
  modern(url, id, 'tools/call', { name: 'calculate', arguments: { expression: '1+1' } });

async function expectLimited(response: Response, id?: number | null) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get('ratelimit-policy')).toMatch(/q=\d+; w=60/);
  const body = (await response.json()) as {
    jsonrpc?: string;
    id?: unknown;
    error: { code: number; message: string; data: { retryAfterSeconds: number } };
  };
  expect(body.error.code).toBe(-32000);
  expect(body.error.message).toMatch(/Rate limit exceeded.*Retry in \d+ s/);
  expect(body.error.data.retryAfterSeconds).toBe(retryAfter);
  if (id !== undefined) expect(body.id).toBe(id);
  return body;
}

describe('rate limits', () => {
  it('answers a burst of tool calls past the limit with 429, Retry-After and a JSON-RPC error', async () => {
    server = await start(5, 100);
    const statuses = [];
    for (let id = 1; id <= 5; id++) statuses.push((await calculate(server.mcpUrl, id)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const body = await expectLimited(await calculate(server.mcpUrl, 6), 6);
    expect(body.jsonrpc).toBe('2.0');
  });

  it('counts MCP Tasks polls (tasks/get, tasks/cancel) in the handshake bucket: a flood of them is refused, calls go on', async () => {
    server = await start(3, 4);
    const tasks = (id: number, method: string, params: Record<string, unknown>) =>
      postModern(server?.mcpUrl ?? '', method, params, { id, capabilities: TASKS_CAPABILITIES });
    const created = await tasks(1, 'tools/call', {
      name: 'generate_report',
      arguments: { topic: 'cities', steps: 2, delayMs: 0 },
    });
    const [message] = await readMessages(created);
    const taskId = String((message?.result as { taskId?: unknown } | undefined)?.taskId);
    expect(taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Four polls are the handshake budget; the fifth, and a cancel after it, are refused with 429.
    for (let id = 2; id <= 5; id++)
      expect((await tasks(id, 'tasks/get', { taskId })).status, `poll ${id}`).toBe(200);
    await expectLimited(await tasks(6, 'tasks/get', { taskId }), 6);
    await expectLimited(await tasks(7, 'tasks/cancel', { taskId }), 7);
    // The flood spent nothing of the calls' budget: two tool calls are still there.
    for (let id = 8; id <= 9; id++) expect((await calculate(server.mcpUrl, id)).status).toBe(200);
  });

  it('keeps handshakes and lists in their own bucket, in both directions', async () => {
    server = await start(2, 4);
    for (let id = 1; id <= 2; id++) expect((await calculate(server.mcpUrl, id)).status).toBe(200);
    await expectLimited(await calculate(server.mcpUrl, 3), 3);
    // Calls are used up; listing still works.
    expect((await modern(server.mcpUrl, 4, 'tools/list')).status).toBe(200);
    for (let id = 5; id <= 7; id++) await modern(server.mcpUrl, id, 'tools/list');
    await expectLimited(await modern(server.mcpUrl, 8, 'tools/list'), 8);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(429);

    // And a flood of handshakes leaves the calls alone.
    await server.close();
    server = await start(2, 2);
    for (let id = 1; id <= 3; id++) await modern(server.mcpUrl, id, 'tools/list');
    expect((await modern(server.mcpUrl, 4, 'tools/list')).status).toBe(429);
    expect((await calculate(server.mcpUrl, 5)).status).toBe(200);
  });

  it('counts the curl path in the same bucket as tools/call, and answers it in its own error shape', async () => {
    server = await start(2, 100);
    const curl = () =>
      fetch(`${server?.baseUrl}/tools/calculate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ expression: '2+2' }),
      });
    expect((await curl()).status).toBe(200);
    expect((await calculate(server.mcpUrl, 1)).status).toBe(200);
    const limited = await expectLimited(await curl(), undefined);
    expect(limited.jsonrpc).toBeUndefined();
    expect((await fetch(`${server.baseUrl}/tools`)).status).toBe(200);
  });

  it('counts every tools/call of a 2025-03-26 batch', async () => {
    server = await start(5, 100);
    const initialize = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-03-26',
          capabilities: {},
          clientInfo: { name: 'rate-test', version: '0' },
        },
      }),
    });
    const sessionId = initialize.headers.get('mcp-session-id') ?? '';
    await initialize.text();
    // The first batch (4 calls) fits in 5; the second (2 more) does not.
    const first = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-03-26', 'mcp-session-id': sessionId },
      body: JSON.stringify(
        [1, 2, 3, 4].map((id) => ({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'calculate', arguments: { expression: '1+1' } },
        })),
      ),
    });
    expect(first.status).toBe(200);
    expect((await readMessages(first)).filter((message) => message.result).length).toBe(4);
    const second = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-03-26', 'mcp-session-id': sessionId },
      body: JSON.stringify(
        [5, 6].map((id) => ({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'calculate', arguments: { expression: '1+1' } },
        })),
      ),
    });
    await expectLimited(second, null);
  });

  it.each([
    ['a JSON string', '"tools/call"'],
    ['null', 'null'],
    ['a method that is not a string', '{"jsonrpc":"2.0","id":1,"method":{"tools/call":true}}'],
    ['a batch of junk', '[1,"a",null,{}]'],
  ])('counts %s as a handshake, without failing', async (_label, body) => {
    server = await start(1, 100);
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-03-26' },
      body,
    });
    expect(response.status).toBeLessThan(500);
    expect(response.status).not.toBe(429);
    expect((await calculate(server.mcpUrl, 9)).status).toBe(200);
  });

  it('behind a trusted proxy, counts each forwarded client on its own; otherwise the proxy is one client', async () => {
    const from = (url: string, id: number, client: string) =>
      postModern(
        url,
        'tools/call',
        { name: 'calculate', arguments: { expression: '1+1' } },
        { id, headers: { 'x-forwarded-for': client } },
      );
    server = await startTestServer({
      rateLimits: { callsPerMinute: 2, handshakesPerMinute: 100 },
      trustProxy: 'loopback',
    });
    for (const id of [1, 2]) expect((await from(server.mcpUrl, id, '203.0.113.7')).status).toBe(200);
    await expectLimited(await from(server.mcpUrl, 3, '203.0.113.7'), 3);
    expect((await from(server.mcpUrl, 4, '198.51.100.9')).status).toBe(200);
    await server.close();

    // Not trusted: the header is ignored, so nobody can dodge the limit by writing it.
    server = await startTestServer({ rateLimits: { callsPerMinute: 2, handshakesPerMinute: 100 } });
    for (const id of [1, 2]) expect((await from(server.mcpUrl, id, `192.0.2.${id}`)).status).toBe(200);
    await expectLimited(await from(server.mcpUrl, 3, '192.0.2.3'), 3);
  });

  it('sets no limit and no headers when both are 0', async () => {
    server = await start(0, 0);
    for (let id = 1; id <= 20; id++) {
      const response = await calculate(server.mcpUrl, id);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBeNull();
    }
  });
});
