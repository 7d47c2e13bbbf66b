/**
 * Three replicas share one task list and one stream of notifications: a task added through replica
 * A is listed at once through B, C and the load balancer, and a client listening on C hears of a
 * write on A within 1 s, in both protocol eras. Prints the latencies it measured.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from './test-support/doc-figures.js';
import { expectSuccess, summarize } from './test-support/expect.js';
import { openGetStream } from './test-support/get-stream.js';
import { callTool, openSession, sessionRequest, taskOf, titlesOf } from './test-support/mcp.js';
import { startTopology, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** The bar: a listener on another replica hears of a write within one second. */
const CROSS_REPLICA_MS = 1_000;
/** Writes timed per era: enough for a median, few enough for a shared 2-core box. */
const SAMPLES = 5;
/** Replicas LISTEN in the background after they are ready; the first probe may need this long. */
const LISTEN_WARMUP_MS = 10_000;

describe.skipIf(!available)('three replicas sharing Postgres', () => {
  let topology: Topology;
  beforeAll(async () => {
    topology = await startTopology();
  });
  afterAll(async () => topology?.close());

  const replica = (index: number) => {
    const found = topology.replicas[index];
    if (!found) throw new Error(`no replica ${index}`);
    return found;
  };

  it('lists a task added through replica A at once through B, C and the load balancer', async () => {
    const title = `shared ${Date.now()}`;
    const added = taskOf(expectSuccess(await callTool(replica(0).mcpUrl, 'add_task', { title }), 'add on A'));
    expect(added?.title).toBe(title);
    // No waiting and no retry: the first list after the acknowledgement must hold the task.
    const where = [
      ['B', replica(1).mcpUrl],
      ['C', replica(2).mcpUrl],
      ['LB #1', topology.mcpUrl],
      ['LB #2', topology.mcpUrl],
      ['LB #3', topology.mcpUrl],
    ] as const;
    for (const [name, url] of where) {
      const listed = expectSuccess(await callTool(url, 'list_tasks'), `list on ${name}`);
      expect(titlesOf(listed), `list on ${name}`).toContain(title);
    }

    // And the other way round: a write through the load balancer is on every replica.
    const viaLb = `via lb ${Date.now()}`;
    expectSuccess(await callTool(topology.mcpUrl, 'add_task', { title: viaLb }), 'add through the LB');
    for (const each of topology.replicas) {
      const listed = expectSuccess(await callTool(each.mcpUrl, 'list_tasks'), `list on ${each.name}`);
      expect(titlesOf(listed)).toEqual(expect.arrayContaining([title, viaLb]));
    }
  });

  it('tells a 2025 session on C of a write on A within 1 s (resources/subscribe and list_changed)', async () => {
    const session = await openSession(replica(2).mcpUrl);
    if (session.kind !== 'ok') throw new Error(`initialize on C: ${session.reason}`);
    const stream = await openGetStream(replica(2).mcpUrl, session.value);
    try {
      await untilHeard(async () => {
        const since = performance.now();
        expectSuccess(await callTool(replica(0).mcpUrl, 'add_task', { title: 'probe' }), 'probe');
        await stream.waitFor(
          (message) => message.method === 'notifications/resources/list_changed',
          1_000,
          since,
        );
      });

      const listChanged: number[] = [];
      const updated: number[] = [];
      for (let i = 0; i < SAMPLES; i += 1) {
        // Let a coalesced announcement of the previous write pass, so it is not taken for this one's.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const sent = performance.now();
        const add = await callTool(replica(0).mcpUrl, 'add_task', { title: `heard on C ${i}` });
        const task = taskOf(expectSuccess(add, 'add on A'));
        const { at } = await stream.waitFor(
          (message) => message.method === 'notifications/resources/list_changed',
          CROSS_REPLICA_MS,
          sent,
        );
        listChanged.push(at - sent);

        const uri = `tasks://${task?.id}`;
        const subscribe = await sessionRequest(replica(2).mcpUrl, session.value, {
          jsonrpc: '2.0',
          id: 3,
          method: 'resources/subscribe',
          params: { uri },
        });
        expect(subscribe.kind === 'ok' && subscribe.value.result).toEqual({});
        const completing = performance.now();
        expectSuccess(await callTool(replica(0).mcpUrl, 'complete_task', { id: task?.id }), 'complete on A');
        const heard = await stream.waitFor(
          (message) => message.method === 'notifications/resources/updated' && message.params?.uri === uri,
          CROSS_REPLICA_MS,
          completing,
        );
        updated.push(heard.at - completing);
      }
      reportFigure(`[scale-e2e] 2025 session on C, write on A → list_changed: ${summarize(listChanged)}`);
      reportFigure(`[scale-e2e] 2025 session on C, complete on A → resources/updated: ${summarize(updated)}`);
      expect(Math.max(...listChanged, ...updated)).toBeLessThan(CROSS_REPLICA_MS);
    } finally {
      stream.close();
    }
  });

  it('tells a 2026-07-28 subscriptions/listen stream on C of a write on A within 1 s', async () => {
    const client = new Client({ name: 'scale-e2e', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(replica(2).mcpUrl)));
    const heard: number[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => {
      heard.push(performance.now());
    });
    const subscription = await client.listen({ resourcesListChanged: true });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const waitHeard = async (count: number, timeoutMs: number) => {
        const deadline = performance.now() + timeoutMs;
        while (heard.length < count) {
          if (performance.now() > deadline) throw new Error(`not heard within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        return heard[count - 1] ?? 0;
      };
      await untilHeard(async () => {
        const before = heard.length;
        expectSuccess(await callTool(replica(0).mcpUrl, 'add_task', { title: 'probe' }), 'probe');
        await waitHeard(before + 1, 1_000);
      });

      const latencies: number[] = [];
      for (let i = 0; i < SAMPLES; i += 1) {
        // Let a coalesced announcement of the previous write pass before timing the next one.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const before = heard.length;
        const sent = performance.now();
        expectSuccess(
          await callTool(replica(0).mcpUrl, 'add_task', { title: `listened on C ${i}` }),
          'add on A',
        );
        latencies.push((await waitHeard(before + 1, CROSS_REPLICA_MS)) - sent);
      }
      reportFigure(`[scale-e2e] 2026-07-28 listen on C, write on A → list_changed: ${summarize(latencies)}`);
      expect(Math.max(...latencies)).toBeLessThan(CROSS_REPLICA_MS);
    } finally {
      await subscription.close();
      await client.close();
    }
  });
});

/** Retries `probe` until it passes or LISTEN_WARMUP_MS is over: the replicas LISTEN after they are ready. */
async function untilHeard(probe: () => Promise<void>): Promise<void> {
  const deadline = performance.now() + LISTEN_WARMUP_MS;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (performance.now() > deadline) throw error;
    }
  }
}
