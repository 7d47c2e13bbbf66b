/**
 * The built server as a process, exporting OTLP/HTTP to a receiver in the test that speaks the
 * real protocol (test-infra's `startOtlpReceiver`). A client that only hand-writes a
 * `_meta.traceparent` gets the server's spans in its trace, in every way a request can arrive:
 * a 2026-07-28 request, a 2025 session (where the HTTP header is the fallback) and stdio. Bad trace
 * context is ignored, never an error; and with telemetry off, nothing is loaded or sent.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  MCP_HEADERS,
  MODERN_META,
  type OtlpReceiver,
  openRawSession,
  postModern,
  postOnSession,
  type ReceivedSpan,
  startOtlpReceiver,
  waitForAnnouncedMcpUrl,
} from '@mcp-workshop/test-infra';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WORKSHOP_ENTRY as ENTRY } from './test-support/built-server.js';

/** Safety nets for two loaded cores: a start, or the spans and metrics of a request, come far sooner when idle. */
const WAIT_MS = 30_000;
/** Each test starts a server, so it gets room for a slow start and its own waits. */
const TEST_TIMEOUT_MS = 60_000;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;

let receiver: OtlpReceiver;
let dataDir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  if (!existsSync(ENTRY))
    throw new Error(`${ENTRY} is missing: run "pnpm build" (pnpm test does it for you).`);
  receiver = await startOtlpReceiver();
});
afterAll(async () => receiver?.close());

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  receiver.clear();
});

/** Exports as soon as a span ends, so a test waits milliseconds, not the SDK's 5 s default. */
function telemetryEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
    ...extra,
  };
}

function start(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcessWithoutNullStreams; stderr: () => string } {
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-otel-'));
  const child = spawn(process.execPath, [ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, MCP_RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: 'pipe',
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stderr: () => stderr };
}

/** The server on a port the OS picks (at the default log level, which writes its "listening" line). */
async function startHttp(env: Record<string, string>) {
  const started = start([], { PORT: '0', ...env });
  const mcpUrl = await waitForAnnouncedMcpUrl({
    child: started.child,
    log: started.stderr,
    timeoutMs: WAIT_MS,
    name: 'the server',
  });
  return { ...started, mcpUrl };
}

function withTrace(meta: Record<string, unknown>, traceContext: Record<string, unknown>) {
  return { ...meta, ...traceContext };
}

/** A 2026-07-28 `tools/call` with the given trace keys in `_meta` (and, optionally, HTTP headers). */
function callModern(
  mcpUrl: string,
  name: string,
  args: Record<string, unknown>,
  traceContext: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name, arguments: args, _meta: withTrace(MODERN_META, traceContext) },
    }),
  });
}

const named = (name: string) => (spans: readonly ReceivedSpan[]) => spans.find((span) => span.name === name);

