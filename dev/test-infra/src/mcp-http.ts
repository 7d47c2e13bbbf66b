/**
 * @module mcp-http
 * Raw Streamable HTTP for tests: the headers, `initialize`, session and 2026-07-28 requests with
 * `fetch`, and a client per protocol era with a token. What the host's and the catalogue's HTTP
 * tests send, byte for byte, so a test reads as the wire does.
 */
import { request as httpRequest } from 'node:http';
import { parseMcpBody } from './sse.js';

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

/**
 * One POST with `node:http` to `127.0.0.1:port` at `path`, sent as given: unlike `fetch`, it sends
 * the `Host` header it is handed, and the path exactly as spelt (`/MCP`, `/mcp/`).
 */
export function rawPost(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads every JSON-RPC message from a response, whether it came back as JSON or as SSE. */
export async function readMessages(response: Response): Promise<JsonRpcMessage[]> {
  return parseMcpBody(response.headers.get('content-type'), await response.text()) as JsonRpcMessage[];
}

/** `initialize` for a 2025-era session, with raw HTTP; `headers` may carry a token. */
export function postInitialize(
  mcpUrl: string,
  headers: Record<string, string> = {},
  protocolVersion = '2025-11-25',
  capabilities: Record<string, unknown> = {},
): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo: { name: 'raw-test', version: '0' } },
    }),
  });
}

/** Opens a 2025-era session with raw HTTP and returns its id; `headers` may carry a token. */
export async function openRawSession(
  mcpUrl: string,
  protocolVersion = '2025-11-25',
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await postInitialize(mcpUrl, headers, protocolVersion);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize returned no session id (HTTP ${response.status})`);
  await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      ...headers,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': protocolVersion,
    },
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

/** The client capabilities of a 2026-07-28 request that declares MCP Tasks (`io.modelcontextprotocol/tasks`). */
export const TASKS_CAPABILITIES = { extensions: { 'io.modelcontextprotocol/tasks': {} } } as const;

/** The 2026-07-28 envelope with these client capabilities. */
export function modernMeta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': capabilities };
}

/** What the Mcp-Name header mirrors for `method` (SEP-2243, and SEP-2663 for `tasks/*`), if anything. */
export function mcpNameOf(method: string, params: Record<string, unknown>): string | undefined {
  const field = method.startsWith('tasks/')
    ? 'taskId'
    : method === 'resources/read'
      ? 'uri'
      : method === 'tools/call' || method === 'prompts/get'
        ? 'name'
        : undefined;
  const value = field === undefined ? undefined : params[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * POSTs one 2026-07-28 request: the envelope in `_meta` (with `capabilities` as the client's), and
 * the Mcp-Method / Mcp-Name headers it needs.
 */
export function postModern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  {
    id = 1,
    headers = {},
    capabilities = {},
  }: { id?: number; headers?: Record<string, string>; capabilities?: Record<string, unknown> } = {},
): Promise<Response> {
  const name = mcpNameOf(method, params);
  return fetch(url, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      // Plain when a header can carry it as it is, else the base64 form.
      ...(name === undefined ? {} : { 'mcp-name': /^[\x20-\x7e]*$/.test(name) ? name : mcpNameHeader(name) }),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: modernMeta(capabilities) },
    }),
  });
}

/** The JSON-RPC `result` in a raw answer body, JSON or SSE alike; undefined when it holds none. */
export function resultIn(text: string): Record<string, unknown> | undefined {
  let messages: unknown[];
  try {
    messages = parseMcpBody(
      text.trimStart().startsWith('{') ? 'application/json' : 'text/event-stream',
      text,
    );
  } catch {
    return undefined;
  }
  for (const message of messages as JsonRpcMessage[]) if (message?.result) return message.result;
  return undefined;
}

/** The base64 form of the Mcp-Name header, which carries any string a plain header could not. */
export function mcpNameHeader(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** How a signed-in test client speaks to `/mcp`: in a 2025 session, 2025 stateless, or 2026-07-28. */
export type Era = '2025 session' | '2025 stateless' | '2026-07-28';
export const ERAS: readonly Era[] = ['2025 session', '2025 stateless', '2026-07-28'];

/** One client with one token, in one era; it opens its 2025 session on first use. */
export class EraClient {
  #sessionId: string | undefined;
  #id = 1;

  constructor(
    readonly era: Era,
    readonly mcpUrl: string,
    readonly token: string,
    /** The client capabilities a 2026-07-28 request declares (e.g. {@link TASKS_CAPABILITIES}). */
    readonly capabilities: Record<string, unknown> = {},
  ) {}

  /** Sends one request and returns the raw answer, whatever its status. */
  async send(method: string, params: Record<string, unknown>): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { ...MCP_HEADERS, authorization: `Bearer ${this.token}` };
    let body: Record<string, unknown> = { jsonrpc: '2.0', id: this.#id++, method, params };
    if (this.era === '2026-07-28') {
      headers['mcp-protocol-version'] = '2026-07-28';
      headers['mcp-method'] = method;
      const name = mcpNameOf(method, params);
      if (name !== undefined) headers['mcp-name'] = mcpNameHeader(name);
      body = { ...body, params: { ...params, _meta: modernMeta(this.capabilities) } };
    } else {
      headers['mcp-protocol-version'] = '2025-11-25';
      if (this.era === '2025 session') {
        this.#sessionId ??= await openRawSession(this.mcpUrl, '2025-11-25', {
          authorization: headers.authorization ?? '',
        });
        headers['mcp-session-id'] = this.#sessionId;
      }
    }
    const response = await fetch(this.mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  }
}

/** How long `ListenStream.waitFor` waits for what a stream should hear; events arrive in milliseconds. */
export const LISTEN_WAIT_MS = 5_000;

/** A 2026-07-28 `subscriptions/listen` stream, read as it arrives. */
export interface ListenStream {
  status: number;
  /** Everything the stream carried so far, as raw SSE text. */
  heard(): string;
  /** The JSON-RPC messages so far: the SSE stream's, or the one JSON answer of a refused request. */
  messages(): JsonRpcMessage[];
  /** Whether `needle` arrives within {@link LISTEN_WAIT_MS} (bounded, in 20 ms steps). */
  waitFor(needle: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens a `subscriptions/listen` stream asking for `notifications`; `headers` may carry a token. */
export async function openListenStream(
  mcpUrl: string,
  notifications: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<ListenStream> {
  const abort = new AbortController();
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      ...headers,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications, _meta: MODERN_META },
    }),
    signal: abort.signal,
  });
  let text = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body ?? []) text += decoder.decode(chunk, { stream: true });
  })().catch(() => undefined);
  return {
    status: response.status,
    heard: () => text,
    messages: () => parseMcpBody(response.headers.get('content-type'), text) as JsonRpcMessage[],
    async waitFor(needle) {
      for (let waited = 0; waited < LISTEN_WAIT_MS && !text.includes(needle); waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      return text.includes(needle);
    },
    async close() {
      abort.abort();
      await reading;
    },
  };
}
