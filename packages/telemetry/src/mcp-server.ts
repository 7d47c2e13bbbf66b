/**
 * @module mcp-server
 * Server-side MCP spans for every request a server instance receives, over any transport (stdio,
 * a 2025 session, a 2026-07-28 request) and without touching a single handler:
 * `traceMcpServer(server)` wraps each transport the server connects to. An incoming request opens
 * a SERVER span whose parent is the context in its `params._meta` or, failing that, in the HTTP
 * `traceparent` header; the handler runs with that span active (so a tool's database and HTTP
 * spans become its children, and its log lines carry its ids); the response ends it.
 */
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import {
  ATTR,
  isJsonRpcRequest,
  metaOf,
  type Outcome,
  outcomeOf,
  requestAttributes,
  requestIdOf,
  sessionIdAttribute,
  spanNameOf,
  transportAttributes,
} from './attributes.js';
import { type HeaderSource, header, headerGetter, metaGetter } from './carriers.js';
import { cappedJson } from './content.js';
import { createMcpInstruments, type McpInstruments, metricAttributes } from './instruments.js';
import type { McpTelemetry } from './mcp-client.js';
import { transportView } from './transport-view.js';

type Message = Record<string, unknown>;
/** HTTP transports pass the request as `request` (the SDK's transports) or `requestInfo`; stdio passes none. */
type MessageExtra = { request?: { headers?: HeaderSource }; requestInfo?: { headers?: HeaderSource } };
type OnMessage = (message: Message, extra?: MessageExtra) => void;

interface TransportLike {
  onmessage?: OnMessage | undefined;
  onclose?: (() => void) | undefined;
  send(message: never, ...rest: never[]): Promise<void>;
  readonly sessionId?: string | undefined;
}

/** The part of the SDK's `Server` (or `McpServer`) this module wraps. */
export interface TraceableServer {
  connect(transport: never): Promise<void>;
}

interface Pending {
  span: Span;
  started: number;
  attributes: Attributes;
  toolCall: boolean;
}

const idKey = (id: unknown) => `${typeof id}:${String(id)}`;

function isResponse(message: Message): boolean {
  return (
    message.method === undefined && ('result' in message || 'error' in message) && message.id !== undefined
  );
}

/** The context a request names: `_meta` first, then the HTTP headers; a malformed value is ignored. */
export function extractRequestContext(
  meta: Record<string, unknown> | undefined,
  headers: HeaderSource | undefined,
): Context {
  const fromHeaders = headers ? propagation.extract(ROOT_CONTEXT, headers, headerGetter) : ROOT_CONTEXT;
  return meta ? propagation.extract(fromHeaders, meta, metaGetter) : fromHeaders;
}

