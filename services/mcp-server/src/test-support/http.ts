/**
 * @module test-support/http
 * Starts the real express app on 127.0.0.1 with a port the OS picks, backed by a temporary
 * task database and the offline weather, for tests that speak HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMcpBody } from '@mcp-workshop/test-infra';
import { type LocalServer, type LocalServerOptions, startLocalServer } from '../local-server.js';

export type TestServer = LocalServer;

export const FIXED_NOW = new Date('2026-07-28T12:00:00Z');

/** A server with a fixed clock and a fresh temporary database; `close()` deletes the database too. */
export async function startTestServer(
  options: Omit<LocalServerOptions, 'dataDir'> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-http-'));
  const server = await startLocalServer({ dataDir, now: () => FIXED_NOW, ...options });
  return {
    ...server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headers every Streamable HTTP POST carries. */
export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

/** A JSON-RPC message read from a JSON or SSE response body. */
export type JsonRpcMessage = {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  params?: Record<string, unknown>;
};

/** Reads every JSON-RPC message from a response, whether it came back as JSON or as SSE. */
export async function readMessages(response: Response): Promise<JsonRpcMessage[]> {
  return parseMcpBody(response.headers.get('content-type'), await response.text()) as JsonRpcMessage[];
}

/** Opens a 2025-era session with raw HTTP and returns its id. */
export async function openRawSession(mcpUrl: string, protocolVersion = '2025-11-25'): Promise<string> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '0' } },
    }),
  });
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize returned no session id (HTTP ${response.status})`);
  await fetch(mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return sessionId;
}

/** POSTs one JSON-RPC message on a session and returns the HTTP response. */
export function postOnSession(
  mcpUrl: string,
  sessionId: string,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
      ...extraHeaders,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The per-request `_meta` envelope of a 2026-07-28 client. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'http-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
} as const;

/** POSTs one 2026-07-28 request: the envelope in `_meta`, and the Mcp-Method / Mcp-Name headers it needs. */
export function postModern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  { id = 1, headers = {} }: { id?: number; headers?: Record<string, string> } = {},
): Promise<Response> {
  const name =
    typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return fetch(url, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }),
  });
}
