/**
 * @module test-support/mcp
 * Raw MCP over HTTP, as the scale-out tests need it: every answer sorted into a result, an error a
 * client may retry (a 502/503 from the load balancer, a cut connection), or anything else, which is
 * a wrong answer. 2026-07-28 requests stand alone; 2025-11-25 sessions carry Mcp-Session-Id.
 */
import http from 'node:http';
import { mcpNameOf, parseMcpBody } from '@mcp-workshop/test-infra';

/** No request in these tests should take long; one that does is a failure, not a wait. */
export const REQUEST_TIMEOUT_MS = 10_000;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'scale-e2e', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  params?: Record<string, unknown>;
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: Array<{ type: string; text?: string }>;
}

export type Outcome<T> =
  | { kind: 'ok'; status: number; value: T }
  /** HTTP 502/503/504, or the connection failed or was cut: safe to report and to retry. */
  | { kind: 'retryable'; reason: string }
  /** Anything else: another status, a JSON-RPC error, a missing answer. */
  | { kind: 'unexpected'; status: number; reason: string };

const RETRYABLE_STATUS = new Set([502, 503, 504]);

/**
 * One 2026-07-28 request: no session, the envelope in `_meta`, the routing headers the revision asks
 * for. `meta` may replace the envelope's client capabilities, e.g. to declare MCP Tasks.
 */
export function requestModern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  /** More `_meta` keys next to the envelope, e.g. a `traceparent`. */
  meta: Record<string, unknown> = {},
): Promise<Outcome<JsonRpcMessage>> {
  // The body's tool name, resource URI or task id, as the revision asks (SEP-2243; SEP-2663 for tasks/*).
  const name = mcpNameOf(method, params);
  return send(url, {
    headers: {
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { ...ENVELOPE, ...meta } } },
  });
}

/** Calls a tool as a 2026-07-28 client; `ok` holds its result, which may be an `isError` one. */
export async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): Promise<Outcome<ToolResult>> {
  return toToolResult(await requestModern(url, 'tools/call', { name, arguments: args }, meta));
}

/**
 * A 2025-11-25 `initialize` on its own, as a client of a stateless server sends it: the answer and,
 * when the server issued one, the Mcp-Session-Id (a stateless server issues none).
 */
export function initializeLegacy(url: string): Promise<Outcome<JsonRpcMessage> & { sessionId?: string }> {
  return send(url, {
    headers: {},
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'scale-e2e', version: '0' } },
    },
  });
}

/** Calls a tool as a 2025-11-25 client with no session: `mcp-protocol-version`, no Mcp-Session-Id. */
export async function sessionlessCallTool(
  url: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Outcome<ToolResult>> {
  const body = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } };
  return toToolResult(await send(url, { headers: { 'mcp-protocol-version': LEGACY }, body }));
}

/**
 * A 2026-07-28 `tools/call` with extra headers (e.g. X-Forwarded-For), answered raw: the status,
 * the headers and every JSON-RPC message, for the tests that assert a refusal such as a 429.
 * `from` is the local address to connect from (any 127.x.y.z works on Linux), so a test can be
 * several real clients, each a peer address of its own, which fetch cannot choose.
 */
export function rawCallTool(
  url: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string | string[]>,
  from = '127.0.0.1',
): Promise<{ status: number; headers: Headers; messages: JsonRpcMessage[] }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, _meta: ENVELOPE },
  });
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        localAddress: from,
        // A fresh connection per call: a pooled one could have been opened from another address.
        agent: false,
        headers: {
          ...HEADERS,
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': name,
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const answerHeaders = new Headers();
          for (const [key, value] of Object.entries(response.headers)) {
            for (const item of [value ?? []].flat()) answerHeaders.append(key, item);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: answerHeaders,
            messages: parseMessages(
              answerHeaders.get('content-type'),
              Buffer.concat(chunks).toString('utf8'),
            ),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Opens a 2025-11-25 session (initialize, then initialized) and returns its id. */
export async function openSession(url: string): Promise<Outcome<string>> {
  const initialize = await send(url, {
    headers: {},
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'scale-e2e', version: '0' } },
    },
  });
  if (initialize.kind !== 'ok') return initialize;
  const sessionId = initialize.sessionId;
  if (!sessionId) return { kind: 'unexpected', status: initialize.status, reason: 'no Mcp-Session-Id' };
  const initialized = await sessionRequest(url, sessionId, {
    jsonrpc: '2.0',
    method: 'notifications/initialized',
  });
  if (initialized.kind === 'unexpected' && initialized.status !== 202) return initialized;
  return { kind: 'ok', status: initialize.status, value: sessionId };
}