function traceServerTransport<T extends TransportLike>(
  transport: T,
  telemetry: McpTelemetry,
  instruments: McpInstruments,
): T {
  const { tracer, recordContent } = telemetry;
  const pending = new Map<string, Pending>();
  // A 2025 session or stdio connection negotiates once; later requests don't repeat the version.
  let negotiated: string | undefined;

  const end = (key: string, outcome: Outcome, result?: unknown) => {
    const open = pending.get(key);
    if (!open) return;
    pending.delete(key);
    const { span } = open;
    const session = transport.sessionId;
    span.setAttributes({
      ...outcome.attributes,
      ...(session && { [ATTR.sessionId]: sessionIdAttribute(session) }),
      ...(negotiated && !open.attributes[ATTR.protocolVersion] && { [ATTR.protocolVersion]: negotiated }),
    });
    if (recordContent && open.toolCall && result !== undefined)
      span.setAttribute(ATTR.toolResult, cappedJson(result));
    if (outcome.errorMessage !== undefined)
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorMessage });
    span.end();
    const measured = metricAttributes({ ...open.attributes, ...outcome.attributes });
    instruments.duration.record((performance.now() - open.started) / 1000, measured);
    if (outcome.toolError) instruments.toolErrors.add(1, measured);
  };

  const open = (message: Message, extra: Parameters<OnMessage>[1]): Context => {
    const headers = (extra?.request ?? extra?.requestInfo)?.headers;
    const request = message as { method: string; params?: unknown };
    // Capped like every other attribute value taken from a request.
    const version = (headers && header(headers, 'mcp-protocol-version')?.slice(0, 64)) || negotiated;
    const attributes: Attributes = {
      ...transportAttributes(headers ? 'http' : 'stdio'),
      ...(version && { [ATTR.protocolVersion]: version }),
      ...requestAttributes(request),
      [ATTR.requestId]: requestIdOf(message.id),
      ...(transport.sessionId && { [ATTR.sessionId]: sessionIdAttribute(transport.sessionId) }),
    };
    const parent = extractRequestContext(metaOf(request), headers);
    const span = tracer.startSpan(spanNameOf(request), { kind: SpanKind.SERVER, attributes }, parent);
    const toolCall = request.method === 'tools/call';
    if (recordContent && toolCall) {
      span.setAttribute(
        ATTR.toolArguments,
        cappedJson((request.params as { arguments?: unknown })?.arguments ?? {}),
      );
    }
    const key = idKey(message.id);
    // A client that reuses an id still in flight breaks JSON-RPC; the older span must not stay open forever.
    end(key, {
      attributes: { [ATTR.errorType]: 'duplicate_request_id' },
      errorMessage: 'superseded by a request with the same id',
      toolError: false,
    });
    pending.set(key, { span, started: performance.now(), attributes, toolCall });
    return trace.setSpan(parent, span);
  };

  const wrapOnMessage =
    (handler: OnMessage): OnMessage =>
    (message, extra) => {
      if (typeof message !== 'object' || message === null) return handler(message, extra);
      if (isJsonRpcRequest(message)) {
        return context.with(open(message, extra), () => handler(message, extra));
      }
      if (message.method === 'notifications/cancelled') {
        // A cancelled request gets no response at all, so its span ends here.
        const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
        end(idKey(requestId), {
          attributes: { [ATTR.errorType]: 'cancelled' },
          errorMessage: 'cancelled by the client',
          toolError: false,
        });
      }
      return handler(message, extra);
    };

  const send = (message: Message, ...rest: unknown[]) => {
    if (typeof message === 'object' && message !== null && isResponse(message)) {
      const key = idKey(message.id);
      const result = (message as { result?: { protocolVersion?: unknown } }).result;
      // Only initialize negotiates; another method's result may have a field of that name too.
      const answersInitialize = pending.get(key)?.attributes[ATTR.methodName] === 'initialize';
      if (answersInitialize && typeof result?.protocolVersion === 'string')
        negotiated = result.protocolVersion;
      end(key, outcomeOf(message as Parameters<typeof outcomeOf>[0], 'server'), result);
    }
    return (transport.send as (message: unknown, ...rest: unknown[]) => Promise<void>).call(
      transport,
      message,
      ...rest,
    );
  };

  const closeAll = () => {
    for (const key of [...pending.keys()]) {
      end(key, {
        attributes: { [ATTR.errorType]: 'connection_closed' },
        errorMessage: 'closed before a response',
        toolError: false,
      });
    }
  };

  return transportView(transport, {
    send: send as (message: unknown, ...rest: unknown[]) => Promise<void>,
    wrapCallback: (property, callback) =>
      property === 'onmessage'
        ? wrapOnMessage(callback as OnMessage)
        : () => {
            closeAll();
            (callback as () => void)();
          },
  });
}

/**
 * Makes every transport `server` connects to a traced one. For the SDK's `McpServer`, pass its
 * low-level `server`: `McpServer.connect`, stdio and the per-request handlers all connect through it.
 */
export function traceMcpServer<S extends TraceableServer>(server: S, telemetry: McpTelemetry): S {
  const instruments = createMcpInstruments(telemetry.meter, 'server');
  const connect = server.connect.bind(server) as (transport: unknown) => Promise<void>;
  (server as { connect: unknown }).connect = (transport: TransportLike) =>
    connect(traceServerTransport(transport, telemetry, instruments));
  return server;
}
