import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { HistogramMetricData, SumMetricData } from '@opentelemetry/sdk-metrics';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTR, PROTOCOL_VERSION_META_KEY, sessionIdAttribute, TOOL_ERROR } from './attributes.js';
import { type ClientTraceOptions, traceClientTransport, traceMcpClient } from './mcp-client.js';
import { traceMcpServer } from './mcp-server.js';
import { FakeServer, FakeTransport, type Message } from './test-support/fake-server.js';
import { installTestOtel, type TestOtel } from './test-support/otel.js';

let otel: TestOtel;

beforeAll(() => {
  otel = installTestOtel();
});
afterEach(() => otel.reset());
afterAll(() => otel.uninstall());

/** Stands in for a client transport: private state behind a getter and a method, like the SDK's. */
class FakeClientTransport {
  onmessage?: ((message: unknown) => void) | undefined;
  readonly sent: unknown[] = [];
  readonly options: unknown[] = [];
  #sessionId: string | undefined;
  #authorizationCode: string | undefined;

  constructor(sessionId?: string) {
    this.#sessionId = sessionId;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  async send(message: unknown, options?: unknown): Promise<void> {
    this.sent.push(message);
    this.options.push(options);
  }

  async finishAuth(code: string): Promise<string> {
    this.#authorizationCode = code;
    return `authorized with ${this.#authorizationCode}`;
  }
}

type Request = { method: string; params?: Record<string, unknown> };

/** Stands in for the SDK's `Client`: `request()` sends one JSON-RPC request, then answers as told. */
class FakeClient {
  #nextId = 0;
  negotiated: string | undefined;

  constructor(
    readonly transport: { send(message: Message): Promise<void>; readonly sessionId?: string | undefined },
    private readonly answer: (request: Request) => unknown = () => ({ content: [] }),
  ) {}

  async request(request: Request): Promise<unknown> {
    await this.transport.send({ ...request, jsonrpc: '2.0', id: this.#nextId++ });
    return this.answer(request);
  }

  getNegotiatedProtocolVersion(): string | undefined {
    return this.negotiated;
  }
}

const HTTP: ClientTraceOptions = { transport: 'http', server: { address: 'mcp.example', port: 3001 } };

function tracedClient(answer?: (request: Request) => unknown, options: ClientTraceOptions = HTTP) {
  const transport = new FakeClientTransport('session-9');
  const client = traceMcpClient(
    new FakeClient(traceClientTransport(transport), answer),
    otel.telemetry,
    options,
  );
  return { client, transport };
}

/** A rejection of the kind the SDK raises: an `Error` with a `code`. */
function failure(message: string, code: unknown): Error {
  return Object.assign(new Error(message), { code });
}

async function dataPoints(name: string) {
  const metric = (await otel.metric(name)) as HistogramMetricData | SumMetricData | undefined;
  return metric?.dataPoints ?? [];
}

describe('traceMcpClient', () => {
  it('wraps each request in a CLIENT span named after its target, with server and network attributes', async () => {
    const { client } = tracedClient();
    client.negotiated = '2025-11-25';
    await client.request({
      method: 'tools/call',
      params: { name: 'get_weather', arguments: { city: 'Oslo' } },
    });

    const span = otel.span('tools/call get_weather');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'get_weather',
      [ATTR.serverAddress]: 'mcp.example',
      [ATTR.serverPort]: 3001,
      [ATTR.networkTransport]: 'tcp',
      [ATTR.networkProtocol]: 'http',
      [ATTR.protocolVersion]: '2025-11-25',
      [ATTR.sessionId]: sessionIdAttribute('session-9'),
    });
    expect(span.attributes[ATTR.sessionId]).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.values(span.attributes)).not.toContain('session-9');
    expect(span.attributes).not.toHaveProperty(ATTR.errorType);
  });

