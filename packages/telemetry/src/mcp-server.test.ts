import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { HistogramMetricData, SumMetricData } from '@opentelemetry/sdk-metrics';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTR, PROTOCOL_VERSION_META_KEY, sessionIdAttribute, TOOL_ERROR } from './attributes.js';
import { MAX_CONTENT_CHARS } from './content.js';
import type { McpTelemetry } from './mcp-client.js';
import { extractRequestContext, traceMcpServer } from './mcp-server.js';
import { FakeServer, FakeTransport, type Handler, type Message } from './test-support/fake-server.js';
import { installTestOtel, type TestOtel } from './test-support/otel.js';

const META_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const META_SPAN_ID = 'b7ad6b7169203331';
const META_TRACEPARENT = `00-${META_TRACE_ID}-${META_SPAN_ID}-01`;
const HEADER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER_SPAN_ID = '00f067aa0ba902b7';
const HEADER_TRACEPARENT = `00-${HEADER_TRACE_ID}-${HEADER_SPAN_ID}-01`;

const weather: Handler = () => ({ content: [{ type: 'text', text: 'Sunny, 21 °C' }] });

let otel: TestOtel;
let nextId = 1;

beforeAll(() => {
  otel = installTestOtel();
});
afterEach(() => otel.reset());
afterAll(() => otel.uninstall());

/** A traced fake server, connected to a fresh transport. */
async function connect(handlers: Record<string, Handler>, telemetry: McpTelemetry = otel.telemetry) {
  const server = traceMcpServer(new FakeServer(handlers), telemetry);
  const transport = new FakeTransport();
  await server.connect(transport);
  return { server, transport };
}

function request(method: string, params?: Record<string, unknown>): Message {
  return { jsonrpc: '2.0', id: nextId++, method, ...(params && { params }) };
}

function toolCall(name: string, more: Record<string, unknown> = {}): Message {
  return request('tools/call', { name, arguments: { city: 'Oslo' }, ...more });
}

/** The headers an HTTP transport hands over, as the SDK's fetch-based transports do. */
function http(headers: Record<string, string>) {
  return { request: { headers: new Headers(headers) } };
}

async function dataPoints(name: string) {
  const metric = (await otel.metric(name)) as HistogramMetricData | SumMetricData | undefined;
  return metric?.dataPoints ?? [];
}

