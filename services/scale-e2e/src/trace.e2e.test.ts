/**
 * A trace through the load balancer: three replicas export OTLP/HTTP to one receiver in the test,
 * each naming itself in `service.instance.id`. Requests carrying a `_meta.traceparent` reach
 * whichever replica HAProxy picks, and each replica's server span joins the caller's trace, with a
 * Postgres statement span under it. The resource says which replica answered.
 */
import { randomBytes } from 'node:crypto';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSuccess } from './test-support/expect.js';
import { callTool } from './test-support/mcp.js';
import { startTopology, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');
/** Enough calls that round-robin over three replicas reaches each of them at least once. */
const CALLS = 9;

describe.skipIf(!available)('tracing through HAProxy', () => {
  let receiver: OtlpReceiver;
  let topology: Topology;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    topology = await startTopology({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
  });
  afterAll(async () => {
    await topology?.close();
    await receiver?.close();
  });

  it("puts each replica's server span in the caller's trace, and says which replica answered", async () => {
    const callers = Array.from({ length: CALLS }, () => ({
      traceId: randomBytes(16).toString('hex'),
      spanId: randomBytes(8).toString('hex'),
    }));
    for (const [index, caller] of callers.entries()) {
      const traceparent = `00-${caller.traceId}-${caller.spanId}-01`;
      expectSuccess(
        await callTool(topology.mcpUrl, 'add_task', { title: `traced ${index}` }, { traceparent }),
        `add ${index}`,
      );
    }

    const spans = await receiver.waitForSpans(
      (all) => all.filter((span) => span.name === 'INSERT tasks').length >= CALLS,
    );
    const replicasSeen = new Set<unknown>();
    for (const caller of callers) {
      const trace = spans.filter((span) => span.traceId === caller.traceId);
      const server = trace.find((span) => span.name === 'tools/call add_task') as ReceivedSpan;
      expect(server, `the server span of trace ${caller.traceId}`).toBeDefined();
      expect(server.parentSpanId).toBe(caller.spanId);
      const replica = server.resource['service.instance.id'];
      expect(replica).toMatch(/^replica-[ABC]$/);
      replicasSeen.add(replica);
      const insert = trace.find((span) => span.name === 'INSERT tasks');
      expect(insert).toMatchObject({
        parentSpanId: server.spanId,
        resource: { 'service.instance.id': replica },
        attributes: {
          'db.system.name': 'postgresql',
          'db.operation.name': 'INSERT',
          'db.namespace': 'scale',
          'server.address': '127.0.0.1',
        },
      });
    }
    expect([...replicasSeen].sort()).toEqual(['replica-A', 'replica-B', 'replica-C']);
    console.log(
      `[scale-e2e] ${CALLS} traced calls through HAProxy, server spans from ${[...replicasSeen].sort().join(', ')}`,
    );
  });
});