  it('calls a tool name with spaces, or a very long one, _OTHER in the span name and the attribute', async () => {
    const { client } = tracedClient();
    await client.request({ method: 'tools/call', params: { name: 'get the weather' } });
    await client.request({ method: 'tools/call', params: { name: 't'.repeat(100_000) } });

    expect(otel.spans().map((span) => span.name)).toEqual(['tools/call _OTHER', 'tools/call _OTHER']);
    for (const span of otel.spans()) expect(span.attributes[ATTR.toolName]).toBe('_OTHER');
  });

  it('names prompt, resource and list spans as the server side does', async () => {
    const { client } = tracedClient();
    await client.request({ method: 'prompts/get', params: { name: 'plan_trip' } });
    await client.request({ method: 'resources/read', params: { uri: 'weather://oslo' } });
    await client.request({ method: 'tools/list' });

    expect(otel.spans().map((span) => span.name)).toEqual([
      'prompts/get plan_trip',
      'resources/read',
      'tools/list',
    ]);
    expect(otel.span('resources/read').attributes[ATTR.resourceUri]).toBe('weather://oslo');
  });

  it('calls stdio a pipe and names no server address', async () => {
    const { client } = tracedClient(undefined, { transport: 'stdio' });
    await client.request({ method: 'tools/list' });

    const { attributes } = otel.span('tools/list');
    expect(attributes[ATTR.networkTransport]).toBe('pipe');
    expect(attributes).not.toHaveProperty(ATTR.serverAddress);
    expect(attributes).not.toHaveProperty(ATTR.serverPort);
  });

