/**
 * @module attributes
 * What an MCP span is called and which attributes it carries, the same for the client and the
 * server side, after OpenTelemetry's MCP semantic conventions: the name is
 * `{mcp.method.name} {target}` (the tool or prompt name; resource URIs stay out of names because
 * there are too many of them), and `error.type` is the JSON-RPC code, or `tool_error` for a tool
 * result with `isError: true`, which an HTTP 200 would otherwise hide.
 */
import { createHash } from 'node:crypto';
import type { Attributes } from '@opentelemetry/api';

export const ATTR = {
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

/** `error.type` of a tool call that ran and failed: the result says `isError: true`. */
export const TOOL_ERROR = 'tool_error';

/** Where the message went: HTTP runs over TCP, stdio over a pipe (the conventions' words). */
export type McpTransportKind = 'http' | 'stdio';

/** The `_meta` key (SEP-414 envelope) that names the protocol revision on every 2026-07-28 request. */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * Codes a server answers when the caller asked for something it can't have: a wrong request is the
 * caller's error, not the server's, so a server span stays OK for them.
 */
const CALLER_ERROR_CODES = new Set([-32700, -32600, -32601, -32602, -32002]);

/** Whether a JSON-RPC code says the caller asked for something it can't have (see above). */
export function blamesCaller(code: number): boolean {
  return CALLER_ERROR_CODES.has(code);
}

interface RequestLike {
  method: string;
  params?: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 256) : undefined;
}

/**
 * What a span name and a metric may say of a client-chosen name: the name itself when it looks
 * like an MCP method, tool or prompt name (the spec allows up to 128 characters of these), else
 * `_OTHER`. A hostile client must not write megabytes into span names or make up metric series.
 */
const NAME_LIKE = /^[\w./:-]{1,128}$/;
export function safeName(value: string): string {
  return NAME_LIKE.test(value) ? value : '_OTHER';
}

/** The request's method as spans and metrics record it. */
export function methodOf(request: RequestLike): string {
  return safeName(request.method);
}

/** A JSON-RPC id as an attribute: ids are the client's choice, so a long one is cut. */
export function requestIdOf(id: unknown): string {
  return String(id).slice(0, 128);
}

/**
 * `mcp.session.id`, hashed: it still ties a session's spans together, on both sides, but a trace
 * reader cannot take over the session with it (without sign-in, the id alone is enough).
 */
export function sessionIdAttribute(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
}

/** A JSON-RPC request as it travels: a method and an id (a notification has no id). */
export interface JsonRpcRequestLike {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}

export function isJsonRpcRequest(message: unknown): message is JsonRpcRequestLike {
  const candidate = message as Partial<JsonRpcRequestLike> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.method === 'string' &&
    (typeof candidate.id === 'string' || typeof candidate.id === 'number')
  );
}

/** `server.address` and `server.port` of a URL, the port filled in from the scheme; undefined if it is no URL. */
export function serverOf(url: string | URL): { address: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { address: parsed.hostname, port };
  } catch {
    return undefined;
  }
}

/** The tool or prompt a request is about, if any: the part of the span name after the method. */
export function targetOf(request: RequestLike): { tool?: string; prompt?: string; uri?: string } {
  const params = record(request.params);
  if (!params) return {};
  const name = typeof params.name === 'string' ? safeName(params.name) : undefined;
  if (request.method === 'tools/call') return name ? { tool: name } : {};
  if (request.method === 'prompts/get') return name ? { prompt: name } : {};
  const uri = text(params.uri);
  return uri ? { uri } : {};
}

/** `tools/call get_weather`, `prompts/get plan_trip`, or the bare method (`resources/read`, `tools/list`). */
export function spanNameOf(request: RequestLike): string {
  const { tool, prompt } = targetOf(request);
  const target = tool ?? prompt;
  return target ? `${methodOf(request)} ${target}` : methodOf(request);
}

/** The `_meta` object of a request, when it has one. */
export function metaOf(request: RequestLike): Record<string, unknown> | undefined {
  return record(record(request.params)?._meta);
}

/** The attributes a request alone tells: method, target, operation and the protocol revision it names. */
export function requestAttributes(request: RequestLike): Attributes {
  const { tool, prompt, uri } = targetOf(request);
  const version = text(metaOf(request)?.[PROTOCOL_VERSION_META_KEY]);
  return {
    [ATTR.methodName]: methodOf(request),
    ...(tool && { [ATTR.toolName]: tool, [ATTR.operationName]: 'execute_tool' }),
    ...(prompt && { [ATTR.promptName]: prompt }),
    ...(uri && { [ATTR.resourceUri]: uri }),
    ...(version && { [ATTR.protocolVersion]: version }),
  };
}

/** `network.*` for a transport: stdio is a pipe; Streamable HTTP is HTTP over TCP. */
export function transportAttributes(kind: McpTransportKind): Attributes {
  return kind === 'stdio'
    ? { [ATTR.networkTransport]: 'pipe' }
    : { [ATTR.networkTransport]: 'tcp', [ATTR.networkProtocol]: 'http' };
}

/** How an exchange ended, as span attributes: nothing when it succeeded. */
export interface Outcome {
  attributes: Attributes;
  /** Set when the span's status is ERROR: a fixed phrase, never text from the other side. */
  errorMessage?: string;
  /** True for a tool result with `isError: true`. */
  toolError: boolean;
}

/**
 * Reads a JSON-RPC response (result or error) the way the conventions ask: `error.type` is the
 * code. On the server side, a code that blames the caller (bad params, unknown method or
 * resource) leaves the span's status unset: the server did its job.
 */
export function outcomeOf(
  response: { result?: unknown; error?: { code?: unknown; message?: unknown } },
  side: 'client' | 'server',
): Outcome {
  if (response.error) {
    const code = typeof response.error.code === 'number' ? response.error.code : undefined;
    const codeText = code === undefined ? '_OTHER' : String(code);
    const blamesCaller = side === 'server' && code !== undefined && CALLER_ERROR_CODES.has(code);
    return {
      attributes: {
        ...(code !== undefined && { [ATTR.statusCode]: codeText }),
        [ATTR.errorType]: codeText,
      },
      // A fixed phrase, never the error's own message: that can quote what the caller sent.
      ...(!blamesCaller && { errorMessage: `JSON-RPC error ${codeText}` }),
      toolError: false,
    };
  }
  if (record(response.result)?.isError === true) {
    return {
      attributes: { [ATTR.errorType]: TOOL_ERROR },
      errorMessage: 'The tool returned isError: true',
      toolError: true,
    };
  }
  return { attributes: {}, toolError: false };
}
