import { validateToolResult } from '@mcp-workshop/shared';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';

describe('the curl path (/tools)', () => {
  let srv: TestServer;
  let client: Client;
  beforeAll(async () => {
    srv = await startTestServer();
    client = new Client({ name: 'compare', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
  });
  afterAll(async () => {
    await client.close();
    await srv.close();
  });

  const post = (name: string, body: string | undefined, contentType = 'application/json') =>
    fetch(`${srv.baseUrl}/tools/${name}`, {
      method: 'POST',
      headers: body === undefined ? {} : { 'content-type': contentType },
      body,
    });

  it('GET /tools lists exactly what tools/list returns over MCP', async () => {
    const response = await fetch(`${srv.baseUrl}/tools`);
    expect(response.status).toBe(200);
    const { tools } = (await response.json()) as { tools: unknown[] };
    expect(tools).toEqual((await client.listTools()).tools);
  });

  it.each([
    ['get_weather', { location: 'Oslo' }],
    ['list_cities', { country: 'NO' }],
    ['calculate', { expression: '1/0' }],
    ['get_weather', { location: 'Atlantis' }],
  ])('POST /tools/%s returns the same CallToolResult as tools/call', async (name, args) => {
    const response = await post(name, JSON.stringify(args));
    expect(response.status).toBe(200);
    const viaCurl = await response.json();
    expect(validateToolResult(viaCurl).ok).toBe(true);
    expect(viaCurl).toEqual(await client.callTool({ name, arguments: args }));
  });

  it('treats a missing body as no arguments', async () => {
    const response = await post('list_cities', undefined);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { isError: boolean }).isError).toBe(false);
  });

  it('answers an unknown tool with 404 and the JSON-RPC code -32602', async () => {
    const response = await post('nope', '{}');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32602 } });
  });

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"Oslo"'],
    ['null', 'null'],
  ])('answers %s as the body with 400', async (_label, body) => {
    const response = await post('get_weather', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32602 } });
  });

  it('answers malformed JSON with 400 and -32700', async () => {
    const response = await post('get_weather', '{"location":');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('answers a body over 1 MB with 413', async () => {
    const response = await post('get_weather', JSON.stringify({ location: 'x'.repeat(1_100_000) }));
    expect(response.status).toBe(413);
  });

  it('returns invalid arguments as an isError result, as MCP does', async () => {
    const response = await post(
      'get_weather',
      JSON.stringify({ location: ['Oslo'], __proto__: { polluted: true } }),
    );
    expect(response.status).toBe(200);
    const result = (await response.json()) as { isError: boolean };
    expect(result.isError).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('GET /health', () => {
  it('reports status, mode and live sessions', async () => {
    const srv = await startTestServer();
    try {
      const response = await fetch(`${srv.baseUrl}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok', mode: 'stateful', sessions: 0 });
    } finally {
      await srv.close();
    }
  });
});
