/**
 * MCP Tasks (SEP-2663) across three replicas on one Postgres behind HAProxy: any replica answers
 * `tasks/get` for a task another one made; HAProxy spreads `tasks/*` round-robin and a cancel sent
 * to another replica stops the run; and a `generate_report` task whose replica is killed (kill -9)
 * is finished by another replica within a minute, from its last recorded section. A listen stream
 * on any replica hears the status of a task another one runs. Prints the
 * takeover time it measured.
 */
import { openListenStream } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from './test-support/doc-figures.js';
import { requestsPerReplica } from './test-support/expect.js';
import { requestModern, type ToolResult } from './test-support/mcp.js';
import type { Replica } from './test-support/replica.js';
import {
  cancelTask,
  createTask,
  expectResult,
  expectTask,
  pollTask,
  sectionOf,
  type TaskView,
  WITH_TASKS,
} from './test-support/tasks.js';
import { startTopology, type Topology, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** Finishes in well under a second: for the reads. */
const QUICK = { topic: 'cities', steps: 3, delayMs: 200 };
/** 20 s: still working whenever a cancel arrives. */
const SLOW = { topic: 'cities', steps: 20, delayMs: 1_000 };
/** The one killed mid-way: 12 s of sections, so most of them are left when its replica dies. */
const KILLED = { topic: 'cities', steps: 8, delayMs: 1_500 };
/** Sections A finishes before it is killed, so the replica that takes over has work not to redo. */
const SECTIONS_BEFORE_KILL = 3;
/** Several polls per section: a section built again would hold its message for a whole delayMs. */
const POLL_MS = 250;
/** A few sections' worth on a 2-core box shared with other tests: slack, not a hang. */
const SECTIONS_WAIT_MS = 30_000;
/** What we promise: a task whose replica died is finished elsewhere within a minute of the death. */
const TAKEOVER_BOUND_MS = 60_000;
/** A running task notices a cancel within CANCEL_CHECK_MS (500 ms); a section in flight ends within delayMs. Watch past both. */
const AFTER_CANCEL_MS = 3_000;
/** HAProxy writes a request's log line as it ends; this long for it to reach the file. */
const LOG_WAIT_MS = 2_000;
/** The runs' steps, read straight from Postgres: what a replica recorded before it died. */
const RUN_STEPS_TABLE = 'mcp_run_steps';

describe.skipIf(!available)('MCP Tasks across replicas', () => {
  let topology: Topology;
  beforeAll(async () => {
    topology = await startTopology();
  });
  afterAll(async () => {
    // A test that failed while replicas were frozen must not leave them stopped for close() to wait on.
    for (const replica of topology?.replicas ?? []) replica.thaw();
    await topology?.close();
  });

  const replica = (index: number): Replica => {
    const found = topology.replicas[index];
    if (!found) throw new Error(`no replica ${index}`);
    return found;
  };

  /**
   * Makes the task on `runner` while the other replicas are frozen (SIGSTOP), until its first
   * section is done: the queue gives a new task to whichever replica fetches first (the one that
   * made it, nearly always), and a test that cancels or kills "the replica running it" must know.
   */
  async function createOn(runner: Replica, args: Record<string, unknown>): Promise<TaskView> {
    const others = topology.replicas.filter((each) => each !== runner);
    for (const other of others) other.freeze();
    try {
      const task = await createTask(runner.mcpUrl, 'generate_report', args);
      await pollTask(runner.mcpUrl, task.taskId, {
        until: (seen) => sectionOf(seen) >= 1,
        timeoutMs: SECTIONS_WAIT_MS,
        intervalMs: POLL_MS,
      });
      return task;
    } finally {
      for (const other of others) other.thaw();
    }
  }

  async function recordedSteps(taskId: string): Promise<number> {
    const [row] = await topology.query<{ n: number }>(
      `select count(*)::int as n from ${RUN_STEPS_TABLE} where run_id = $1`,
      [taskId],
    );
    return row?.n ?? 0;
  }

  /** Requests per replica in HAProxy's log after `from` (a length of it), once `count` lines are there. */
  async function servedSince(from: number, count: number): Promise<Record<string, number>> {
    const deadline = Date.now() + LOG_WAIT_MS;
    for (;;) {
      const served = requestsPerReplica(topology.lb.log().slice(from));
      const total = Object.values(served).reduce((sum, n) => sum + n, 0);
      if (total >= count || Date.now() > deadline) return served;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Cancelled for good: every replica answers the same task now as right after the cancel, and no step was recorded since. */
  async function expectStopped(taskId: string, cancelledThrough: string): Promise<void> {
    const atCancel = await expectTask(
      topology.mcpUrl,
      taskId,
      `tasks/get after the cancel through ${cancelledThrough}`,
    );
    expect(atCancel.status).toBe('cancelled');
    const steps = await recordedSteps(taskId);
    await new Promise((resolve) => setTimeout(resolve, AFTER_CANCEL_MS));
    for (const each of topology.replicas) {
      const later = await expectTask(each.mcpUrl, taskId, `tasks/get on ${each.name}, later`);
      expect(later, `${each.name}: no progress after the cancel`).toEqual(atCancel);
    }
    expect(await recordedSteps(taskId), 'steps recorded after the cancel').toBe(steps);
  }

  it('answers tasks/get for a task made on A from every replica, directly and through HAProxy', async () => {
    const created = await createTask(replica(0).mcpUrl, 'generate_report', QUICK);
    expect(created.status).toBe('working');
    // At once, on each replica's own port: the task is in Postgres, not in A's memory.
    for (const each of topology.replicas) {
      const seen = await expectTask(each.mcpUrl, created.taskId, `tasks/get on ${each.name}`);
      expect(seen).toMatchObject({ taskId: created.taskId, createdAt: created.createdAt });
    }
    const from = topology.lb.log().length;
    const reads = 2 * topology.replicas.length;
    for (let i = 0; i < reads; i += 1) {
      const seen = await expectTask(topology.mcpUrl, created.taskId, `tasks/get #${i} through HAProxy`);
      expect(seen.taskId).toBe(created.taskId);
    }
    expect(Object.keys(await servedSince(from, reads)).sort()).toEqual([
      'replica-1',
      'replica-2',
      'replica-3',
    ]);

    await pollTask(topology.mcpUrl, created.taskId, {
      until: (seen) => seen.status === 'completed',
      timeoutMs: SECTIONS_WAIT_MS,
      intervalMs: POLL_MS,
    });
    // Every replica hands back the same report, byte for byte.
    const reports = new Set<string>();
    for (const each of topology.replicas) {
      const done = await expectTask(each.mcpUrl, created.taskId, `the report on ${each.name}`);
      expect(done.status).toBe('completed');
      expect(sectionsOf(done.result)).toHaveLength(QUICK.steps);
      reports.add(JSON.stringify(done.result));
    }
    expect(reports.size).toBe(1);
    // And an id no replica made is refused alike everywhere (-32602), not found on one and not another.
    for (const each of topology.replicas) {
      const unknown = await requestModern(each.mcpUrl, 'tasks/get', { taskId: 'A'.repeat(22) }, WITH_TASKS);
      expect(unknown.kind === 'ok' && unknown.value.error?.code, each.name).toBe(-32602);
    }
  });

  it("tells a listen stream on every replica of a task's status, wherever the task runs", async () => {
    const created = await createTask(replica(0).mcpUrl, 'generate_report', QUICK);
    // One stream per replica, on its own port, naming the task: the runner's changes reach all of
    // them over Postgres LISTEN/NOTIFY, each read from the shared database by the replica that sends it.
    const streams = await Promise.all(
      topology.replicas.map((each) => openListenStream(each.mcpUrl, { taskIds: [created.taskId] })),
    );
    try {
      for (const [index, stream] of streams.entries()) {
        const name = topology.replicas[index]?.name;
        expect(await stream.waitFor('"status":"completed"'), `${name} heard the completion`).toBe(true);
        expect(stream.heard(), name).toContain('notifications/tasks');
        expect(stream.heard(), name).toContain(`"taskId":"${created.taskId}"`);
      }
    } finally {
      await Promise.all(streams.map((stream) => stream.close()));
    }
  });

  it('spreads tasks/* round-robin through HAProxy, and a cancel on B stops the task A runs', async () => {
    // Through the balancer only: made, read and cancelled wherever HAProxy sends each request.
    const viaLb = await createTask(topology.mcpUrl, 'generate_report', SLOW);
    const from = topology.lb.log().length;
    const reads = 2 * topology.replicas.length;
    for (let i = 0; i < reads; i += 1) {
      const seen = await expectTask(topology.mcpUrl, viaLb.taskId, `tasks/get #${i} through HAProxy`);
      expect(seen.status).toBe('working');
    }
    // Round-robin, not a hash of Mcp-Name: one task's reads reach every replica (deploy/haproxy/haproxy.cfg says why).
    expect(Object.keys(await servedSince(from, reads)).sort()).toEqual([
      'replica-1',
      'replica-2',
      'replica-3',
    ]);
    expect(
      expectResult(await cancelTask(topology.mcpUrl, viaLb.taskId), 'tasks/cancel through HAProxy'),
    ).toMatchObject({
      resultType: 'complete',
    });
    await expectStopped(viaLb.taskId, 'HAProxy');

    // Run by A for certain, cancelled through B, which neither made nor runs it.
    const onA = await createOn(replica(0), SLOW);
    expect(expectResult(await cancelTask(replica(1).mcpUrl, onA.taskId), 'tasks/cancel on B')).toMatchObject({
      resultType: 'complete',
    });
    await expectStopped(onA.taskId, 'B');
  });

  it(
    'finishes a task whose replica was killed on another replica within a minute, from its last section',
    async () => {
      const a = replica(0);
      const task = await createOn(a, KILLED);
      await pollTask(a.mcpUrl, task.taskId, {
        until: (seen) => sectionOf(seen) >= SECTIONS_BEFORE_KILL,
        timeoutMs: SECTIONS_WAIT_MS,
        intervalMs: POLL_MS,
      });
      await a.kill();
      // Taken once A is gone: any later change to the task is another replica's.
      const killedAt = Date.now();
      const recorded = await recordedSteps(task.taskId);
      expect(recorded).toBeGreaterThanOrEqual(SECTIONS_BEFORE_KILL);

      // The client polls through the balancer, which routes around A once its health check fails.
      const seen = await pollTask(topology.mcpUrl, task.taskId, {
        until: (each) => each.status !== 'working',
        timeoutMs: TAKEOVER_BOUND_MS,
        intervalMs: POLL_MS,
        tolerateRetryable: true,
      });
      const done = seen.at(-1)?.task;
      expect(done?.status, JSON.stringify(done)).toBe('completed');
      const sections = sectionsOf(done?.result);
      expect(sections).toHaveLength(KILLED.steps);
      expect(new Set(sections.map((section) => section.title)).size).toBe(KILLED.steps);
      const completedMs = Date.parse(done?.lastUpdatedAt ?? '') - killedAt;
      expect(completedMs).toBeLessThan(TAKEOVER_BOUND_MS);

      // The takeover is the first write after the kill: the new runner's, replaying A's sections.
      const takeover = seen.findIndex((each) => Date.parse(each.task.lastUpdatedAt) > killedAt);
      expect(takeover, 'a change after the kill').toBeGreaterThanOrEqual(0);
      const takenOverMs = Date.parse(seen[takeover]?.task.lastUpdatedAt ?? '') - killedAt;
      // A replay rewrites the recorded sections' messages in a burst of milliseconds, which one poll
      // may catch; a section built again would show its message for delayMs, several polls in a row.
      let shownAgain = 0;
      let inARow = 0;
      let longest = 0;
      for (const each of seen.slice(Math.max(takeover, 0))) {
        const section = sectionOf(each.task);
        const old = section >= 1 && section < recorded;
        shownAgain += old ? 1 : 0;
        inARow = old ? inARow + 1 : 0;
        longest = Math.max(longest, inARow);
      }
      expect(longest, 'polls in a row showing a section A had finished').toBeLessThanOrEqual(1);
      reportFigure(
        `[scale-e2e] generate_report task on A, kill -9 after ${recorded} of ${KILLED.steps} sections: ` +
          `taken over after ${takenOverMs} ms, completed ${completedMs} ms after the kill; ` +
          `finished sections shown again in ${shownAgain} of ${seen.length - takeover} polls after the takeover`,
      );
    },
    // Up to a minute for the takeover, plus starting the task and three sections on a loaded box.
    TAKEOVER_BOUND_MS + 60_000,
  );
});

function sectionsOf(result: ToolResult | undefined): Array<{ title: string }> {
  return (result?.structuredContent as { sections?: Array<{ title: string }> } | undefined)?.sections ?? [];
}
