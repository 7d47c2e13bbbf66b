/**
 * @module mcp-client
 * Client-side MCP spans, for any transport and both protocol eras:
 * - `traceMcpClient(client)` wraps the SDK client's `request()`, the funnel every call goes through
 *   (`initialize`, `tools/list`, `tools/call`…), in a CLIENT span named `{method} {target}`, and
 *   records how it ended: the JSON-RPC code, `tool_error` for a result with `isError: true`,
 *   or the error's own code (a timeout) when no answer came.
 * - `traceClientTransport(transport)` puts the active context into each outgoing request's
 *   `params._meta` (`traceparent`, `tracestate`, `baggage`), which works over stdio too, where there
 *   is no HTTP header, and tells the span the JSON-RPC id the SDK picked.
 */
import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import {
  ATTR,
  isJsonRpcRequest,
  type JsonRpcRequestLike,
  type McpTransportKind,
  metaOf,
  type Outcome,
  outcomeOf,
  PROTOCOL_VERSION_META_KEY,
  requestAttributes,
  requestIdOf,
  safeName,
  sessionIdAttribute,
  spanNameOf,
  transportAttributes,
} from './attributes.js';
import { metaSetter } from './carriers.js';
import { cappedJson } from './content.js';
import { createMcpInstruments, metricAttributes } from './instruments.js';
import type { Telemetry } from './start.js';
import { transportView } from './transport-view.js';

export type McpTelemetry = Pick<Telemetry, 'tracer' | 'meter' | 'recordContent'>;

interface RequestLike {
  method: string;
  params?: unknown;
}

/** The parts of the SDK's `Client` this module touches. */
export interface TraceableClient {
  request(request: RequestLike, ...rest: never[]): Promise<unknown>;
  getNegotiatedProtocolVersion?(): string | undefined;
  readonly transport?: { sessionId?: string | undefined } | undefined;
}

export interface ClientTraceOptions {
  transport: McpTransportKind;
  /** The MCP server's host and port, for HTTP (`server.address`, `server.port`). */
  server?: { address: string; port: number };
}

/** Spans this module started: the transport only tags its own, never a caller's span. */
const mcpSpans = new WeakSet<Span>();

/** How a request that got no JSON-RPC answer ended: the SDK's code for it (a timeout), or its name. */
function failureOutcome(error: unknown): Outcome {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return outcomeOf({ error: { code } }, 'client');
  const type = safeName(
    typeof code === 'string' && code ? code.toLowerCase() : error instanceof Error ? error.name : '_OTHER',
  );
  // The type says what happened; the message may quote the server or the request, so it stays out.
  return { attributes: { [ATTR.errorType]: type }, errorMessage: type, toolError: false };
}

export function traceMcpClient<C extends TraceableClient>(
  client: C,
  telemetry: McpTelemetry,
  options: ClientTraceOptions,
): C {
  const { tracer, recordContent } = telemetry;
  const instruments = createMcpInstruments(telemetry.meter, 'client');
  const fixed: Attributes = {
    ...transportAttributes(options.transport),
    ...(options.server && {
      [ATTR.serverAddress]: options.server.address,
      [ATTR.serverPort]: options.server.port,
    }),
  };
  const original = client.request.bind(client) as (
    request: RequestLike,
    ...rest: unknown[]
  ) => Promise<unknown>;

  const traced = (request: RequestLike, ...rest: unknown[]): Promise<unknown> => {
    const version = client.getNegotiatedProtocolVersion?.();
    const session = client.transport?.sessionId;
    const attributes: Attributes = {
      ...fixed,
      ...requestAttributes(request),
      ...(version && { [ATTR.protocolVersion]: version }),
      ...(session && { [ATTR.sessionId]: sessionIdAttribute(session) }),
    };
    const span = tracer.startSpan(spanNameOf(request), { kind: SpanKind.CLIENT, attributes });
    mcpSpans.add(span);
    const toolCall = request.method === 'tools/call';
    if (recordContent && toolCall) {
      span.setAttribute(
        ATTR.toolArguments,
        cappedJson((request.params as { arguments?: unknown })?.arguments ?? {}),
      );
    }
    const started = performance.now();
    const end = (outcome: Outcome, result?: unknown) => {
      span.setAttributes(outcome.attributes);
      if (recordContent && toolCall && result !== undefined)
        span.setAttribute(ATTR.toolResult, cappedJson(result));
      if (outcome.errorMessage !== undefined)
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.errorMessage });
      span.end();
      const measured = metricAttributes({ ...attributes, ...outcome.attributes });
      instruments.duration.record((performance.now() - started) / 1000, measured);
      if (outcome.toolError) instruments.toolErrors.add(1, measured);
    };
    let answer: Promise<unknown>;
    try {
      answer = context.with(trace.setSpan(context.active(), span), () => original(request, ...rest));
    } catch (error) {
      // The SDK refuses some requests before sending anything (a method the negotiated revision
      // lacks) by throwing, not rejecting: the span ends anyway, and the caller still sees a throw.
      end(failureOutcome(error));
      throw error;
    }
    return answer.then(
      (result) => {
        end(outcomeOf({ result }, 'client'), result);
        return result;
      },
      (error: unknown) => {
        end(failureOutcome(error));
        throw error;
      },
    );
  };
  (client as { request: unknown }).request = traced;
  return client;
}

/** The request with the active trace context added to its `_meta`; the caller's object is left as it was. */
function withTraceMeta(message: JsonRpcRequestLike): JsonRpcRequestLike {
  const injected: Record<string, unknown> = {};
  propagation.inject(context.active(), injected, metaSetter);
  // No active span and no baggage: the request goes out as it came.
  if (Object.keys(injected).length === 0) return message;
  return { ...message, params: { ...message.params, _meta: { ...metaOf(message), ...injected } } };
}

/**
 * A view of `transport` whose `send` stamps each request with the active trace context. Every
 * other property (callbacks the SDK sets, `sessionId`, `finishAuth`…) is the transport's own.
 */
export function traceClientTransport<T extends { send(message: never, ...rest: never[]): Promise<void> }>(
  transport: T,
): T {
  const send = (message: unknown, ...rest: unknown[]) => {
    let outgoing = message;
    if (isJsonRpcRequest(message)) {
      const span = trace.getActiveSpan();
      if (span && mcpSpans.has(span)) {
        const version = metaOf(message)?.[PROTOCOL_VERSION_META_KEY];
        span.setAttribute(ATTR.requestId, requestIdOf(message.id));
        if (typeof version === 'string') span.setAttribute(ATTR.protocolVersion, version);
      }
      outgoing = withTraceMeta(message);
    }
    return (transport.send as (message: unknown, ...rest: unknown[]) => Promise<void>).call(
      transport,
      outgoing,
      ...rest,
    );
  };
  return transportView(transport, { send });
}
