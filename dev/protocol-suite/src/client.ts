/**
 * @module protocol-suite/client
 * A raw-HTTP MCP client per revision, for the protocol suite: legacy revisions open a session with
 * `initialize`; 2026-07-28 wraps every request in the `_meta` envelope and the `Mcp-*` headers.
 * It builds correct messages by default and lets each case break exactly one thing.
 */
import { isModern, type Revision, sendsVersionHeader } from './revisions.js';
import { type JsonRpcMessage, LiveStream, REQUEST_TIMEOUT_MS, readBody, type SseEvent } from './sse.js';

export type JsonRpcId = string | number | null;

/** Header changes for one request: a string sets a header, null removes a default one. */
export type HeaderOverrides = Record<string, string | null>;

export interface SendOptions {
  headers?: HeaderOverrides;
  /** POST unless given. */
  httpMethod?: string;
  timeoutMs?: number;
  /** Modern only: the `Mcp-Method` header for a raw body (requests built here set it themselves). */
  mcpMethod?: string;
}

export interface RequestOptions extends SendOptions {
  /** The JSON-RPC id; a fresh integer unless given. */
  id?: JsonRpcId;
  /** Merged into `params._meta` after the envelope, e.g. `{ progressToken: 'p1' }`. */
  meta?: Record<string, unknown>;
  /** Modern only: replaces envelope keys; a key set to undefined is left out. */
  envelope?: Record<string, unknown>;
}

/** What came back for one HTTP request. */
export interface Reply {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** SSE events, when the body was SSE (priming events included). */
  events: SseEvent[];
  /** Every JSON-RPC message in the body, JSON or SSE. */
  messages: JsonRpcMessage[];
  /** The message that answers the request's id, if any. */
  response: JsonRpcMessage | undefined;
  /** The answer's error, or the id-less error of an HTTP-level refusal. */
  error: JsonRpcMessage['error'];
  /** False if the server had not ended the body within the time limit. */
  complete: boolean;
}

/** An SSE (or JSON) answer being read while the request is in flight. */
export interface OpenStream {
  id: JsonRpcId;
  status: number;
  headers: Headers;
  live: LiveStream;
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

export const ENVELOPE_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

const CLIENT_INFO = { name: 'protocol-suite', version: '0.0.0' };

/** Methods whose target name must also travel in `Mcp-Name` (2026-07-28). */
const NAMED_METHODS: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** `Mcp-Name` value: plain if it is safe visible ASCII, else the `=?base64?…?=` form. */
export function mcpNameHeader(value: string): string {
  return /^[\x21-\x7e]*$/.test(value) ? value : `=?base64?${Buffer.from(value).toString('base64')}?=`;
}

export class ProtocolClient {
  /** What `initialize` (legacy) or `server/discover` (modern) answered. */
  serverResult: Record<string, unknown> = {};
  sessionId: string | undefined;
  #nextId = 1000;

  private constructor(
    readonly rev: Revision,
    readonly mcpUrl: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  /** A ready client: a legacy session after `initialize` + `notifications/initialized`, or a modern one after discover. */
  static async connect(
    mcpUrl: string,
    rev: Revision,
    capabilities: Record<string, unknown> = {},
  ): Promise<ProtocolClient> {
    const client = new ProtocolClient(rev, mcpUrl, capabilities);
    if (isModern(rev)) {
      const reply = await client.request('server/discover');
      if (!reply.response?.result) {
        throw new Error(`server/discover failed: HTTP ${reply.status} ${reply.text}`);
      }
      client.serverResult = reply.response.result;
      return client;
    }
    const reply = await initialize(mcpUrl, rev, capabilities);
    const sessionId = reply.headers.get('mcp-session-id');
    if (!reply.response?.result || !sessionId) {
      throw new Error(`initialize ${rev} failed: HTTP ${reply.status} ${reply.text}`);
    }
    client.serverResult = reply.response.result;
    client.sessionId = sessionId;
    const initialized = await client.notify('notifications/initialized');
    if (initialized.status !== 202) {
      throw new Error(`notifications/initialized got HTTP ${initialized.status}`);
    }
    return client;
  }

  /** The capabilities the server declared to this client. */
  get serverCapabilities(): Record<string, Record<string, unknown> | undefined> {
    return (this.serverResult.capabilities ?? {}) as Record<string, Record<string, unknown> | undefined>;
  }

  /** A fresh request id, never reused on this client (J2). */
  freshId(): number {
    this.#nextId += 1;
    return this.#nextId;
  }

  /** The `_meta` envelope of a modern request. */
  envelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const envelope: Record<string, unknown> = {
      [ENVELOPE_KEYS.protocolVersion]: this.rev,
      [ENVELOPE_KEYS.clientInfo]: CLIENT_INFO,
      [ENVELOPE_KEYS.clientCapabilities]: this.capabilities,
      ...overrides,
    };
    for (const [key, value] of Object.entries(envelope)) if (value === undefined) delete envelope[key];
    return envelope;
  }

  /** The headers a correct client sends for `method` (and its params) on this revision. */
  headersFor(method?: string, params?: Record<string, unknown>): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
    if (isModern(this.rev)) {
      headers['mcp-protocol-version'] = this.rev;
      if (method) headers['mcp-method'] = method;
      const key = method ? NAMED_METHODS[method] : undefined;
      const target = key ? params?.[key] : undefined;
      if (typeof target === 'string') headers['mcp-name'] = mcpNameHeader(target);
      return headers;
    }
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    if (sendsVersionHeader(this.rev)) headers['mcp-protocol-version'] = this.rev;
    return headers;
  }

