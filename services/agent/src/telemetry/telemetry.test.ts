/**
 * The agent's MCP telemetry against real servers and a real OTLP receiver: client spans over stdio
 * and in a 2025 session, each with the workshop server's span under it in one trace; failures as
 * the client sees them (a tool error, a JSON-RPC error, a timeout); and the trace context the
 * transport puts in every request's `_meta`. The HTTP 2026-07-28 path through `pnpm ask` is
 * `dev/launcher/src/trace.e2e.test.ts`; telemetry off is `telemetry-off.test.ts`.
 * OpenTelemetry's globals are set here, so this file runs on its own (vitest isolates files).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '@mcp-workshop/test-infra';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAgentEnv } from '../env.js';
import type { ModelDescription } from '../llm/provider.js';
import type { ServerSpec } from '../mcp/config.js';
import { type ConnectedServer, connectServer } from '../mcp/connect.js';
import { createMcpHub, type QualifiedMcpHub } from '../mcp/hub.js';
import { silentLogger } from '../mcp/test-support/logger.js';
import type { ServedFetch } from '../mcp/test-support/serve-fetch.js';
import { startLegacyOnlyProxy } from '../test-support/legacy-only-proxy.js';
import {
  BACKEND_DOWN_CODE,
  type MinimalMcpServer,
  startMinimalMcpServer,
} from '../test-support/minimal-mcp-server.js';
import {
  SERVER_DIST_ENTRY,
  startWorkshopProcess,
  type WorkshopProcess,
} from '../test-support/workshop-process.js';
import type { TurnResult } from '../trace.js';
import type { InputHandler } from '../types.js';
import { startAgentTelemetry } from './start.js';
import type { AgentTelemetry } from './types.js';

const clientInfo = { name: 'agent-telemetry-test', version: '0.0.0' };
const refuseInput: InputHandler = async () => ({ action: 'decline' });
const logger = silentLogger();
/** Generous for a local call; the timeout test uses its own short one. */
const CALL_TIMEOUT_MS = 5_000;
/** Far below `sleep`'s 5 s, so the timeout test takes a fraction of a second. */
const SHORT_TIMEOUT_MS = 200;
const MODEL: ModelDescription = {
  kind: 'custom',
  model: 'test-model',
  baseUrl: 'http://127.0.0.1:9/v1',
  api: 'chat',
  label: 'not called',
};
/** 32 hex digits of trace id, 16 of parent span id: W3C `traceparent`, version 00. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let receiver: OtlpReceiver;
let telemetry: AgentTelemetry;
/** Closed in afterAll, newest first: connections before the servers they talk to. */
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  telemetry = startAgentTelemetry(loadAgentEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }), MODEL);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await telemetry?.shutdown();
  // Leave no tracer provider, propagator or context manager behind for whatever runs next.
  trace.disable();
  context.disable();
  propagation.disable();
  metrics.disable();
  await receiver?.close();
});

/** The server's env for telemetry: our receiver, and spans sent as they end rather than every 5 s. */
const serverTelemetryEnv = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_BSP_SCHEDULE_DELAY: '50',
});

async function connect(spec: ServerSpec): Promise<{ server: ConnectedServer; hub: QualifiedMcpHub }> {
  const server = await connectServer(spec, {
    clientInfo,
    onInput: refuseInput,
    logger,
    tracing: telemetry.mcp,
  });
  const hub = createMcpHub([server], logger);
  closers.push(() => hub.close());
  return { server, hub };
}

/** Runs `work` as one agent turn (an `invoke_agent` span) and returns the turn's trace id. */
async function inTurn(work: () => Promise<unknown>): Promise<string> {
  const result = await telemetry.turn('conversation-1', async (): Promise<TurnResult> => {
    await work();
    return {
      answer: '',
      conversationId: 'conversation-1',
      toolCalls: [],
      rounds: 0,
      stoppedBecause: 'answer',
      serverLogs: [],
    };
  });
  expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
  return result.traceId ?? '';
}

/** Sends the agent's buffered spans, then waits until one span matches each of `wanted`. */
async function spansFor(...wanted: Array<(span: ReceivedSpan) => boolean>): Promise<ReceivedSpan[]> {
  await telemetry.flush();
  const all = await receiver.waitForSpans((spans) => wanted.every((match) => spans.some(match)));
  return wanted.map((match) => all.find(match) as ReceivedSpan);
}

const named =
  (name: string, kind: ReceivedSpan['kind'], traceId?: string) =>
  (span: ReceivedSpan): boolean =>
    span.name === name && span.kind === kind && (traceId === undefined || span.traceId === traceId);

