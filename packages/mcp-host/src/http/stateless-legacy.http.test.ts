/**
 * @module http/stateless-legacy.http.test
 * The stateless host's 2025 route (`stateless-legacy.ts`) answers what the SDK's stateless fallback
 * refuses as that fallback does: each request below goes to the fixture host (`stateless: true`)
 * over real HTTP and, as a web `Request`, to `createMcpHandler(factory, { legacy: 'stateless' })`,
 * and the two answers must agree in status, `Content-Type`, `Allow` and body. Then a 2025 POST
 * still gets its answer, and a wrong `Content-Type` builds no instance.
 */
import { MCP_HEADERS, readMessages } from '@mcp-workshop/test-infra';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { createFixtureServer } from '../test-support/fixture-server.js';
import type { HttpHost } from './start.js';

const LEGACY = '2025-11-25';
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'guard-test', version: '0' } },
});

interface Case {
  name: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

const CASES: Case[] = [
  { name: 'GET (no session to stream)', method: 'GET', headers: { accept: 'text/event-stream' } },
  {
    name: 'a GET that names 2026-07-28',
    method: 'GET',
    headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' },
  },
  { name: 'DELETE (no session to close)', method: 'DELETE', headers: { 'mcp-protocol-version': LEGACY } },
  { name: 'PUT', method: 'PUT', headers: MCP_HEADERS, body: LIST },
  {
    name: 'a POST whose Content-Type is text/plain',
    method: 'POST',
    headers: { ...MCP_HEADERS, 'content-type': 'text/plain', 'mcp-protocol-version': LEGACY },
    body: LIST,
  },
  {
    name: 'an initialize whose Content-Type is text/plain',
    method: 'POST',
    headers: { ...MCP_HEADERS, 'content-type': 'text/plain' },
    body: INITIALIZE,
  },
  {
    name: 'a POST that accepts no event stream',
    method: 'POST',
    headers: { ...MCP_HEADERS, accept: 'application/json', 'mcp-protocol-version': LEGACY },
    body: LIST,
  },
];

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  body: unknown;
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    allow: response.headers.get('allow'),
    body: JSON.parse(await response.text()),
  };
}

describe('the stateless 2025 route', () => {
  let host: HttpHost;
  const sdk = createMcpHandler(() => createFixtureServer(), { legacy: 'stateless' });
  beforeAll(async () => {
    host = await startFixtureHost({ stateless: true });
  });
  afterAll(async () => {
    await host.close();
    await sdk.close();
  });

  it.each(CASES)('answers $name as the SDK does', async ({ method, headers, body }) => {
    const init = { method, headers, ...(body !== undefined && { body }) };
    const ours = await answerOf(await fetch(host.mcpUrl, init));
    const theirs = await answerOf(await sdk.fetch(new Request(host.mcpUrl, init)));
    expect(ours).toEqual(theirs);
    expect(ours.status).toBeGreaterThanOrEqual(400);
  });

  it('builds no instance for what it refuses', async () => {
    const before = host.app.serversBuilt();
    for (const { method, headers, body } of CASES.slice(0, 6)) {
      await (await fetch(host.mcpUrl, { method, headers, ...(body !== undefined && { body }) })).text();
    }
    expect(host.app.serversBuilt()).toBe(before);
  });

  it('serves a 2025 POST, an initialize among them', async () => {
    for (const body of [INITIALIZE, LIST]) {
      const response = await fetch(host.mcpUrl, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': LEGACY },
        body,
      });
      expect(response.status).toBe(200);
      expect((await readMessages(response))[0]?.result).toBeDefined();
    }
  });
});