/** One message on a 2025 session; a 404 comes back as `unexpected` with its status, for the test to judge. */
export function sessionRequest(
  url: string,
  sessionId: string,
  body: Record<string, unknown>,
): Promise<Outcome<JsonRpcMessage>> {
  return send(url, {
    headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
    body,
  });
}

export async function sessionCallTool(
  url: string,
  sessionId: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Outcome<ToolResult>> {
  const body = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } };
  return toToolResult(await sessionRequest(url, sessionId, body));
}

/** The raw status and first message of a response, for the tests that assert a 404 precisely. */
export async function rawSessionPost(url: string, sessionId: string, body: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return {
    status: response.status,
    messages: parseMessages(response.headers.get('content-type'), await response.text()),
  };
}

function toToolResult(outcome: Outcome<JsonRpcMessage>): Outcome<ToolResult> {
  if (outcome.kind !== 'ok') return outcome;
  const { result, error } = outcome.value;
  if (!result)
    return { kind: 'unexpected', status: outcome.status, reason: `no result: ${JSON.stringify(error)}` };
  return { kind: 'ok', status: outcome.status, value: result as ToolResult };
}

async function send(
  url: string,
  request: { headers: Record<string, string>; body: Record<string, unknown> },
): Promise<Outcome<JsonRpcMessage> & { sessionId?: string }> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, ...request.headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause;
    if ((error as Error).name === 'TimeoutError') {
      return { kind: 'unexpected', status: 0, reason: `no answer within ${REQUEST_TIMEOUT_MS} ms` };
    }
    // ECONNREFUSED, ECONNRESET, "other side closed": the request may or may not have reached a server.
    return { kind: 'retryable', reason: `connection: ${cause?.code ?? (error as Error).message}` };
  }
  if (RETRYABLE_STATUS.has(response.status)) return { kind: 'retryable', reason: `HTTP ${response.status}` };
  if (request.body.id === undefined) {
    return {
      kind: 'unexpected',
      status: response.status,
      reason: `notification answered ${response.status}`,
    };
  }
  const messages = parseMessages(response.headers.get('content-type'), text);
  const answer = messages.find((message) => message.id === request.body.id);
  if (response.status !== 200 || !answer) {
    return {
      kind: 'unexpected',
      status: response.status,
      reason: `HTTP ${response.status}: ${text.slice(0, 300)}`,
    };
  }
  return {
    kind: 'ok',
    status: 200,
    value: answer,
    sessionId: response.headers.get('mcp-session-id') ?? undefined,
  };
}

/** Every JSON-RPC message in a body, whether it came as JSON or as an SSE stream. */
export function parseMessages(contentType: string | null, text: string): JsonRpcMessage[] {
  return parseMcpBody(contentType, text) as JsonRpcMessage[];
}

/** The task an `add_task` result holds, or undefined. */
export function taskOf(result: ToolResult): { id: number; title: string } | undefined {
  return (result.structuredContent as { task?: { id: number; title: string } } | undefined)?.task;
}

/** The titles a `list_tasks` result holds. */
export function titlesOf(result: ToolResult): string[] {
  const items = (result.structuredContent as { items?: Array<{ title: string }> } | undefined)?.items ?? [];
  return items.map((item) => item.title);
}

/** The text of an `isError` result, for asserting the message a model would see. */
export function textOf(result: ToolResult): string {
  return (result.content ?? []).map((part) => part.text ?? '').join('\n');
}