  it('makes the span a child of the span active when the request starts', async () => {
    const { client } = tracedClient();
    const tracer = otel.telemetry.tracer;
    await tracer.startActiveSpan('agent turn', async (turn) => {
      await client.request({ method: 'tools/list' });
      turn.end();
    });

    const turn = otel.span('agent turn');
    expect(otel.span('tools/list').parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
  });

  it('calls an isError result a tool error and counts it per tool', async () => {
    const { client } = tracedClient(() => ({ content: [], isError: true }));
    const result = await client.request({ method: 'tools/call', params: { name: 'client_failing_tool' } });

    expect(result).toEqual({ content: [], isError: true });
    const span = otel.span('tools/call client_failing_tool');
    expect(span.attributes[ATTR.errorType]).toBe(TOOL_ERROR);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const counted = (await dataPoints('mcp.client.tool.errors')).find(
      (point) => point.attributes[ATTR.toolName] === 'client_failing_tool',
    );
    expect(counted?.value).toBe(1);
  });

  it('names a rejection with a numeric code by that code, and passes the rejection on', async () => {
    const error = failure('Invalid params', -32602);
    const { client } = tracedClient(() => Promise.reject(error));

    await expect(client.request({ method: 'tools/call', params: { name: 'picky' } })).rejects.toBe(error);
    const span = otel.span('tools/call picky');
    expect(span.attributes).toMatchObject({ [ATTR.errorType]: '-32602', [ATTR.statusCode]: '-32602' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'JSON-RPC error -32602' });
  });

  it("never puts a rejection's message, which may quote the server or the request, on the span", async () => {
    const secret = 'token=hunter2';
    const reasons = [
      failure(`Invalid params: ${secret}`, -32602),
      failure(`timed out: ${secret}`, 'TIMEOUT'),
    ];
    let next = 0;
    const { client } = tracedClient(() => Promise.reject(reasons[next++]));
    for (const _ of reasons) await client.request({ method: 'ping' }).catch(() => undefined);

    expect(otel.spans().map((span) => span.status.message)).toEqual(['JSON-RPC error -32602', 'timeout']);
    for (const span of otel.spans()) expect(JSON.stringify(span.attributes)).not.toContain(secret);
  });

  it("lowercases a rejection's string code, such as the SDK's REQUEST_TIMEOUT", async () => {
    const { client } = tracedClient(() => Promise.reject(failure('Request timed out', 'REQUEST_TIMEOUT')));

    await expect(client.request({ method: 'tools/list' })).rejects.toThrow('Request timed out');
    const span = otel.span('tools/list');
    expect(span.attributes[ATTR.errorType]).toBe('request_timeout');
    expect(span.attributes).not.toHaveProperty(ATTR.statusCode);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'request_timeout' });
  });

  it('calls a string code or an error class that does not look like a name _OTHER', async () => {
    const odd = Object.assign(new Error('boom'), { name: 'Some Error Class' });
    const reasons: unknown[] = [failure('x', 'NOT A CODE'), failure('x', 'C'.repeat(200)), odd];
    let next = 0;
    const { client } = tracedClient(() => Promise.reject(reasons[next++]));
    for (const _ of reasons) await client.request({ method: 'ping' }).catch(() => undefined);

    for (const span of otel.spans()) {
      expect(span.attributes[ATTR.errorType]).toBe('_OTHER');
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: '_OTHER' });
    }
    expect(otel.spans()).toHaveLength(3);
  });

  it('names a rejection without a code by its class, or _OTHER', async () => {
    const reasons: unknown[] = [new TypeError('fetch failed'), 'gone', undefined];
    let next = 0;
    const { client } = tracedClient(() => Promise.reject(reasons[next++]));
    for (const _ of reasons) await client.request({ method: 'ping' }).catch(() => undefined);

    expect(otel.spans().map((span) => span.attributes[ATTR.errorType])).toEqual([
      'TypeError',
      '_OTHER',
      '_OTHER',
    ]);
    for (const span of otel.spans()) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: span.attributes[ATTR.errorType] });
    }
  });

  it('ends the span when request() throws before it returns a promise, and still throws', () => {
    const refused = failure("Method 'x' is not supported", 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION');
    const client = traceMcpClient(
      {
        request: (_request: Request): Promise<unknown> => {
          throw refused;
        },
      },
      otel.telemetry,
      { transport: 'stdio' },
    );

    expect(() => client.request({ method: 'tasks/list' })).toThrow(refused);
    expect(otel.span('tasks/list').attributes[ATTR.errorType]).toBe(
      'method_not_supported_by_protocol_version',
    );
  });

  it('records the operation duration without request or session ids', async () => {
    const { client } = tracedClient();
    await client.request({ method: 'tools/call', params: { name: 'client_timed_tool' } });

    const points = (await dataPoints('mcp.client.operation.duration')).filter(
      (point) => point.attributes[ATTR.toolName] === 'client_timed_tool',
    );
    expect(points).toHaveLength(1);
    expect(points[0]?.attributes).toMatchObject({
      [ATTR.methodName]: 'tools/call',
      [ATTR.serverAddress]: 'mcp.example',
    });
    expect(points[0]?.attributes).not.toHaveProperty(ATTR.sessionId);
    expect(points[0]?.attributes).not.toHaveProperty(ATTR.requestId);
  });

  it('records tool arguments and results only when asked to', async () => {
    const plain = tracedClient(() => ({ content: [{ type: 'text', text: 'Sunny' }] }));
    await plain.client.request({
      method: 'tools/call',
      params: { name: 'quiet', arguments: { city: 'Oslo' } },
    });
    const recording = traceMcpClient(
      new FakeClient(new FakeClientTransport(), () => ({ content: [{ type: 'text', text: 'Sunny' }] })),
      { ...otel.telemetry, recordContent: true },
      HTTP,
    );
    await recording.request({ method: 'tools/call', params: { name: 'loud', arguments: { city: 'Oslo' } } });

    expect(otel.span('tools/call quiet').attributes).not.toHaveProperty(ATTR.toolArguments);
    expect(otel.span('tools/call quiet').attributes).not.toHaveProperty(ATTR.toolResult);
    expect(otel.span('tools/call loud').attributes).toMatchObject({
      [ATTR.toolArguments]: '{"city":"Oslo"}',
      [ATTR.toolResult]: '{"content":[{"type":"text","text":"Sunny"}]}',
    });
  });
});

