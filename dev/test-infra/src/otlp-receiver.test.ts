/**
 * The OTLP receiver against the official OpenTelemetry JS exporters, over http/protobuf and http/json,
 * plus the hostile and malformed requests a real receiver must survive. Partner: otlp-receiver.ts.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort } from './free-port.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

/** The exporters' own option type for compression is an enum they do not re-export; its value is 'gzip'. */
type Compression = NonNullable<
  NonNullable<ConstructorParameters<typeof ProtoTraceExporter>[0]>['compression']
>;
const GZIP = 'gzip' as Compression;

const RESOURCE = { 'service.name': 'otlp-receiver-test', 'deployment.environment.name': 'test' };

const PROTOCOLS = [
  {
    protocol: 'http/protobuf',
    encoding: 'protobuf',
    contentType: 'application/x-protobuf',
    traceExporter: (url: string, gzip = false): SpanExporter =>
      new ProtoTraceExporter({ url, ...(gzip ? { compression: GZIP } : {}) }),
    metricExporter: (url: string): PushMetricExporter => new ProtoMetricExporter({ url }),
  },
  {
    protocol: 'http/json',
    encoding: 'json',
    contentType: 'application/json',
    traceExporter: (url: string, gzip = false): SpanExporter =>
      new JsonTraceExporter({ url, ...(gzip ? { compression: GZIP } : {}) }),
    metricExporter: (url: string): PushMetricExporter => new JsonMetricExporter({ url }),
  },
] as const;

