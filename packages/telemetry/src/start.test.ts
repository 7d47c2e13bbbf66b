import { createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import os from 'node:os';
import { parseEnv } from '@mcp-workshop/shared';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TELEMETRY_ENV } from './env.js';
import { MAX_ATTRIBUTE_CHARS, SHUTDOWN_TIMEOUT_MS, startTelemetry, type Telemetry } from './start.js';
import { installTestOtel } from './test-support/otel.js';

interface Received {
  path: string;
  contentType: string;
  body: Buffer;
}

/** An OTLP/HTTP receiver on loopback that keeps what it was sent and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      received.push({ path: request.url ?? '', contentType, body: Buffer.concat(chunks) });
      const json = contentType.includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    paths: () => received.map((request) => request.path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: one the system just handed out, closed again. */
/** How long the OTLP exporter keeps retrying a receiver that is down, when nothing bounds it. */
const EXPORTER_RETRIES_MS = 10_000;

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

/** The string attributes of every span in an OTLP/JSON traces body. */
function jsonSpanAttributes(body: Buffer): Record<string, string | undefined>[] {
  type Span = { attributes?: { key: string; value: { stringValue?: string } }[] };
  const parsed = JSON.parse(body.toString('utf8')) as {
    resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
  };
  return parsed.resourceSpans
    .flatMap((resource) => resource.scopeSpans)
    .flatMap((scope) => scope.spans)
    .map((span) =>
      Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, value.stringValue])),
    );
}

const envOf = (source: Record<string, string>) => parseEnv(z.object(TELEMETRY_ENV), source);

let cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** Starts telemetry for one test; it is shut down and its globals unregistered afterwards. */
function start(source: Record<string, string>): Telemetry {
  const telemetry = startTelemetry({
    env: envOf(source),
    serviceName: 'telemetry-test',
    serviceVersion: '1.2.3',
  });
  cleanups.push(async () => {
    await telemetry.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    metrics.disable();
  });
  return telemetry;
}

async function receiver() {
  const started = await startReceiver();
  cleanups.push(started.close);
  return started;
}

/** Sets process.env for one test (the SDK's resource detector reads it), restored afterwards. */
function setProcessEnv(name: string, value: string): void {
  const before = process.env[name];
  process.env[name] = value;
  cleanups.push(() => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  });
}

describe('startTelemetry', () => {
  it.each([
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ])('posts spans to /v1/traces as %s on flush', async (protocol, contentType) => {
    const collector = await receiver();
    const telemetry = start({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    });
    telemetry.tracer.startSpan('span-under-test').end();
    await telemetry.flush();

    const traces = collector.received.filter((request) => request.path === '/v1/traces');
    expect(traces).toHaveLength(1);
    expect(traces[0]?.contentType).toBe(contentType);
    expect(traces[0]?.body.includes('span-under-test')).toBe(true);
    expect(traces[0]?.body.includes('telemetry-test')).toBe(true);
  });

  it('posts metrics to /v1/metrics on flush', async () => {
    const collector = await receiver();
    const telemetry = start({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/` });
    telemetry.meter.createCounter('workshop.test.counter').add(3);
    await telemetry.flush();

    const posted = collector.received.filter((request) => request.path === '/v1/metrics');
    expect(posted.length).toBeGreaterThanOrEqual(1);
    expect(posted[0]?.contentType).toBe('application/x-protobuf');
    expect(posted.some((request) => request.body.includes('workshop.test.counter'))).toBe(true);
  });

  it('uses a traces endpoint as given, and exports no metrics without a metrics endpoint', async () => {
    const collector = await receiver();
    const telemetry = start({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/custom/traces` });
    telemetry.tracer.startSpan('span-under-test').end();
    telemetry.meter.createCounter('workshop.test.counter').add(1);
    await telemetry.flush();

    expect(collector.paths()).toEqual(['/custom/traces']);
  });

  it('exports through its own providers even when another tracer provider is already global', async () => {
    const other = installTestOtel();
    cleanups.push(() => other.uninstall());
    const collector = await receiver();
    const telemetry = start({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    telemetry.tracer.startSpan('span-under-test').end();
    telemetry.meter.createCounter('workshop.test.counter').add(1);
    await telemetry.flush();

    expect(other.spans()).toEqual([]);
    expect(collector.paths().sort()).toEqual(['/v1/metrics', '/v1/traces']);
  });

  it('registers the W3C propagators and the async context it needs', async () => {
    const collector = await receiver();
    const telemetry = start({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    const carrier: Record<string, string> = {};
    await telemetry.tracer.startActiveSpan('outer', async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      propagation.inject(
        propagation.setBaggage(context.active(), propagation.createBaggage({ a: { value: '1' } })),
        carrier,
      );
      span.end();
    });

    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(carrier.baggage).toBe('a=1');
  });

  it('can be shut down twice', async () => {
    const collector = await receiver();
    const telemetry = start({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    telemetry.tracer.startSpan('span-under-test').end();
    await telemetry.shutdown();
    await expect(telemetry.shutdown()).resolves.toBeUndefined();

    expect(collector.paths()).toContain('/v1/traces');
  });

  it(`cuts an attribute value longer than ${MAX_ATTRIBUTE_CHARS} characters, whoever set it`, async () => {
    const collector = await receiver();
    const telemetry = start({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    const span = telemetry.tracer.startSpan('span-under-test');
    span.setAttribute('test.huge', 'h'.repeat(1024 * 1024));
    span.setAttribute('test.limit', 'l'.repeat(MAX_ATTRIBUTE_CHARS));
    span.setAttribute('test.small', 'fits');
    span.end();
    await telemetry.flush();

    const traces = collector.received.filter((request) => request.path === '/v1/traces');
    expect(traces).toHaveLength(1);
    const [attributes] = jsonSpanAttributes(traces[0]?.body ?? Buffer.from('{}'));
    expect(MAX_ATTRIBUTE_CHARS).toBe(8192);
    expect(attributes?.['test.huge']).toBe('h'.repeat(MAX_ATTRIBUTE_CHARS));
    expect(attributes?.['test.limit']).toBe('l'.repeat(MAX_ATTRIBUTE_CHARS));
    expect(attributes?.['test.small']).toBe('fits');
  });

  it(
    'gives up on shutdown when nothing listens at the endpoint, and a second call shares the first',
    async () => {
      const port = await closedPort();
      const telemetry = start({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
      telemetry.tracer.startSpan('span-under-test').end();
      telemetry.meter.createCounter('workshop.test.counter').add(1);

      const first = telemetry.shutdown();
      await expect(first).resolves.toBeUndefined();
      expect(SHUTDOWN_TIMEOUT_MS).toBe(3_000);
      expect(telemetry.shutdown()).toBe(first);
    },
    // A safety net that also tells the bound from no bound: the exporter alone retries for 10 s.
    EXPORTER_RETRIES_MS - 1_000,
  );

  it('names the instance host/pid by default', () => {
    const telemetry = start({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(telemetry.instanceId).toBe(`${os.hostname()}/${process.pid}`);
    expect(telemetry.recordContent).toBe(false);
  });

  it('lets OTEL_RESOURCE_ATTRIBUTES name the instance', () => {
    setProcessEnv(
      'OTEL_RESOURCE_ATTRIBUTES',
      'service.instance.id=mcp-server-2,deployment.environment.name=test',
    );
    const telemetry = start({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=mcp-server-2,deployment.environment.name=test',
    });
    expect(telemetry.instanceId).toBe('mcp-server-2');
  });

  it('records content only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true', () => {
    const telemetry = start({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    expect(telemetry.recordContent).toBe(true);
  });
});
