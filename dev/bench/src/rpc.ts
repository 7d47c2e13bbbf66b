/**
 * @module rpc
 * The few MCP messages the bench sends by hand, and reading an answer that may come as JSON or as
 * one SSE event. Hand-built on purpose: the load generator replays exact bytes.
 */

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/** The headers every Streamable HTTP POST carries. */
export const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

const CLIENT_INFO = { name: 'mcp-workshop-bench', version: '0.0.0' };

export function initializeBody(id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
  });
}

export const INITIALIZED_NOTIFICATION = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/initialized',
});

/** What a 2026-07-28 client declares to have `tools/call` of a task-capable tool answered with a task (SEP-2663). */
export const TASKS_CAPABILITIES = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/**
 * The per-request envelope of 2026-07-28: no handshake, every request says who it is, and what
 * it can do (`capabilities`; none unless given).
 */
export function modernMeta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

export function callBody(name: string, args: Record<string, unknown>, modern: boolean): string {
  const params = modern ? { name, arguments: args, _meta: modernMeta() } : { name, arguments: args };
  return JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params });
}

export function modernListBody(): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } });
}

export interface RpcAnswer {
  result?: { isError?: boolean; [key: string]: unknown };
  error?: { code: number; message: string };
}

/** The JSON-RPC response in a body that is either JSON or an SSE stream of `data:` lines. */
export function readAnswer(body: string): RpcAnswer | undefined {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as RpcAnswer;
  for (const line of trimmed.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data) continue;
    const message = JSON.parse(data) as RpcAnswer & { id?: unknown };
    if ('result' in message || 'error' in message) return message;
  }
  return undefined;
}