/** A tracer provider that sends each span as it ends; `flush` waits for the exports, then shuts down. */
function tracerFor(exporter: SpanExporter) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(RESOURCE),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return {
    tracer: provider.getTracer('receiver-test', '1.2.3'),
    flush: async () => {
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}

/** Starts `name` as a child of `parent` (no context manager is registered, so the context is explicit). */
function childOf(parent: Span | undefined) {
  return parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
}

async function post(receiver: OtlpReceiver, path: string, body: Uint8Array | string, headers = {}) {
  const response = await fetch(`${receiver.endpoint}${path}`, { method: 'POST', body, headers });
  return { status: response.status, text: await response.text() };
}

/** A valid export, to show the receiver still works after a bad request. */
async function exportOneSpan(receiver: OtlpReceiver, name: string): Promise<void> {
  const { tracer, flush } = tracerFor(new ProtoTraceExporter({ url: `${receiver.endpoint}/v1/traces` }));
  tracer.startSpan(name).end();
  await flush();
  await receiver.waitForSpans((spans) => spans.some((span) => span.name === name), { timeoutMs: 5_000 });
}

describe('startOtlpReceiver', () => {
  let receiver: OtlpReceiver;
  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  /** A start time set by hand, past 2^53 nanoseconds, so a lossy number on the way would show. */
  const CHILD_START: [number, number] = [1_700_000_000, 123_456_789];
  const CHILD_START_NANOS = 1_700_000_000_123_456_789n;

  describe.each(PROTOCOLS)('over $protocol', ({ encoding, contentType, traceExporter, metricExporter }) => {
    it('receives a parent and a child span with their ids, kind, status, attributes and resource', async () => {
      const { tracer, flush } = tracerFor(traceExporter(`${receiver.endpoint}/v1/traces`));
      const parent = tracer.startSpan('handle request', { kind: SpanKind.SERVER });
      const child = tracer.startSpan(
        'call tool',
        {
          kind: SpanKind.CLIENT,
          startTime: CHILD_START,
          attributes: {
            'app.string': 'héllo wörld',
            'app.int': 42,
            'app.negative': -7,
            'app.double': 1.5,
            'app.bool': true,
            'app.strings': ['a', 'b'],
          },
          links: [{ context: { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), traceFlags: 1 } }],
        },
        childOf(parent),
      );
      child.addEvent('retry', { attempt: 2 });
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'tool failed' });
      child.end();
      parent.setStatus({ code: SpanStatusCode.OK });
      parent.end();
      await flush();

      const spans = await receiver.waitForSpans((all) => all.length === 2);
      const got = Object.fromEntries(spans.map((span) => [span.name, span]));
      const [parentIds, childIds] = [parent.spanContext(), child.spanContext()];
      expect(got['handle request']).toMatchObject({
        traceId: parentIds.traceId,
        spanId: parentIds.spanId,
        kind: 'SERVER',
        status: { code: 'OK' },
        scope: { name: 'receiver-test', version: '1.2.3' },
        resource: RESOURCE,
        encoding,
      });
      expect(got['handle request']?.parentSpanId).toBeUndefined();
      expect(got['call tool']).toMatchObject({
        traceId: parentIds.traceId,
        spanId: childIds.spanId,
        parentSpanId: parentIds.spanId,
        kind: 'CLIENT',
        status: { code: 'ERROR', message: 'tool failed' },
        attributes: {
          'app.string': 'héllo wörld',
          'app.int': 42,
          'app.negative': -7,
          'app.double': 1.5,
          'app.bool': true,
          'app.strings': ['a', 'b'],
        },
        events: [{ name: 'retry', attributes: { attempt: 2 } }],
        links: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), attributes: {} }],
        resource: RESOURCE,
        encoding,
      });
      const span = got['call tool'];
      expect(typeof span?.startTimeUnixNano).toBe('bigint');
      expect(span && span.endTimeUnixNano >= span.startTimeUnixNano).toBe(true);
      // To the nanosecond: the timestamps survived the 64-bit round trip.
      expect(span?.startTimeUnixNano).toBe(CHILD_START_NANOS);
      expect(receiver.requests.map(({ path, status }) => ({ path, status }))).toContainEqual({
        path: '/v1/traces',
        status: 200,
      });
      expect(receiver.requests[0]?.contentType).toContain(contentType);
      // Each request names the services it carried, so a test can ignore another process's exports.
      expect(receiver.requests[0]?.services).toEqual([RESOURCE['service.name']]);
    });

    it('receives a histogram with explicit bucket boundaries and a counter with their points', async () => {
      const provider = new MeterProvider({
        resource: resourceFromAttributes(RESOURCE),
        readers: [
          new PeriodicExportingMetricReader({
            exporter: metricExporter(`${receiver.endpoint}/v1/metrics`),
            // Exports only on forceFlush: the test decides when.
            exportIntervalMillis: 60_000,
          }),
        ],
      });
      const meter = provider.getMeter('receiver-test', '1.2.3');
      const latency = meter.createHistogram('tool.duration', {
        unit: 'ms',
        description: 'How long a tool call took',
        advice: { explicitBucketBoundaries: [10, 100, 1000] },
      });
      const calls = meter.createCounter('tool.calls', { description: 'Tool calls' });
      for (const ms of [5, 50, 60, 5000]) latency.record(ms, { tool: 'get_weather' });
      calls.add(2, { tool: 'get_weather', ok: true });
      calls.add(1, { tool: 'get_weather', ok: false });
      await provider.forceFlush();
      await provider.shutdown();

      const metrics = await receiver.waitForMetrics((all) => all.length >= 2);
      const histogram = metrics.find((metric) => metric.name === 'tool.duration');
      expect(histogram).toMatchObject({
        kind: 'histogram',
        unit: 'ms',
        description: 'How long a tool call took',
        resource: RESOURCE,
        scope: { name: 'receiver-test', version: '1.2.3' },
        points: [
          {
            attributes: { tool: 'get_weather' },
            count: 4,
            sum: 5115,
            explicitBounds: [10, 100, 1000],
            bucketCounts: [1, 2, 0, 1],
          },
        ],
        encoding,
      });
      const counter = metrics.find((metric) => metric.name === 'tool.calls');
      expect(counter).toMatchObject({ kind: 'sum', description: 'Tool calls', unit: '', encoding });
      expect(counter?.points).toHaveLength(2);
      expect(counter?.points).toEqual(
        expect.arrayContaining([
          { attributes: { tool: 'get_weather', ok: true }, value: 2 },
          { attributes: { tool: 'get_weather', ok: false }, value: 1 },
        ]),
      );
    });

    it('inflates a gzip body from the exporter', async () => {
      const { tracer, flush } = tracerFor(traceExporter(`${receiver.endpoint}/v1/traces`, true));
      tracer.startSpan('zipped').end();
      await flush();
      const [span] = await receiver.waitForSpans((all) => all.length === 1);
      expect(span).toMatchObject({ name: 'zipped', encoding });
    });
  });

  it('inflates a hand-made gzip JSON body', async () => {
    const body = JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'big', value: { intValue: '9007199254740993' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'AB'.repeat(16),
                  spanId: 'CD'.repeat(8),
                  parentSpanId: '',
                  name: 'by hand',
                  kind: 2,
                  startTimeUnixNano: '1700000000000000001',
                  endTimeUnixNano: 1700000000000000000,
                  attributes: [
                    {
                      key: 'nested',
                      value: { kvlistValue: { values: [{ key: 'x', value: { doubleValue: 'NaN' } }] } },
                    },
                    { key: 'empty', value: {} },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const answer = await post(receiver, '/v1/traces', gzipSync(body), {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
    });
    expect(answer).toEqual({ status: 200, text: '{}' });
    expect(receiver.spans).toEqual([
      {
        traceId: 'ab'.repeat(16),
        spanId: 'cd'.repeat(8),
        name: 'by hand',
        kind: 'SERVER',
        startTimeUnixNano: 1700000000000000001n,
        endTimeUnixNano: 1700000000000000000n,
        attributes: { nested: { x: Number.NaN }, empty: null },
        resource: { big: 9007199254740993n },
        scope: { name: '' },
        status: { code: 'UNSET' },
        events: [],
        links: [],
        encoding: 'json',
      },
    ]);
  });

  it('answers an empty protobuf response to a protobuf export', async () => {
    const response = await fetch(`${receiver.endpoint}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(0),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 200 to logs and counts them without decoding', async () => {
    const answer = await post(receiver, '/v1/logs', '{"resourceLogs":[]}', {
      'content-type': 'application/json',
    });
    expect(answer).toEqual({ status: 200, text: '{}' });
    expect(receiver.requests).toEqual([
      { path: '/v1/logs', contentType: 'application/json', status: 200, services: [] },
    ]);
  });

  it('answers 400 to malformed protobuf and JSON and keeps working', async () => {
    // Field 1, length-delimited, with a length far past the end of the body.
    const truncated = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]);
    const protobufAnswer = await post(receiver, '/v1/traces', truncated, {
      'content-type': 'application/x-protobuf',
    });
    expect(protobufAnswer.status).toBe(400);
    expect(protobufAnswer.text).toMatch(/^not an OTLP protobuf body/);

    for (const body of ['{"resourceSpans": [', '[]', '{"resourceSpans": [{"scopeSpans": 7}]}']) {
      const answer = await post(receiver, '/v1/traces', body, { 'content-type': 'application/json' });
      expect(answer.status, body).toBe(400);
    }
    const badId = '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"not hex"}]}]}]}';
    expect(await post(receiver, '/v1/traces', badId, { 'content-type': 'application/json' })).toEqual({
      status: 400,
      text: 'traceId: expected a hex id, got "not hex"\n',
    });
    const badMetric =
      '{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"sum":{"dataPoints":[{"asInt":1.5}]}}]}]}]}';
    expect(
      (await post(receiver, '/v1/metrics', badMetric, { 'content-type': 'application/json' })).status,
    ).toBe(400);
    const notGzip = await post(receiver, '/v1/traces', 'plain', {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(notGzip).toEqual({ status: 400, text: 'not a valid gzip body\n' });

    expect(receiver.spans).toEqual([]);
    await exportOneSpan(receiver, 'after the bad ones');
  });

  it('rejects a value nested past its depth bound instead of recursing', async () => {
    let value: object = { stringValue: 'bottom' };
    for (let depth = 0; depth < 100; depth++) value = { arrayValue: { values: [value] } };
    const body = JSON.stringify({
      resourceSpans: [{ resource: { attributes: [{ key: 'deep', value }] } }],
    });
    const answer = await post(receiver, '/v1/traces', body, { 'content-type': 'application/json' });
    expect(answer).toEqual({ status: 400, text: 'an attribute nests deeper than 32\n' });
  });

  it('survives random bytes as protobuf', async () => {
    // A fixed-seed generator: the same bytes every run, so a failure reproduces.
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 60; round++) {
      const bytes = Uint8Array.from({ length: 1 + (next() % 200) }, () => next() % 256);
      const path = round % 2 ? '/v1/traces' : '/v1/metrics';
      const { status } = await post(receiver, path, bytes, { 'content-type': 'application/x-protobuf' });
      expect([200, 400]).toContain(status);
    }
    await exportOneSpan(receiver, 'after the noise');
  });

  it('answers 404 to another path, 405 to another method and 415 to another content type', async () => {
    expect((await post(receiver, '/v1/profiles', '{}', { 'content-type': 'application/json' })).status).toBe(
      404,
    );
    expect((await fetch(`${receiver.endpoint}/`)).status).toBe(404);
    const get = await fetch(`${receiver.endpoint}/v1/traces`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post(receiver, '/v1/traces', 'x', { 'content-type': 'text/plain' })).status).toBe(415);
    const brotli = await post(receiver, '/v1/traces', '{}', {
      'content-type': 'application/json',
      'content-encoding': 'br',
    });
    expect(brotli.status).toBe(415);
    expect(receiver.requests.map((request) => request.status)).toEqual([404, 415, 415]);
    await exportOneSpan(receiver, 'after the wrong requests');
  });

  it('answers 413 to a body over 16 MiB, raw or once inflated, and keeps working', async () => {
    const tooBig = new Uint8Array(16 * 1024 * 1024 + 1);
    const raw = await post(receiver, '/v1/traces', tooBig, { 'content-type': 'application/x-protobuf' });
    expect(raw.status).toBe(413);
    const bomb = gzipSync(new Uint8Array(17 * 1024 * 1024));
    const inflated = await post(receiver, '/v1/traces', bomb, {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(inflated.status).toBe(413);
    await exportOneSpan(receiver, 'after the big ones');
  });

  it('shrugs off a client that hangs up mid-body', async () => {
    const printed = vi.spyOn(console, 'error');
    const socket = connect(Number(new URL(receiver.endpoint).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\nContent-Length: 100\r\n\r\n0123456789',
    );
    socket.destroy();
    await once(socket, 'close');
    await exportOneSpan(receiver, 'after the hang-up');
    expect(printed).not.toHaveBeenCalled();
    printed.mockRestore();
  });

  it('resolves a wait when a later batch satisfies it', async () => {
    const waiting = receiver.waitForSpans((spans) => spans.some((span) => span.name === 'late'));
    const { tracer, flush } = tracerFor(new JsonTraceExporter({ url: `${receiver.endpoint}/v1/traces` }));
    tracer.startSpan('early').end();
    tracer.startSpan('late').end();
    await flush();
    expect((await waiting).map((span) => span.name)).toEqual(['early', 'late']);
  });

  it('rejects a wait after its timeout, naming the spans that did arrive', async () => {
    const { tracer, flush } = tracerFor(new ProtoTraceExporter({ url: `${receiver.endpoint}/v1/traces` }));
    tracer.startSpan('alpha').end();
    tracer.startSpan('beta').end();
    await flush();
    await receiver.waitForSpans((spans) => spans.length === 2);
    await expect(
      receiver.waitForSpans((spans) => spans.some((span) => span.name === 'gamma'), { timeoutMs: 50 }),
    ).rejects.toThrow('waitForSpans: no match within 50 ms; 2 received: alpha, beta');
    await expect(receiver.waitForMetrics(() => false, { timeoutMs: 20 })).rejects.toThrow(
      'waitForMetrics: no match within 20 ms; none received',
    );
  });

  it('rejects pending waits when closed', async () => {
    const waiting = receiver.waitForSpans(() => false);
    await receiver.close();
    await expect(waiting).rejects.toThrow('the OTLP receiver was closed');
  });

  it('formats one trace as an indented tree with the chosen attributes', async () => {
    const { tracer, flush } = tracerFor(new ProtoTraceExporter({ url: `${receiver.endpoint}/v1/traces` }));
    const start = Date.now();
    const root = tracer.startSpan('POST /chat', {
      kind: SpanKind.SERVER,
      startTime: start,
      attributes: { 'http.route': '/chat', 'http.response.status_code': 200 },
    });
    const call = tracer.startSpan(
      'tools/call get_weather',
      { kind: SpanKind.CLIENT, startTime: start + 1, attributes: { 'gen_ai.tool.name': 'get_weather' } },
      childOf(root),
    );
    const query = tracer.startSpan(
      'SELECT forecast',
      { startTime: start + 2, attributes: { 'db.query.text': 'SELECT * FROM forecast', ignored: 'x' } },
      childOf(call),
    );
    tracer.startSpan('another trace').end();
    query.end();
    call.end();
    root.end();
    await flush();
    await receiver.waitForSpans((spans) => spans.length === 4);

    const keys = ['http.route', 'http.response.status_code', 'gen_ai.tool.name', 'db.query.text'];
    expect(receiver.formatTrace(root.spanContext().traceId.toUpperCase(), keys)).toBe(
      [
        'POST /chat [SERVER] http.route=/chat http.response.status_code=200',
        '  tools/call get_weather [CLIENT] gen_ai.tool.name=get_weather',
        '    SELECT forecast [INTERNAL] db.query.text="SELECT * FROM forecast"',
      ].join('\n'),
    );
    expect(receiver.formatTrace(root.spanContext().traceId)).toBe(
      'POST /chat [SERVER]\n  tools/call get_weather [CLIENT]\n    SELECT forecast [INTERNAL]',
    );
    expect(() => receiver.formatTrace('0'.repeat(32))).toThrow(/no spans received/);
  });

  it('forgets everything on clear', async () => {
    await exportOneSpan(receiver, 'before clear');
    receiver.clear();
    expect([receiver.spans, receiver.metrics, receiver.requests]).toEqual([[], [], []]);
  });

  it('listens on the port it is given', async () => {
    const port = await freePort();
    const fixed = await startOtlpReceiver({ port });
    try {
      expect(fixed.endpoint).toBe(`http://127.0.0.1:${port}`);
      await exportOneSpan(fixed, 'on a fixed port');
    } finally {
      await fixed.close();
    }
  });
});