describe("the server span joins the caller's trace", { timeout: TEST_TIMEOUT_MS }, () => {
  it("from a 2026-07-28 request's _meta.traceparent, with a database child span that holds no value", async () => {
    const { mcpUrl } = await startHttp(telemetryEnv());
    const response = await callModern(
      mcpUrl,
      'add_task',
      { title: 'buy secret-ingredient' },
      { traceparent: TRACEPARENT },
    );
    expect(response.status).toBe(200);
    await response.text();

    const spans = await receiver.waitForSpans((all) => all.some((span) => span.name === 'INSERT tasks'));
    const server = named('tools/call add_task')(spans);
    const insert = named('INSERT tasks')(spans);
    expect(server).toMatchObject({
      kind: 'SERVER',
      traceId: TRACE_ID,
      parentSpanId: CLIENT_SPAN_ID,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'add_task',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': '2026-07-28',
        'jsonrpc.request.id': '9',
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
      },
      status: { code: 'UNSET' },
    });
    expect(server?.attributes).not.toHaveProperty('mcp.session.id');
    expect(insert).toMatchObject({
      kind: 'CLIENT',
      traceId: TRACE_ID,
      parentSpanId: server?.spanId,
      attributes: {
        'db.system.name': 'sqlite',
        'db.operation.name': 'INSERT',
        'db.collection.name': 'tasks',
      },
    });
    // Neither the title nor any argument is recorded by default.
    expect(
      JSON.stringify(spans, (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
    ).not.toContain('secret-ingredient');
    expect(server?.resource['service.name']).toBe('mcp-workshop-server');
    expect(server?.resource['service.instance.id']).toMatch(/\/\d+$/);
  });

  it('marks a failed tool call tool_error on the span and counts it by tool', async () => {
    const { mcpUrl } = await startHttp(telemetryEnv());
    const response = await callModern(
      mcpUrl,
      'get_weather',
      { location: 'Atlantis' },
      { traceparent: TRACEPARENT },
    );
    const body = (await response.json()) as { result: { isError?: boolean } };
    expect(response.status).toBe(200);
    expect(body.result.isError).toBe(true);

    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.name === 'tools/call get_weather'),
    );
    expect(named('tools/call get_weather')(spans)).toMatchObject({
      attributes: { 'error.type': 'tool_error', 'gen_ai.tool.name': 'get_weather' },
      status: { code: 'ERROR' },
    });
    const metrics = await receiver.waitForMetrics(
      (all) =>
        all.some((metric) => metric.name === 'mcp.server.tool.errors') &&
        all.some((metric) => metric.name === 'mcp.server.operation.duration'),
    );
    const errors = metrics.find((metric) => metric.name === 'mcp.server.tool.errors');
    expect(errors?.points).toContainEqual(
      expect.objectContaining({
        value: 1,
        attributes: expect.objectContaining({
          'gen_ai.tool.name': 'get_weather',
          'error.type': 'tool_error',
        }),
      }),
    );
    const duration = metrics.find((metric) => metric.name === 'mcp.server.operation.duration');
    expect(duration).toMatchObject({ kind: 'histogram', unit: 's' });
    expect(duration?.points[0]?.explicitBounds).toEqual([
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ]);
    // Per the conventions, ids stay off metrics.
    expect(duration?.points[0]?.attributes).not.toHaveProperty('jsonrpc.request.id');
  });

  it('in a 2025 session: _meta first, the HTTP traceparent header when _meta has none', async () => {
    const { mcpUrl } = await startHttp(telemetryEnv());
    const session = await openRawSession(mcpUrl);
    const headerTrace = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const headerSpan = 'bbbbbbbbbbbbbbbb';
    const call = (id: number, meta: Record<string, unknown>) =>
      postOnSession(
        mcpUrl,
        session,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'list_tasks', arguments: {}, _meta: meta },
        },
        { traceparent: `00-${headerTrace}-${headerSpan}-01` },
      ).then((response) => response.text());
    await call(2, { traceparent: TRACEPARENT });
    await call(3, {});
    await call(4, { traceparent: '00-not-a-trace-01' });

    const spans = await receiver.waitForSpans(
      (all) => all.filter((span) => span.name === 'tools/call list_tasks').length === 3,
    );
    const byId = (id: string) => spans.find((span) => span.attributes['jsonrpc.request.id'] === id);
    expect(byId('2')).toMatchObject({ traceId: TRACE_ID, parentSpanId: CLIENT_SPAN_ID });
    expect(byId('3')).toMatchObject({ traceId: headerTrace, parentSpanId: headerSpan });
    // A malformed _meta value is ignored, so the header still counts.
    expect(byId('4')).toMatchObject({ traceId: headerTrace, parentSpanId: headerSpan });
    // The session id is recorded as a hash: a trace reader can follow the session, not join it.
    const hashed = createHash('sha256').update(session).digest('hex').slice(0, 32);
    for (const id of ['2', '3', '4']) {
      expect(byId(id)?.attributes).toMatchObject({
        'mcp.session.id': hashed,
        'mcp.protocol.version': '2025-11-25',
      });
    }
    expect(
      JSON.stringify(spans, (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
    ).not.toContain(session);
  });

  it('over stdio, where only _meta can carry it', async () => {
    const { child } = start(['--stdio'], telemetryEnv());
    const lines = createInterface({ input: child.stdout });
    const answers = new Map<number, unknown>();
    const waiting = new Map<number, (value: unknown) => void>();
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id !== 'number') return;
      answers.set(message.id, message);
      waiting.get(message.id)?.(message);
    });
    const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const answer = (id: number) =>
      new Promise((resolve) => (answers.has(id) ? resolve(answers.get(id)) : waiting.set(id, resolve)));

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'stdio-test', version: '0' },
      },
    });
    await answer(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_time', arguments: { timezone: 'UTC' }, _meta: { traceparent: TRACEPARENT } },
    });
    await answer(2);

    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.name === 'tools/call get_time'),
    );
    expect(named('tools/call get_time')(spans)).toMatchObject({
      kind: 'SERVER',
      traceId: TRACE_ID,
      parentSpanId: CLIENT_SPAN_ID,
      attributes: {
        'network.transport': 'pipe',
        'mcp.protocol.version': '2025-11-25',
        'jsonrpc.request.id': '2',
      },
    });
    expect(named('tools/call get_time')(spans)?.attributes).not.toHaveProperty('network.protocol.name');
  });
});

describe('bad trace context', { timeout: TEST_TIMEOUT_MS }, () => {
  it('ignores a malformed traceparent and starts a trace of its own', async () => {
    const { mcpUrl } = await startHttp(telemetryEnv());
    for (const traceparent of [
      'garbage',
      `00-${'0'.repeat(32)}-${CLIENT_SPAN_ID}-01`,
      42,
      { nested: true },
      'x'.repeat(10_000),
    ]) {
      const response = await callModern(mcpUrl, 'get_time', { timezone: 'UTC' }, { traceparent });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    }
    const spans = await receiver.waitForSpans(
      (all) => all.filter((span) => span.name === 'tools/call get_time').length === 5,
    );
    for (const span of spans.filter((each) => each.name === 'tools/call get_time')) {
      expect(span.parentSpanId).toBeUndefined();
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.traceId).not.toBe('0'.repeat(32));
    }
  });

  it('caps a very long baggage instead of failing the request', async () => {
    const { mcpUrl, stderr } = await startHttp(telemetryEnv());
    const baggage = Array.from({ length: 20_000 }, (_, i) => `key${i}=value${i}`).join(',');
    const response = await callModern(
      mcpUrl,
      'get_time',
      { timezone: 'UTC' },
      { traceparent: TRACEPARENT, baggage },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.name === 'tools/call get_time'),
    );
    expect(named('tools/call get_time')(spans)).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: CLIENT_SPAN_ID,
    });
    expect(stderr()).not.toMatch(/"level":(50|60)/);
  });
});