describe('traceMcpServer', () => {
  it('opens a SERVER span per request, named after the tool, and ends it with the response', async () => {
    const { transport } = await connect({ 'tools/call': weather });
    const message = toolCall('get_weather');
    const response = await transport.request(message);

    expect(response).toEqual({ jsonrpc: '2.0', id: message.id, result: weather(message as never) });
    const span = otel.span('tools/call get_weather');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.ended).toBe(true);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'get_weather',
      [ATTR.operationName]: 'execute_tool',
      [ATTR.requestId]: String(message.id),
    });
    expect(span.attributes).not.toHaveProperty(ATTR.errorType);
  });

  it('names prompt, resource and list spans, keeping the URI on an attribute', async () => {
    const { transport } = await connect({
      'prompts/get': () => ({ messages: [] }),
      'resources/read': () => ({ contents: [] }),
      'tools/list': () => ({ tools: [] }),
    });
    await transport.request(request('prompts/get', { name: 'x' }));
    await transport.request(request('resources/read', { uri: 'weather://oslo/today' }));
    await transport.request(request('tools/list'));

    expect(otel.spans().map((span) => span.name)).toEqual(['prompts/get x', 'resources/read', 'tools/list']);
    expect(otel.span('resources/read').attributes[ATTR.resourceUri]).toBe('weather://oslo/today');
  });

  describe('parent context', () => {
    it('continues the trace named in _meta.traceparent', async () => {
      const { transport } = await connect({ 'tools/call': weather });
      await transport.request(toolCall('get_weather', { _meta: { traceparent: META_TRACEPARENT } }));

      const span = otel.span('tools/call get_weather');
      expect(span.spanContext().traceId).toBe(META_TRACE_ID);
      expect(span.parentSpanContext).toMatchObject({
        traceId: META_TRACE_ID,
        spanId: META_SPAN_ID,
        isRemote: true,
      });
    });

    it('falls back to the traceparent header when _meta names no parent', async () => {
      const { transport } = await connect({ 'tools/call': weather });
      await transport.request(toolCall('get_weather'), http({ traceparent: HEADER_TRACEPARENT }));
      await transport.request(
        toolCall('get_weather', { _meta: { progressToken: 1 } }),
        http({ traceparent: HEADER_TRACEPARENT }),
      );

      for (const span of otel.spans()) {
        expect(span.parentSpanContext).toMatchObject({ traceId: HEADER_TRACE_ID, spanId: HEADER_SPAN_ID });
      }
      expect(otel.spans()).toHaveLength(2);
    });

    it('falls back to the traceparent header when the one in _meta is malformed', async () => {
      const { transport } = await connect({ 'tools/call': weather });
      for (const traceparent of ['00-not-a-trace-01', 42, { value: META_TRACEPARENT }]) {
        await transport.request(toolCall('get_weather', { _meta: { traceparent } }), {
          requestInfo: { headers: { traceparent: HEADER_TRACEPARENT } },
        });
      }
      expect(otel.spans()).toHaveLength(3);
      for (const span of otel.spans()) expect(span.parentSpanContext?.spanId).toBe(HEADER_SPAN_ID);
    });

    it('prefers _meta over the header when both name a parent', async () => {
      const { transport } = await connect({ 'tools/call': weather });
      await transport.request(
        toolCall('get_weather', { _meta: { traceparent: META_TRACEPARENT } }),
        http({ traceparent: HEADER_TRACEPARENT }),
      );
      expect(otel.span('tools/call get_weather').parentSpanContext?.spanId).toBe(META_SPAN_ID);
    });

    it('starts a new trace when nothing names a parent', async () => {
      const { transport } = await connect({ 'tools/call': weather });
      await transport.request(toolCall('get_weather'));
      await transport.request(toolCall('get_weather'), http({}));

      const [first, second] = otel.spans();
      expect(first?.parentSpanContext).toBeUndefined();
      expect(second?.parentSpanContext).toBeUndefined();
      expect(first?.spanContext().traceId).not.toBe(second?.spanContext().traceId);
    });

    it('answers, without throwing, whatever a traceparent holds', async () => {
      const { transport } = await connect({ 'tools/call': weather });
      const values: unknown[] = [
        '',
        '00-zz',
        `${META_TRACEPARENT}-x`,
        'x'.repeat(100_000),
        [META_TRACEPARENT],
        null,
      ];
      for (const traceparent of values) {
        const response = await transport.request(
          toolCall('get_weather', { _meta: { traceparent, tracestate: { a: 1 }, baggage: 7 } }),
          http({ traceparent: typeof traceparent === 'string' ? traceparent.slice(0, 1000) : 'nope' }),
        );
        expect(response.result).toBeDefined();
      }
      expect(otel.spans()).toHaveLength(values.length);
      for (const span of otel.spans()) expect(span.parentSpanContext).toBeUndefined();
    });

    it('caps a 100 KB baggage to the W3C limits before the handler sees it', async () => {
      let entries = -1;
      const { transport } = await connect({
        'tools/call': () => {
          entries = propagation.getBaggage(context.active())?.getAllEntries().length ?? 0;
          return weather({ method: 'tools/call' });
        },
      });
      const baggage = Array.from({ length: 10_000 }, (_, i) => `key${i}=value${i}`).join(',');
      expect(baggage.length).toBeGreaterThan(100_000);
      await transport.request(toolCall('get_weather', { _meta: { traceparent: META_TRACEPARENT, baggage } }));

      expect(entries).toBeGreaterThan(0);
      expect(entries).toBeLessThanOrEqual(64);
    });

    it('exposes the same choice through extractRequestContext', () => {
      const headers = new Headers({ traceparent: HEADER_TRACEPARENT });
      const spanId = (meta: Record<string, unknown> | undefined) =>
        trace.getSpanContext(extractRequestContext(meta, headers))?.spanId;
      expect(spanId({ traceparent: META_TRACEPARENT })).toBe(META_SPAN_ID);
      expect(spanId({ traceparent: 'garbage' })).toBe(HEADER_SPAN_ID);
      expect(spanId(undefined)).toBe(HEADER_SPAN_ID);
      expect(trace.getSpanContext(extractRequestContext(undefined, undefined))).toBeUndefined();
    });
  });

  it('runs the handler with the server span active, also after an await', async () => {
    const seen: (Span | undefined)[] = [];
    const { transport } = await connect({
      'tools/call': async () => {
        seen.push(trace.getActiveSpan());
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(trace.getActiveSpan());
        return weather({ method: 'tools/call' });
      },
    });
    await transport.request(toolCall('get_weather'));

    const { spanId } = otel.span('tools/call get_weather').spanContext();
    expect(seen.map((span) => span?.spanContext().spanId)).toEqual([spanId, spanId]);
  });

  it('marks an isError result as a tool error and counts it per tool', async () => {
    const { transport } = await connect({
      'tools/call': () => ({ content: [{ type: 'text', text: 'Unknown city "Osloo"' }], isError: true }),
    });
    const counted = async () =>
      (await dataPoints('mcp.server.tool.errors')).find(
        (point) => point.attributes[ATTR.toolName] === 'failing_tool_under_test',
      )?.value;

    expect(await counted()).toBeUndefined();
    await transport.request(toolCall('failing_tool_under_test'));
    await transport.request(toolCall('failing_tool_under_test'));

    const [span] = otel.spans();
    expect(span?.attributes[ATTR.errorType]).toBe(TOOL_ERROR);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(await counted()).toBe(2);
  });

  it('records a JSON-RPC error: an internal one fails the span, invalid params only say so', async () => {
    const { transport } = await connect({
      'tools/call': (request) => {
        const code = request.params?.name === 'broken' ? -32603 : -32602;
        throw Object.assign(new Error(code === -32603 ? 'Internal error' : 'Invalid params'), { code });
      },
    });
    const failed = await transport.request(toolCall('broken'));
    await transport.request(toolCall('picky'));

    expect(failed.error).toEqual({ code: -32603, message: 'Internal error' });
    const broken = otel.span('tools/call broken');
    expect(broken.attributes).toMatchObject({ [ATTR.errorType]: '-32603', [ATTR.statusCode]: '-32603' });
    expect(broken.status).toEqual({ code: SpanStatusCode.ERROR, message: 'JSON-RPC error -32603' });
    const picky = otel.span('tools/call picky');
    expect(picky.attributes).toMatchObject({ [ATTR.errorType]: '-32602', [ATTR.statusCode]: '-32602' });
    expect(picky.status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it("puts a fixed phrase on the span, never the error's own message", async () => {
    const secret = 'password=hunter2';
    const { transport } = await connect({
      'tools/call': () => {
        throw Object.assign(new Error(`Database said: ${secret}`), { code: -32603 });
      },
    });
    const failed = await transport.request(toolCall('leaky'));

    expect((failed.error as { message: string }).message).toContain(secret);
    const span = otel.span('tools/call leaky');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'JSON-RPC error -32603' });
    expect(JSON.stringify(span.attributes)).not.toContain(secret);
  });

  it('names a 1 MB method _OTHER and cuts a 1 MB id to 128 characters', async () => {
    const { transport } = await connect({});
    const method = 'm'.repeat(1024 * 1024);
    const id = 'i'.repeat(1024 * 1024);
    const response = await transport.request({ jsonrpc: '2.0', id, method });

    expect(response.error).toMatchObject({ code: -32601 });
    expect(response.id).toBe(id);
    const span = otel.span('_OTHER');
    expect(span.attributes[ATTR.methodName]).toBe('_OTHER');
    expect(span.attributes[ATTR.requestId]).toBe('i'.repeat(128));
    expect(span.attributes).toMatchObject({ [ATTR.errorType]: '-32601', [ATTR.statusCode]: '-32601' });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    for (const value of Object.values(span.attributes)) expect(String(value).length).toBeLessThanOrEqual(128);
  });

  it('calls a tool name with spaces, or a very long one, _OTHER in the span name and the attribute', async () => {
    const { transport } = await connect({ 'tools/call': weather });
    await transport.request(toolCall('get the weather'));
    await transport.request(toolCall('t'.repeat(1024 * 1024)));
    await transport.request(toolCall('t'.repeat(129)));

    expect(otel.spans().map((span) => span.name)).toEqual([
      'tools/call _OTHER',
      'tools/call _OTHER',
      'tools/call _OTHER',
    ]);
    for (const span of otel.spans()) {
      expect(span.attributes).toMatchObject({ [ATTR.methodName]: 'tools/call', [ATTR.toolName]: '_OTHER' });
    }
  });

  it('records no tool name on the duration of a call to an unknown tool, refused with -32602', async () => {
    const unknown = 'no_such_tool_under_test';
    const { transport } = await connect({
      'tools/call': () => {
        throw Object.assign(new Error(`Tool ${unknown} not found`), { code: -32602 });
      },
    });
    const refusals = async () =>
      (await dataPoints('mcp.server.operation.duration'))
        .filter(
          (point) =>
            point.attributes[ATTR.methodName] === 'tools/call' &&
            point.attributes[ATTR.statusCode] === '-32602',
        )
        .reduce((sum, point) => sum + (point.value as { count: number }).count, 0);
    const before = await refusals();
    await transport.request(toolCall(unknown));

    expect(await refusals()).toBe(before + 1);
    const points = await dataPoints('mcp.server.operation.duration');
    for (const point of points) {
      expect(point.attributes[ATTR.toolName]).not.toBe(unknown);
      // A tool that ran and failed inside (-32603) keeps its name; a refusal for the caller's sake does not.
      if (point.attributes[ATTR.statusCode] === '-32602') {
        expect(point.attributes).not.toHaveProperty(ATTR.toolName);
        expect(point.attributes).not.toHaveProperty(ATTR.operationName);
      }
    }
    // The span keeps the name: it is one request, not a metric series.
    expect(otel.span(`tools/call ${unknown}`).attributes[ATTR.toolName]).toBe(unknown);
  });

  it('ends the span of a request the client cancelled', async () => {
    const { transport } = await connect({ 'tools/call': () => new Promise(() => {}) });
    const message = toolCall('slow_tool');
    transport.deliver(message);
    expect(otel.spans()).toHaveLength(0);

    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: message.id, reason: 'user' },
    });
    const span = otel.span('tools/call slow_tool');
    expect(span.attributes[ATTR.errorType]).toBe('cancelled');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('ends the older span when a client reuses an id that is still in flight', async () => {
    const { transport } = await connect({ 'tools/call': () => new Promise(() => {}) });
    const first = toolCall('slow_tool');
    transport.deliver(first);
    transport.deliver({ ...toolCall('other_tool'), id: first.id });

    const span = otel.span('tools/call slow_tool');
    expect(span.attributes[ATTR.errorType]).toBe('duplicate_request_id');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(otel.spans()).toHaveLength(1);
  });

  it('ends pending spans when the transport closes, and still tells the server', async () => {
    const { server, transport } = await connect({ 'tools/call': () => new Promise(() => {}) });
    transport.deliver(toolCall('slow_tool'));
    transport.deliver(toolCall('other_tool'));
    transport.close();

    expect(server.closed).toBe(true);
    expect(otel.spans().map((span) => span.attributes[ATTR.errorType])).toEqual([
      'connection_closed',
      'connection_closed',
    ]);
  });

  it('remembers the protocol version initialize answered, for later spans on that transport only', async () => {
    const handlers = {
      initialize: () => ({
        protocolVersion: '2025-11-25',
        capabilities: {},
        serverInfo: { name: 's', version: '1' },
      }),
      'tools/list': () => ({ tools: [] }),
    };
    const first = await connect(handlers);
    await first.transport.request(request('initialize', { protocolVersion: '2025-11-25' }));
    await first.transport.request(request('tools/list'));
    const second = await connect(handlers);
    await second.transport.request(request('tools/list'));

    const [initialize, listed, other] = otel.spans();
    expect(initialize?.attributes[ATTR.protocolVersion]).toBe('2025-11-25');
    expect(listed?.attributes[ATTR.protocolVersion]).toBe('2025-11-25');
    expect(other?.attributes).not.toHaveProperty(ATTR.protocolVersion);
  });

  it('takes a protocolVersion only from the answer to initialize', async () => {
    const { transport } = await connect({ 'tools/call': () => ({ content: [], protocolVersion: 'bogus' }) });
    await transport.request(toolCall('about'));
    await transport.request(toolCall('about'));

    for (const span of otel.spans()) expect(span.attributes).not.toHaveProperty(ATTR.protocolVersion);
  });

  it('reads the protocol version a request names in its header or _meta', async () => {
    const { transport } = await connect({ 'tools/list': () => ({ tools: [] }) });
    await transport.request(request('tools/list'), http({ 'mcp-protocol-version': '2025-06-18' }));
    await transport.request(request('tools/list', { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } }));

    expect(otel.spans().map((span) => span.attributes[ATTR.protocolVersion])).toEqual([
      '2025-06-18',
      '2026-07-28',
    ]);
  });

  it("records the transport's session id, also one assigned while answering", async () => {
    const { transport } = await connect({
      initialize: () => {
        transport.sessionId = 'session-42';
        return { protocolVersion: '2025-11-25' };
      },
      'tools/list': () => ({ tools: [] }),
    });
    await transport.request(request('initialize'));
    await transport.request(request('tools/list'));

    expect(otel.spans()).toHaveLength(2);
    for (const span of otel.spans()) {
      expect(span.attributes[ATTR.sessionId]).toBe(sessionIdAttribute('session-42'));
      for (const value of Object.values(span.attributes)) expect(String(value)).not.toContain('session-42');
    }
  });

  it('calls stdio a pipe and HTTP HTTP over TCP', async () => {
    const { transport } = await connect({ 'tools/list': () => ({ tools: [] }) });
    await transport.request(request('tools/list'));
    await transport.request(request('tools/list'), http({}));
    await transport.request(request('tools/list'), { requestInfo: { headers: {} } });

    const [stdio, fetchHttp, nodeHttp] = otel.spans();
    expect(stdio?.attributes[ATTR.networkTransport]).toBe('pipe');
    expect(stdio?.attributes).not.toHaveProperty(ATTR.networkProtocol);
    for (const span of [fetchHttp, nodeHttp]) {
      expect(span?.attributes).toMatchObject({
        [ATTR.networkTransport]: 'tcp',
        [ATTR.networkProtocol]: 'http',
      });
    }
  });

  it('records the operation duration without request or session ids', async () => {
    const { transport } = await connect({ 'tools/call': weather });
    transport.sessionId = 'session-7';
    await transport.request(toolCall('duration_tool_under_test'));

    const points = (await dataPoints('mcp.server.operation.duration')).filter(
      (point) => point.attributes[ATTR.toolName] === 'duration_tool_under_test',
    );
    expect(points).toHaveLength(1);
    const [point] = points;
    expect(point?.attributes[ATTR.methodName]).toBe('tools/call');
    expect(point?.attributes).not.toHaveProperty(ATTR.requestId);
    expect(point?.attributes).not.toHaveProperty(ATTR.sessionId);
    expect(point?.value).toMatchObject({ count: 1 });
  });

  it('records no tool arguments or results unless asked to', async () => {
    const { transport } = await connect({ 'tools/call': weather });
    await transport.request(toolCall('get_weather'));

    const { attributes } = otel.span('tools/call get_weather');
    expect(attributes).not.toHaveProperty(ATTR.toolArguments);
    expect(attributes).not.toHaveProperty(ATTR.toolResult);
  });

  it('records tool arguments and results, capped, when asked to', async () => {
    const long = 'x'.repeat(10_000);
    const { transport } = await connect(
      { 'tools/call': () => ({ content: [{ type: 'text', text: long }] }) },
      { ...otel.telemetry, recordContent: true },
    );
    await transport.request(toolCall('get_weather'));
    await transport.request(request('tools/call', { name: 'get_weather', arguments: { text: long } }));

    const [small, large] = otel.spans();
    expect(small?.attributes[ATTR.toolArguments]).toBe('{"city":"Oslo"}');
    for (const value of [small?.attributes[ATTR.toolResult], large?.attributes[ATTR.toolArguments]]) {
      expect(value).toMatch(/… \[\d+ characters, cut\]$/);
      expect(String(value).indexOf('…')).toBe(MAX_CONTENT_CHARS);
    }
  });

  it('lets notifications, its own requests, their answers and odd messages through untouched', async () => {
    const { server, transport } = await connect({});
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    };
    const outgoing = { jsonrpc: '2.0', id: 'server-1', method: 'sampling/createMessage', params: {} };
    const stray = { jsonrpc: '2.0', id: 999, result: {} };
    await server.transport?.send(notification);
    await server.transport?.send(outgoing);
    await server.transport?.send(stray);
    expect(transport.sent).toHaveLength(3);
    expect(transport.sent[0]).toBe(notification);
    expect(transport.sent[1]).toBe(outgoing);
    expect(transport.sent[2]).toBe(stray);

    const answer = { jsonrpc: '2.0', id: 'server-1', result: { content: { type: 'text', text: 'ok' } } };
    transport.deliver(answer);
    transport.deliver('not JSON-RPC' as never);
    transport.deliver(null as never);
    expect(server.received).toEqual([answer, 'not JSON-RPC', null]);
    expect(otel.spans()).toHaveLength(0);
  });

  it("leaves the rest of the transport as it was: the server sees the transport's own session id", async () => {
    const { server, transport } = await connect({});
    transport.sessionId = 'abc';
    expect(server.transport?.sessionId).toBe('abc');
    expect(server.transport).toBeInstanceOf(FakeTransport);
    expect(server.transport?.sent).toBe(transport.sent);
  });
});
