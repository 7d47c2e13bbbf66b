/**
 * Postgres stops and starts again while clients keep calling: the task tools answer `isError` while
 * it is down, directly and through HAProxy (other tools keep working, readiness says 503), and every replica serves tasks again
 * afterwards without a restart of its own. Acknowledged writes survive. Prints the recovery times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from './test-support/doc-figures.js';
import { expectSuccess, tally } from './test-support/expect.js';
import { callTool, type Outcome, type ToolResult, taskOf, textOf } from './test-support/mcp.js';
import { startTopology, TASKS_TABLE, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** How long every replica gets to serve tasks again once Postgres is back: the pool reconnects by itself. */
const RECOVERY_MS = 15_000;
const POLL_MS = 50;
/** Callers that keep going through the restart, one per replica, each with a bounded count of calls. */
const MAX_CALLS_PER_CALLER = 2_000;
const CALL_PAUSE_MS = 20;
/** fall 2 × inter 500 ms in haproxy.cfg, plus slack for a busy box. */
const LB_NOTICES_MS = 4_000;
/** Readiness may be cached for a moment by the server; it must turn within this. */
const READINESS_TURN_MS = 3_000;

async function expectReadiness(baseUrl: string, status: number): Promise<void> {
  const deadline = performance.now() + READINESS_TURN_MS;
  let last = 0;
  while (performance.now() < deadline) {
    last = (await fetch(`${baseUrl}/health/ready`)).status;
    if (last === status) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${baseUrl}/health/ready answered ${last}, not ${status}, for ${READINESS_TURN_MS} ms`);
}

describe.skipIf(!available)('Postgres restarted in the middle of calls', () => {
  let topology: Topology;
  beforeAll(async () => {
    topology = await startTopology();
  });
  afterAll(async () => topology?.close());

  it('answers isError while Postgres is down and recovers with no restart of the servers', async () => {
    const pids = topology.replicas.map((replica) => replica.pid);
    let running = true;
    const seen: Array<{ title: string; outcome: Outcome<ToolResult> }> = [];
    const callers = topology.replicas.map(async (replica) => {
      for (let i = 0; running && i < MAX_CALLS_PER_CALLER; i += 1) {
        const title = `through restart ${replica.name}-${i}`;
        seen.push({ title, outcome: await callTool(replica.mcpUrl, 'add_task', { title }) });
        await new Promise((resolve) => setTimeout(resolve, CALL_PAUSE_MS));
      }
    });

    await new Promise((resolve) => setTimeout(resolve, 300));
    await topology.postgres.stopServer();
    const stoppedAt = performance.now();
    let lbFellBackAfterMs = 0;
    try {
      for (const replica of topology.replicas) {
        const add = await callTool(replica.mcpUrl, 'add_task', { title: 'while down' });
        expect(
          add.kind === 'ok' && add.value.isError,
          `add_task on ${replica.name}: ${JSON.stringify(add)}`,
        ).toBe(true);
        if (add.kind === 'ok') expect(textOf(add.value)).toMatch(/database/i);
        const list = await callTool(replica.mcpUrl, 'list_tasks');
        expect(list.kind === 'ok' && list.value.isError, `list_tasks on ${replica.name}`).toBe(true);
        // The tools that need no database keep working.
        expectSuccess(
          await callTool(replica.mcpUrl, 'get_time', { timezone: 'UTC' }),
          `get_time on ${replica.name}`,
        );
        expect((await fetch(`${replica.baseUrl}/health`)).status).toBe(200);
        await expectReadiness(replica.baseUrl, 503);
      }
      // HAProxy's readiness checks see the 503s and find no replica ready: it then sends everything to
      // the live replicas (its mcp-live fallback), so through it too the task tools answer isError and
      // the other tools work. Never an HTTP error, never a wrong answer.
      const lbDeadline = performance.now() + LB_NOTICES_MS;
      while (!/mcp-servers has no server available/.test(topology.lb.log())) {
        if (performance.now() > lbDeadline) throw new Error('HAProxy never found every replica unready');
        const add = await callTool(topology.mcpUrl, 'add_task', { title: 'while down via LB' });
        expect(add.kind === 'ok' && add.value.isError, `through the LB: ${JSON.stringify(add)}`).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      lbFellBackAfterMs = Math.round(performance.now() - stoppedAt);
      for (let i = 0; i < 6; i += 1) {
        const add = await callTool(topology.mcpUrl, 'add_task', { title: 'while down via LB' });
        expect(add.kind === 'ok' && add.value.isError, `via the fallback: ${JSON.stringify(add)}`).toBe(true);
        if (add.kind === 'ok') expect(textOf(add.value)).toMatch(/database/i);
        expectSuccess(
          await callTool(topology.mcpUrl, 'get_time', { timezone: 'UTC' }),
          'get_time via the LB',
        );
      }
    } finally {
      await topology.postgres.start();
    }
    const downMs = performance.now() - stoppedAt;
    const startedAt = performance.now();

    const recovered: Record<string, number> = {};
    for (const replica of topology.replicas) {
      const deadline = startedAt + RECOVERY_MS;
      for (;;) {
        const add = await callTool(replica.mcpUrl, 'add_task', { title: `after restart ${replica.name}` });
        if (add.kind === 'ok' && !add.value.isError) break;
        if (performance.now() > deadline)
          throw new Error(`${replica.name} did not recover: ${JSON.stringify(add)}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      recovered[replica.name] = Math.round(performance.now() - startedAt);
    }
    // Through the load balancer too, once the health checks have put the replicas back (rise 1).
    const lbDeadline = performance.now() + RECOVERY_MS;
    for (;;) {
      const add = await callTool(topology.mcpUrl, 'add_task', { title: 'after restart via LB' });
      if (add.kind === 'ok' && !add.value.isError) break;
      expect(add.kind, `through the LB: ${JSON.stringify(add)}`).not.toBe('unexpected');
      if (performance.now() > lbDeadline) throw new Error(`the LB did not recover: ${JSON.stringify(add)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const lbRecoveredMs = Math.round(performance.now() - startedAt);
    running = false;
    await Promise.all(callers);

    // The same processes, never restarted.
    expect(topology.replicas.map((replica) => replica.pid)).toEqual(pids);
    expect(topology.replicas.map((replica) => replica.exited())).toEqual([false, false, false]);
    // Talking to a replica directly, a call is a result (maybe isError), never a 5xx or a hang.
    expect(
      seen.filter((entry) => entry.outcome.kind !== 'ok').map((entry) => JSON.stringify(entry.outcome)),
    ).toEqual([]);
    // Every acknowledged write is stored, once.
    const acked = seen.filter((entry) => entry.outcome.kind === 'ok' && !entry.outcome.value.isError);
    const rows = await topology.query<{ title: string; n: string }>(
      `select title, count(*) as n from ${TASKS_TABLE} where title like 'through restart %' group by title`,
    );
    const stored = new Map(rows.map((row) => [row.title, Number(row.n)]));
    for (const entry of acked) {
      expect(stored.get(entry.title), entry.title).toBe(1);
      expect(taskOf((entry.outcome as { value: ToolResult }).value)?.title).toBe(entry.title);
    }
    const kinds = tally(
      seen.map((entry) =>
        entry.outcome.kind === 'ok' ? (entry.outcome.value.isError ? 'isError' : 'ok') : entry.outcome.kind,
      ),
    );
    reportFigure(
      `[scale-e2e] Postgres down ${Math.round(downMs)} ms (HAProxy found no replica ready after ${lbFellBackAfterMs} ms and served from the live ones); replicas serving tasks again after ` +
        `${JSON.stringify(recovered)} ms, through HAProxy after ${lbRecoveredMs} ms; calls during the restart ${JSON.stringify(kinds)}`,
    );
  });
});