describe('logs', { timeout: TEST_TIMEOUT_MS }, () => {
  it('carry the trace_id and span_id of the call they belong to', async () => {
    const { mcpUrl, stderr } = await startHttp(telemetryEnv({ LOG_LEVEL: 'debug' }));
    const response = await callModern(mcpUrl, 'get_time', { timezone: 'UTC' }, { traceparent: TRACEPARENT });
    await response.text();
    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.name === 'tools/call get_time'),
    );
    const server = named('tools/call get_time')(spans);
    const line = stderr()
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.msg === 'tool call answered' && entry.tool === 'get_time');
    expect(line).toMatchObject({ trace_id: TRACE_ID, span_id: server?.spanId });
  });
});

describe('telemetry off', { timeout: TEST_TIMEOUT_MS }, () => {
  /** The import reporters' folders, removed once this block's servers have stopped. */
  const reporterDirs: string[] = [];
  afterAll(() => {
    for (const dir of reporterDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A module hook (node:module `register`) preloaded with --import: it prints every module the
   * process resolves whose URL names OpenTelemetry, so "never loaded" is observed, not assumed.
   */
  function importReporter(): string {
    const dir = mkdtempSync(join(tmpdir(), 'otel-imports-'));
    reporterDirs.push(dir);
    writeFileSync(
      join(dir, 'hooks.mjs'),
      'export async function resolve(specifier, context, next) {\n' +
        '  const resolved = await next(specifier, context);\n' +
        "  if (resolved.url.includes('opentelemetry')) process.stderr.write('OTEL-IMPORT ' + resolved.url + '\\n');\n" +
        '  return resolved;\n}\n',
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
    );
    return join(dir, 'register.mjs');
  }

  async function exerciseAndStop(env: Record<string, string>) {
    const { mcpUrl, child, stderr } = await startHttp({
      ...env,
      NODE_OPTIONS: `--import=${importReporter()}`,
    });
    await (await postModern(mcpUrl, 'tools/call', { name: 'add_task', arguments: { title: 'off' } })).text();
    await (
      await postModern(mcpUrl, 'tools/call', { name: 'get_weather', arguments: { location: 'Atlantis' } })
    ).text();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    // A stop soon after start must still be a clean one: exit 0, having sent what it had.
    expect(await exited, stderr()).toBe(0);
    return stderr();
  }

  /**
   * What this test's own server sent. Only its exports count: a process of another test file whose
   * receiver closed may still send a last batch to the same port, which the OS can give this
   * receiver next (seen once in CI: a stray `/v1/metrics`).
   */
  const sentBy = (service: string) =>
    receiver.requests.filter((request) => request.services.includes(service));

  it('by default: OpenTelemetry is never loaded and nothing is sent', async () => {
    const stderr = await exerciseAndStop({ OTEL_SERVICE_NAME: 'not-on-without-an-endpoint' });
    expect(stderr).not.toContain('OTEL-IMPORT');
    expect(sentBy('not-on-without-an-endpoint')).toEqual([]);
  });

  it('with OTEL_SDK_DISABLED=true, even with an endpoint set', async () => {
    const service = 'disabled-with-an-endpoint';
    const stderr = await exerciseAndStop({
      ...telemetryEnv(),
      OTEL_SERVICE_NAME: service,
      OTEL_SDK_DISABLED: 'true',
    });
    expect(stderr).not.toContain('OTEL-IMPORT');
    expect(sentBy(service)).toEqual([]);
  });

  it('the import reporter and the sender check themselves work: on, the SDK loads and sends', async () => {
    const service = 'on-with-an-endpoint';
    const stderr = await exerciseAndStop(telemetryEnv({ OTEL_SERVICE_NAME: service }));
    expect(stderr).toContain('OTEL-IMPORT');
    await receiver.waitForSpans((all) => all.length > 0);
    expect(sentBy(service).length).toBeGreaterThan(0);
  });
});

describe('settings', { timeout: TEST_TIMEOUT_MS }, () => {
  it('refuses a grpc protocol at start-up, naming the variable and what to use', async () => {
    const { child, stderr } = start([], { ...telemetryEnv(), OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr()).toContain(
      'OTEL_EXPORTER_OTLP_PROTOCOL="grpc": grpc is not supported here: use http/protobuf',
    );
  });
});