describe('traceClientTransport', () => {
  const request = (params?: Record<string, unknown>): Message => ({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    ...(params && { params }),
  });

  it('puts the active span into the _meta of each request', async () => {
    const transport = new FakeClientTransport();
    const traced = traceClientTransport(transport);
    await otel.telemetry.tracer.startActiveSpan('caller', async (span) => {
      await traced.send(request({ name: 'get_weather' }));
      span.end();
    });

    const { traceId, spanId } = otel.span('caller').spanContext();
    expect(transport.sent[0]).toEqual({
      ...request({ name: 'get_weather' }),
      params: { name: 'get_weather', _meta: { traceparent: `00-${traceId}-${spanId}-01` } },
    });
  });

  it('adds baggage only when the context carries some', async () => {
    const transport = new FakeClientTransport();
    const traced = traceClientTransport(transport);
    const baggage = propagation.createBaggage({ 'user.tier': { value: 'free' } });
    await context.with(propagation.setBaggage(context.active(), baggage), () => traced.send(request({})));
    await traced.send(request({}));

    const [withBaggage, without] = transport.sent as { params: { _meta?: Record<string, unknown> } }[];
    expect(withBaggage?.params._meta?.baggage).toBe('user.tier=free');
    // Nothing to inject: the request goes out untouched, without an empty _meta.
    expect(without?.params).not.toHaveProperty('_meta');
  });

  it('keeps the keys _meta already has', async () => {
    const transport = new FakeClientTransport();
    await otel.telemetry.tracer.startActiveSpan('caller', async (span) => {
      await traceClientTransport(transport).send(
        request({ name: 'x', _meta: { progressToken: 3, [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } }),
      );
      span.end();
    });

    const meta = (transport.sent[0] as { params: { _meta: Record<string, unknown> } }).params._meta;
    expect(meta).toMatchObject({ progressToken: 3, [PROTOCOL_VERSION_META_KEY]: '2026-07-28' });
    expect(meta.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it("never changes the caller's message", async () => {
    const transport = new FakeClientTransport();
    const message = request({ name: 'x', arguments: { a: 1 }, _meta: { progressToken: 3 } });
    const before = structuredClone(message);
    deepFreeze(message);
    await otel.telemetry.tracer.startActiveSpan('caller', async (span) => {
      await traceClientTransport(transport).send(message);
      span.end();
    });

    expect(message).toEqual(before);
    expect(transport.sent[0]).not.toBe(message);
  });

  it('sends notifications and responses as they are', async () => {
    const transport = new FakeClientTransport();
    const traced = traceClientTransport(transport);
    const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } };
    const response = { jsonrpc: '2.0', id: 'server-1', result: {} };
    await otel.telemetry.tracer.startActiveSpan('caller', async (span) => {
      await traced.send(notification);
      await traced.send(response);
      span.end();
    });

    expect(transport.sent[0]).toBe(notification);
    expect(transport.sent[1]).toBe(response);
  });

  it('passes the send options on', async () => {
    const transport = new FakeClientTransport();
    const options = { relatedRequestId: 1 };
    await traceClientTransport(transport).send(request(), options);
    expect(transport.options).toEqual([options]);
  });

  it('tells the client span the JSON-RPC id and the protocol revision the request carries', async () => {
    const transport = new FakeClientTransport();
    const client = traceMcpClient(
      {
        request: (req: Request) =>
          traceClientTransport(transport).send({
            ...req,
            jsonrpc: '2.0',
            id: 41,
            params: { ...req.params, _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } },
          }),
      },
      otel.telemetry,
      HTTP,
    );
    await client.request({ method: 'tools/list' });

    const span = otel.span('tools/list');
    expect(span.attributes[ATTR.requestId]).toBe('41');
    expect(span.attributes[ATTR.protocolVersion]).toBe('2026-07-28');
    const { traceId, spanId } = span.spanContext();
    expect(
      (transport.sent[0] as { params: { _meta: { traceparent: string } } }).params._meta.traceparent,
    ).toBe(`00-${traceId}-${spanId}-01`);
  });

  it('cuts a long JSON-RPC id to 128 characters on the client span', async () => {
    const transport = new FakeClientTransport();
    const id = 'i'.repeat(1_000_000);
    const client = traceMcpClient(
      { request: (req: Request) => traceClientTransport(transport).send({ ...req, jsonrpc: '2.0', id }) },
      otel.telemetry,
      HTTP,
    );
    await client.request({ method: 'tools/list' });

    expect(otel.span('tools/list').attributes[ATTR.requestId]).toBe('i'.repeat(128));
    expect((transport.sent[0] as Message).id).toBe(id);
  });

  it('tags no span it did not start', async () => {
    const transport = new FakeClientTransport();
    await otel.telemetry.tracer.startActiveSpan('caller', async (span) => {
      await traceClientTransport(transport).send(request());
      span.end();
    });
    expect(otel.span('caller').attributes).not.toHaveProperty(ATTR.requestId);
  });

  it("leaves every other property the transport's own", async () => {
    const transport = new FakeClientTransport('session-1');
    const traced = traceClientTransport(transport);
    const onmessage = (message: unknown) => message;

    expect(traced).toBeInstanceOf(FakeClientTransport);
    expect(traced.sessionId).toBe('session-1');
    await expect(traced.finishAuth('code-1')).resolves.toBe('authorized with code-1');
    traced.onmessage = onmessage;
    expect(transport.onmessage).toBe(onmessage);
    expect(traced.sent).toBe(transport.sent);
  });
});

describe('a traced client and a traced server', () => {
  it('share one trace: the server span is a child of the client span', async () => {
    const serverTransport = new FakeTransport();
    await traceMcpServer(new FakeServer({ 'tools/call': () => ({ content: [] }) }), otel.telemetry).connect(
      serverTransport,
    );
    let answered: Promise<Message> | undefined;
    const wire = {
      async send(message: Message) {
        answered = serverTransport.request(message);
      },
    };
    const client = traceMcpClient(
      new FakeClient(traceClientTransport(wire), async () => (await answered)?.result),
      otel.telemetry,
      HTTP,
    );
    await client.request({ method: 'tools/call', params: { name: 'get_weather' } });

    const [serverSpan, clientSpan] = otel.spans();
    expect(serverSpan?.kind).toBe(SpanKind.SERVER);
    expect(clientSpan?.kind).toBe(SpanKind.CLIENT);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it('hashes one session id identically on both sides, and never record it raw', async () => {
    const sessionId = 'raw-session-id-4f1c2b';
    const serverTransport = new FakeTransport();
    serverTransport.sessionId = sessionId;
    await traceMcpServer(new FakeServer({ 'tools/call': () => ({ content: [] }) }), otel.telemetry).connect(
      serverTransport,
    );
    let answered: Promise<Message> | undefined;
    const wire = {
      sessionId,
      async send(message: Message) {
        answered = serverTransport.request(message);
      },
    };
    const client = traceMcpClient(
      new FakeClient(traceClientTransport(wire), async () => (await answered)?.result),
      otel.telemetry,
      HTTP,
    );
    await client.request({ method: 'tools/call', params: { name: 'get_weather' } });

    const [serverSpan, clientSpan] = otel.spans();
    expect(serverSpan?.kind).toBe(SpanKind.SERVER);
    expect(clientSpan?.kind).toBe(SpanKind.CLIENT);
    expect(serverSpan?.attributes[ATTR.sessionId]).toBe(sessionIdAttribute(sessionId));
    expect(clientSpan?.attributes[ATTR.sessionId]).toBe(serverSpan?.attributes[ATTR.sessionId]);
    for (const span of otel.spans()) {
      for (const value of Object.values(span.attributes)) expect(String(value)).not.toContain(sessionId);
    }
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
