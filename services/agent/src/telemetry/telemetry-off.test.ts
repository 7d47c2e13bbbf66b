/**
 * Telemetry off, the default: no endpoint means `startTelemetryFor` starts nothing, and a
 * connection made without `tracing` sends requests whose `_meta` holds no trace context at all.
 * Its own file, so that no OpenTelemetry global from `telemetry.test.ts` can be in effect here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentEnv } from '../env.js';
import type { ModelProvider } from '../llm/provider.js';
import { connectServer } from '../mcp/connect.js';
import { createMcpHub, type QualifiedMcpHub } from '../mcp/hub.js';
import { silentLogger } from '../mcp/test-support/logger.js';
import { startTelemetryFor } from '../runtime.js';
import { type MinimalMcpServer, startMinimalMcpServer } from '../test-support/minimal-mcp-server.js';

const logger = silentLogger();
const CALL_TIMEOUT_MS = 5_000;
const model: ModelProvider = {
  description: {
    kind: 'custom',
    model: 'test-model',
    baseUrl: 'http://127.0.0.1:9/v1',
    api: 'chat',
    label: 'not called',
  },
  complete: () => Promise.reject(new Error('no model call in this test')),
};

describe('agent telemetry when off', () => {
  let minimal: MinimalMcpServer;
  let hub: QualifiedMcpHub;
  beforeAll(async () => {
    minimal = await startMinimalMcpServer();
  });
  afterAll(async () => {
    await hub?.close();
    await minimal?.close();
  });

  it('starts nothing without an OTLP endpoint, nor with one and OTEL_SDK_DISABLED', async () => {
    expect(await startTelemetryFor(loadAgentEnv({}), model)).toBeUndefined();
    expect(
      await startTelemetryFor(
        loadAgentEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }),
        model,
      ),
    ).toBeUndefined();
  });

  it('puts no trace context in the _meta of any request', async () => {
    const server = await connectServer(
      { transport: 'http', name: 'minimal', url: minimal.url },
      {
        clientInfo: { name: 'agent-test', version: '0.0.0' },
        onInput: async () => ({ action: 'decline' }),
        logger,
      },
    );
    hub = createMcpHub([server], logger);
    const outcome = await hub.callTool('minimal', 'plain_text', {}, { timeoutMs: CALL_TIMEOUT_MS });
    expect(outcome).toHaveProperty('result');

    const methods = minimal.requests.map((request) => request.method);
    expect(methods).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    const call = minimal.requests.find((request) => request.method === 'tools/call');
    // The envelope is there, so the check below looks at a real `_meta`, not a missing one.
    expect(call?.meta).toHaveProperty('io.modelcontextprotocol/protocolVersion', '2026-07-28');
    for (const request of minimal.requests) {
      expect(request.meta ?? {}).not.toHaveProperty('traceparent');
      expect(request.meta ?? {}).not.toHaveProperty('tracestate');
      expect(request.meta ?? {}).not.toHaveProperty('baggage');
    }
  });
});
