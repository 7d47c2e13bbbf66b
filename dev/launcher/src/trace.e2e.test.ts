/**
 * One question, one trace, across three processes: `pnpm ask`'s launcher starts the MCP server and
 * the demo model, the agent's CLI asks, and all of them export OTLP/HTTP to a receiver in this test
 * (test-infra's, which decodes the real protocol). The trace must hold together: the agent's turn,
 * its model calls, its MCP client span, the server span under it, and the database span under that;
 * and a failed tool must say `tool_error` on both sides, inside an answer that was HTTP 200.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@mcp-workshop/shared/processes';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '@mcp-workshop/test-infra';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = promisify(execFile);
const RUN_TIMEOUT_MS = 45_000;

/** The attributes the closing note and the workshop module print for each span. */
export const SHOWN_ATTRIBUTES = [
  'gen_ai.operation.name',
  'gen_ai.request.model',
  'gen_ai.usage.input_tokens',
  'gen_ai.response.finish_reasons',
  'mcp.method.name',
  'gen_ai.tool.name',
  'mcp.protocol.version',
  'jsonrpc.request.id',
  'error.type',
  'db.system.name',
  'db.operation.name',
] as const;

let receiver: OtlpReceiver;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run "pnpm build" (pnpm test does it).`);
  receiver = await startOtlpReceiver();
});
afterAll(async () => receiver?.close());
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  receiver.clear();
});

/** `pnpm ask --json`, with telemetry on for the launcher's children and the agent alike. */
async function ask(question: string, extra: Record<string, string> = {}) {
  dataDir = mkdtempSync(join(tmpdir(), 'launcher-trace-'));
  const { stdout } = await run(process.execPath, [LAUNCHER, 'ask', '--json', question], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(await freePort()),
      DEMO_MODEL_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      // The server exports as spans end; the agent flushes before it exits anyway.
      OTEL_BSP_SCHEDULE_DELAY: '50',
      ...extra,
    },
    timeout: RUN_TIMEOUT_MS,
  });
  return JSON.parse(stdout) as {
    answer: string;
    traceId: string | null;
    toolCalls: Array<{ isError: boolean }>;
  };
}

function only(spans: readonly ReceivedSpan[], name: string, kind?: ReceivedSpan['kind']): ReceivedSpan {
  const found = spans.filter((span) => span.name === name && (kind === undefined || span.kind === kind));
  expect(found, `exactly one ${kind ?? ''} span named ${name}`).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

describe('pnpm ask with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('gives the whole question one trace, and tool_error on both sides of a failed call', async () => {
    const output = await ask('What is the weather in Atlantis?');
    expect(output.toolCalls[0]?.isError).toBe(true);
    const traceId = output.traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.name === 'tools/call get_weather' && span.kind === 'SERVER'),
    );
    const trace = spans.filter((span) => span.traceId === traceId);
    const turn = only(trace, 'invoke_agent mcp-workshop-agent');
    const client = only(trace, 'tools/call get_weather', 'CLIENT');
    const server = only(trace, 'tools/call get_weather', 'SERVER');
    const chats = trace.filter((span) => span.name === 'chat offline-demo-model');

    expect(turn.parentSpanId).toBeUndefined();
    expect(turn).toMatchObject({
      kind: 'INTERNAL',
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': 'openai' },
      resource: { 'service.name': 'mcp-workshop-agent' },
    });
    // The demo model asks for the tool, then answers: two model calls, each under the turn.
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat).toMatchObject({
        kind: 'CLIENT',
        parentSpanId: turn.spanId,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'offline-demo-model',
          'gen_ai.response.model': 'offline-demo-model',
        },
      });
      expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    }
    expect(chats.map((chat) => chat.attributes['gen_ai.response.finish_reasons'])).toEqual([
      ['tool_calls'],
      ['stop'],
    ]);

    expect(client.parentSpanId).toBe(turn.spanId);
    expect(server.parentSpanId).toBe(client.spanId);
    expect(server.resource['service.name']).toBe('mcp-workshop-server');
    for (const side of [client, server]) {
      expect(side.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'get_weather',
        'mcp.protocol.version': '2026-07-28',
        'error.type': 'tool_error',
      });
      expect(side.attributes['jsonrpc.request.id']).toBe(client.attributes['jsonrpc.request.id']);
      expect(side.status.code).toBe('ERROR');
    }
    expect(client.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'network.transport': 'tcp' });
    // Every span of the question is in the one trace.
    expect(new Set(trace.map((span) => span.traceId))).toEqual(new Set([traceId]));
    console.log(`\n${receiver.formatTrace(traceId as string, SHOWN_ATTRIBUTES)}\n`);
  });

  it('puts a database span under the server span of add_task', async () => {
    const output = await ask('Add a task: water the plants');
    const spans = await receiver.waitForSpans((all) => all.some((span) => span.name === 'INSERT tasks'));
    const trace = spans.filter((span) => span.traceId === output.traceId);
    const server = only(trace, 'tools/call add_task', 'SERVER');
    const insert = only(trace, 'INSERT tasks');
    expect(insert).toMatchObject({
      kind: 'CLIENT',
      parentSpanId: server.spanId,
      attributes: {
        'db.system.name': 'sqlite',
        'db.operation.name': 'INSERT',
        'db.collection.name': 'tasks',
      },
    });
    expect(server.parentSpanId).toBe(only(trace, 'tools/call add_task', 'CLIENT').spanId);
    expect(JSON.stringify(insert.attributes)).not.toContain('water the plants');
  });

  it('records arguments and results only when asked to, and cuts them', async () => {
    await ask('What is the weather in Atlantis?', {
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.name === 'tools/call get_weather' && span.kind === 'SERVER'),
    );
    for (const kind of ['CLIENT', 'SERVER'] as const) {
      const span = only(spans, 'tools/call get_weather', kind);
      expect(JSON.parse(String(span.attributes['gen_ai.tool.call.arguments']))).toEqual({
        location: 'Atlantis',
      });
      expect(String(span.attributes['gen_ai.tool.call.result'])).toContain('Unknown place');
    }
  });

  it('shows no trace id for a question the sampler left out, since no backend has it', async () => {
    const output = await ask('Calculate 2 + 2', { OTEL_TRACES_SAMPLER: 'always_off' });
    expect(output.answer).toContain('4');
    expect(output.traceId).toBeNull();
  });

  it('prints "traceId": null with telemetry off', async () => {
    const output = await ask('Calculate 2 + 2', { OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    expect(output.traceId).toBeNull();
    expect(receiver.requests).toHaveLength(0);
  });
});