describe('agent telemetry over stdio with the workshop server', () => {
  let hub: QualifiedMcpHub;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-telemetry-stdio-'));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    ({ hub } = await connect({
      transport: 'stdio',
      name: 'workshop',
      command: process.execPath,
      args: [SERVER_DIST_ENTRY, '--stdio'],
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...serverTelemetryEnv() },
    }));
  });

  it('puts the server span under the client span, in the turn trace, both over a pipe', async () => {
    const traceId = await inTurn(async () => {
      const outcome = await hub.callTool(
        'workshop',
        'get_time',
        { timezone: 'UTC' },
        { timeoutMs: CALL_TIMEOUT_MS },
      );
      expect(outcome).toHaveProperty('result');
    });
    const [turn, client, server] = await spansFor(
      named('invoke_agent mcp-workshop-agent', 'INTERNAL', traceId),
      named('tools/call get_time', 'CLIENT', traceId),
      named('tools/call get_time', 'SERVER', traceId),
    );
    expect(client?.parentSpanId).toBe(turn?.spanId);
    expect(server?.parentSpanId).toBe(client?.spanId);
    expect(client?.attributes).toMatchObject({
      'network.transport': 'pipe',
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_time',
      'mcp.protocol.version': '2026-07-28',
    });
    expect(client?.attributes).not.toHaveProperty('server.address');
    expect(client?.attributes).not.toHaveProperty('server.port');
    expect(server?.attributes).toMatchObject({ 'network.transport': 'pipe', 'gen_ai.tool.name': 'get_time' });
    expect(server?.attributes['jsonrpc.request.id']).toBeDefined();
    expect(server?.attributes['jsonrpc.request.id']).toBe(client?.attributes['jsonrpc.request.id']);
    expect(client?.resource['service.name']).toBe('mcp-workshop-agent');
    expect(server?.resource['service.name']).toBe('mcp-workshop-server');
    expect([client?.status.code, server?.status.code]).toEqual(['UNSET', 'UNSET']);
  });
});

describe('agent telemetry in a 2025 session over HTTP with the workshop server', () => {
  let workshop: WorkshopProcess;
  let proxy: ServedFetch;
  let server: ConnectedServer;
  let hub: QualifiedMcpHub;
  beforeAll(async () => {
    workshop = await startWorkshopProcess(serverTelemetryEnv());
    closers.push(() => workshop.close());
    proxy = await startLegacyOnlyProxy(workshop.mcpUrl);
    closers.push(() => proxy.close());
    ({ server, hub } = await connect({ transport: 'http', name: 'workshop', url: proxy.url }));
  });

  it('connects in the 2025 era, through the fallback', () => {
    expect(server.info).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
  });

  it('tags the client span with the session and version, and the server span is its child', async () => {
    const traceId = await inTurn(async () => {
      const outcome = await hub.callTool(
        'workshop',
        'get_time',
        { timezone: 'UTC' },
        { timeoutMs: CALL_TIMEOUT_MS },
      );
      expect(outcome).toHaveProperty('result');
    });
    const [client, serverSpan] = await spansFor(
      named('tools/call get_time', 'CLIENT', traceId),
      named('tools/call get_time', 'SERVER', traceId),
    );
    const session = client?.attributes['mcp.session.id'];
    expect(session).toEqual(expect.any(String));
    expect(client?.attributes).toMatchObject({
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'server.address': '127.0.0.1',
      'server.port': proxy.port,
    });
    expect(serverSpan?.parentSpanId).toBe(client?.spanId);
    expect(serverSpan?.attributes).toMatchObject({
      'mcp.session.id': session,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'jsonrpc.request.id': client?.attributes['jsonrpc.request.id'],
    });
  });
});