  /** The JSON-RPC body of a request (with `id`) or notification (`id` undefined). */
  message(
    method: string,
    params: Record<string, unknown>,
    id: JsonRpcId | undefined,
    options: RequestOptions,
  ) {
    const meta = { ...(params._meta as Record<string, unknown> | undefined), ...options.meta };
    const fullMeta = isModern(this.rev) ? { ...this.envelope(options.envelope), ...meta } : meta;
    const fullParams = Object.keys(fullMeta).length > 0 ? { ...params, _meta: fullMeta } : params;
    const body: Record<string, unknown> = { jsonrpc: '2.0' };
    if (id !== undefined) body.id = id;
    body.method = method;
    if (Object.keys(fullParams).length > 0 || isModern(this.rev)) body.params = fullParams;
    return body;
  }

  /** Sends a request and reads the whole answer. */
  async request(
    method: string,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<Reply> {
    const id = options.id === undefined ? this.freshId() : options.id;
    const body = this.message(method, params, id, options);
    return this.send(
      body,
      { ...options, mcpMethod: method, headers: this.#merge(method, params, options) },
      id,
    );
  }

  /** Sends a notification; a conforming server answers 202 with no body. */
  async notify(
    method: string,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<Reply> {
    const body = this.message(method, params, undefined, options);
    return this.send(body, { ...options, mcpMethod: method, headers: this.#merge(method, params, options) });
  }

  /** Starts a request and returns its answer as a live stream, for progress, logs and elicitation. */
  async stream(
    method: string,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<OpenStream> {
    const id = options.id === undefined ? this.freshId() : options.id;
    const body = this.message(method, params, id, options);
    const response = await fetch(this.mcpUrl, {
      method: 'POST',
      headers: finalHeaders(this.#merge(method, params, options)),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    return { id, status: response.status, headers: response.headers, live: new LiveStream(response) };
  }

  /**
   * Sends any body (an object, or a string sent as is) with this revision's default headers, then
   * the overrides. For malformed-input cases.
   */
  async send(body: unknown, options: SendOptions = {}, id?: JsonRpcId): Promise<Reply> {
    const method = options.httpMethod ?? 'POST';
    const headers = finalHeaders({ ...this.headersFor(options.mcpMethod), ...options.headers });
    const response = await fetch(this.mcpUrl, {
      method,
      headers,
      body:
        method === 'GET' || method === 'DELETE'
          ? undefined
          : typeof body === 'string'
            ? body
            : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    return toReply(response, id, options.timeoutMs);
  }

  /** Opens the GET stream (legacy) or tries to (modern: expect 405). */
  async openGet(headers: HeaderOverrides = {}): Promise<OpenStream> {
    const base = this.headersFor();
    delete base['content-type'];
    const response = await fetch(this.mcpUrl, {
      method: 'GET',
      headers: finalHeaders({ ...base, accept: 'text/event-stream', ...headers }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { id: null, status: response.status, headers: response.headers, live: new LiveStream(response) };
  }

  /** The normal request that proves the server is still serving: ping (legacy) or server/discover (modern). */
  async probe(): Promise<Reply> {
    return isModern(this.rev) ? this.request('server/discover') : this.request('ping');
  }

  /** Ends a legacy session with DELETE; modern clients have nothing to end. */
  async close(): Promise<void> {
    if (!this.sessionId) return;
    await fetch(this.mcpUrl, {
      method: 'DELETE',
      headers: finalHeaders(this.headersFor()),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
    this.sessionId = undefined;
  }

  #merge(method: string, params: Record<string, unknown>, options: RequestOptions): HeaderOverrides {
    return { ...this.headersFor(method, params), ...options.headers };
  }
}

/** POSTs `initialize` for `protocolVersion` the way a legacy client does (no session, no version header). */
export async function initialize(
  mcpUrl: string,
  protocolVersion: string,
  capabilities: Record<string, unknown> = {},
  id: JsonRpcId = 'init-1',
  headers: HeaderOverrides = {},
): Promise<Reply> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: finalHeaders({ 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo: CLIENT_INFO },
    }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return toReply(response, id);
}

function finalHeaders(headers: HeaderOverrides): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== null) out[key] = value;
  return out;
}

async function toReply(response: Response, id: JsonRpcId | undefined, timeoutMs?: number): Promise<Reply> {
  const body = await readBody(response, timeoutMs ?? REQUEST_TIMEOUT_MS);
  const contentType = response.headers.get('content-type') ?? '';
  const messages = parseMessages(body.text, body.events, contentType);
  const answer =
    id === undefined ? undefined : messages.find((m) => m.id === id && ('result' in m || 'error' in m));
  return {
    status: response.status,
    headers: response.headers,
    contentType,
    text: body.text,
    events: body.events,
    messages,
    response: answer,
    error: answer?.error ?? messages.find((m) => m.error && (m.id === null || m.id === undefined))?.error,
    complete: body.complete,
  };
}

function parseMessages(text: string, events: SseEvent[], contentType: string): JsonRpcMessage[] {
  if (contentType.includes('text/event-stream')) {
    return events.filter((event) => event.data.trim() !== '').map((event) => JSON.parse(event.data));
  }
  if (!contentType.includes('json') || text.trim() === '') return [];
  const parsed = JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[];
  return Array.isArray(parsed) ? parsed : [parsed];
}