describe('agent telemetry for calls that fail', () => {
  let minimal: MinimalMcpServer;
  let server: ConnectedServer;
  let hub: QualifiedMcpHub;
  beforeAll(async () => {
    minimal = await startMinimalMcpServer();
    closers.push(() => minimal.close());
    ({ server, hub } = await connect({ transport: 'http', name: 'minimal', url: minimal.url }));
  });

  it('says tool_error for an isError result, and counts it in mcp.client.tool.errors', async () => {
    const outcome = await hub.callTool(
      'minimal',
      'find_city',
      { city: 'Osloo' },
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    expect(outcome.result?.isError).toBe(true);
    const [client] = await spansFor(named('tools/call find_city', 'CLIENT'));
    expect(client?.attributes['error.type']).toBe('tool_error');
    expect(client?.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(client?.status.code).toBe('ERROR');

    const found = await receiver.waitForMetrics((all) =>
      all.some(
        (metric) =>
          metric.name === 'mcp.client.tool.errors' &&
          metric.points.some((point) => point.attributes['gen_ai.tool.name'] === 'find_city'),
      ),
    );
    const counter = found.filter((metric) => metric.name === 'mcp.client.tool.errors').at(-1);
    expect(counter?.kind).toBe('sum');
    const point = counter?.points.find(
      (candidate) => candidate.attributes['gen_ai.tool.name'] === 'find_city',
    );
    expect(point?.value).toBe(1);
    expect(point?.attributes).toMatchObject({ 'error.type': 'tool_error', 'mcp.method.name': 'tools/call' });
    // Ids are for spans: one series per request would swamp a metrics backend.
    expect(point?.attributes).not.toHaveProperty('jsonrpc.request.id');
  });

  it('records the JSON-RPC code as a string for an error answer', async () => {
    const outcome = await hub.callTool('minimal', 'backend_down', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome.failure?.kind).toBe('jsonrpc');
    const [client] = await spansFor(named('tools/call backend_down', 'CLIENT'));
    expect(client?.attributes).toMatchObject({
      'error.type': String(BACKEND_DOWN_CODE),
      'rpc.response.status_code': String(BACKEND_DOWN_CODE),
    });
    // A fixed phrase: the server's own message ("The inventory backend is unavailable") stays off the span.
    expect(client?.status).toEqual({ code: 'ERROR', message: `JSON-RPC error ${BACKEND_DOWN_CODE}` });
  });

  it('records a JSON-RPC error for a tool the server does not know, called on the client directly', async () => {
    await expect(server.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow();
    const [client] = await spansFor(named('tools/call no_such_tool', 'CLIENT'));
    expect(client?.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    });
    expect(client?.status.code).toBe('ERROR');
  });

  it('ends a call that timed out as an error, with an error.type', async () => {
    const outcome = await hub.callTool('minimal', 'sleep', { ms: 5_000 }, { timeoutMs: SHORT_TIMEOUT_MS });
    expect(outcome.failure?.kind).toBe('timeout');
    const [client] = await spansFor(named('tools/call sleep', 'CLIENT'));
    expect(client?.attributes['error.type']).toEqual(expect.stringMatching(/\S/));
    expect(client?.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(client?.status.code).toBe('ERROR');
    // The server heard the cancel and never answered: the span ended on the timeout, not on a reply.
    await vi.waitFor(() =>
      expect(minimal.calls.filter((call) => call.tool === 'sleep').at(-1)?.aborted).toBe(true),
    );
  });
});

describe('trace context in each request _meta', () => {
  let minimal: MinimalMcpServer;
  let server: ConnectedServer;
  let hub: QualifiedMcpHub;
  beforeAll(async () => {
    minimal = await startMinimalMcpServer();
    closers.push(() => minimal.close());
    ({ server, hub } = await connect({ transport: 'http', name: 'minimal', url: minimal.url }));
  });

  it('carries the traceparent of its own client span on tools/list', async () => {
    const list = minimal.requests.find((request) => request.method === 'tools/list');
    const match = TRACEPARENT.exec(String(list?.meta?.traceparent));
    expect(match, `tools/list _meta: ${JSON.stringify(list?.meta)}`).not.toBeNull();
    const [client] = await spansFor(named('tools/list', 'CLIENT'));
    const listSpans = receiver.spans.filter((span) => span.name === 'tools/list' && span.kind === 'CLIENT');
    expect(listSpans.map((span) => span.spanId)).toContain(match?.[2]);
    expect(client).toBeDefined();
  });

  it('carries the turn trace and its baggage on tools/call, and keeps the SDK envelope keys', async () => {
    const before = minimal.requests.length;
    const baggage = propagation.createBaggage({ 'workshop.tenant': { value: 'acme' } });
    const traceId = await context.with(propagation.setBaggage(context.active(), baggage), () =>
      inTurn(async () => {
        await hub.callTool('minimal', 'plain_text', {}, { timeoutMs: CALL_TIMEOUT_MS });
        await server.client.callTool({
          name: 'get_temperature',
          arguments: { city: 'Oslo' },
          _meta: { 'example.com/request-tag': 'kept' },
        });
      }),
    );
    const calls = minimal.requests.slice(before).filter((request) => request.method === 'tools/call');
    expect(calls).toHaveLength(2);
    const [plain, tagged] = await spansFor(
      named('tools/call plain_text', 'CLIENT', traceId),
      named('tools/call get_temperature', 'CLIENT', traceId),
    );
    for (const [request, span] of [
      [calls[0], plain],
      [calls[1], tagged],
    ] as const) {
      // The parent the server sees is the client span of that very request, in the turn's trace.
      expect(request?.meta?.traceparent).toEqual(expect.stringMatching(TRACEPARENT));
      expect(String(request?.meta?.traceparent).split('-').slice(1, 3)).toEqual([traceId, span?.spanId]);
      expect(request?.meta?.baggage).toBe('workshop.tenant=acme');
      // The SDK's 2026-07-28 envelope is still there beside the trace keys.
      expect(request?.meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    }
    // The hub asks for progress; a caller's own key survives too.
    expect(calls[0]?.meta).toHaveProperty('progressToken');
    expect(calls[1]?.meta?.['example.com/request-tag']).toBe('kept');
  });

  it('stamps every request that has a client span, a call outside any turn too', async () => {
    await hub.callTool('minimal', 'plain_text', {}, { timeoutMs: CALL_TIMEOUT_MS });
    // The SDK sends two requests on the transport itself, outside any span: the era probe, before
    // the protocol is attached, and the change subscription it opens in the background after
    // connecting, which lasts as long as the connection. With no active span there is no context
    // to send (baggage set by a caller would still go).
    const background = new Set(['server/discover', 'subscriptions/listen']);
    const methods = minimal.requests.map((request) => request.method);
    expect(methods).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    const unstamped = minimal.requests.filter(
      (request) => !background.has(request.method) && typeof request.meta?.traceparent !== 'string',
    );
    expect(unstamped).toEqual([]);
  });
});
