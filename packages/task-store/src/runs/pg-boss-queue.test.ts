/**
 * The pg-boss run queue on a throwaway PostgreSQL cluster, with two or three queues on one database
 * standing for replicas: each run's turn runs once, turns end at the slice and carry on, start sends
 * a job for a run that lost its own (and an enqueue that raced the start sends no second one), a
 * clean stop hands runs over at once, a failing handler is
 * retried then its run marked failed, and a replica killed with SIGKILL mid-turn has its run taken
 * over within the expiry bound. Timings are shortened so every test ends in seconds; set
 * RUN_QUEUE_REAL_TIMING=1 to run the takeover with the production timing (under a minute) and print
 * what it took, or RUN_QUEUE_REPORT=1 to print the shortened runs' times.
 * Skipped, with one line saying why, where PostgreSQL is not installed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { NewTaskRecord, TaskQueue } from '@mcp-workshop/shared/tasks-port';
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStorePool } from '../postgres-pool.js';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { transpileForChild } from '../test-support/transpile-for-child.js';
import { GAVE_UP_ERROR, RUN_RETRY_LIMIT, type RunHandler, RunHandOffError } from './hand-off.js';
import { PG_BOSS_SCHEMA, type PgBossTiming, RUN_QUEUE_NAME } from './pg-boss-jobs.js';
import { createPgBossRunQueue, installLockName, PG_BOSS_TIMING } from './pg-boss-queue.js';
import { openPostgresRunStore } from './postgres-run-store.js';
import type { RunStore } from './types.js';

const available = systemPrograms('the pg-boss run queue tests', ['postgres']);

/** Seconds, not tens of seconds: the same rules as production, scaled down. */
const TEST_TIMING: PgBossTiming = {
  expireInSeconds: 4,
  sliceMs: 1_500,
  maintenanceIntervalSeconds: 1,
  pollingIntervalMs: 200,
  retryDelaySeconds: 0,
  stopGraceMs: 1_000,
};
const realTiming = process.env.RUN_QUEUE_REAL_TIMING === '1';
/** Prints the measured hand-over times (always with the real timing). */
const report = (line: string) => {
  if (realTiming || process.env.RUN_QUEUE_REPORT === '1') console.warn(line);
};
const TAKEOVER_TIMING = realTiming ? PG_BOSS_TIMING : TEST_TIMING;

/** The promise: expiry, then up to two maintenance intervals, the retry delay and one poll. */
const takeoverBoundMs = (t: PgBossTiming) =>
  t.expireInSeconds * 1_000 +
  2 * t.maintenanceIntervalSeconds * 1_000 +
  t.retryDelaySeconds * 1_000 +
  t.pollingIntervalMs;
/** A safety net on top of the bound, for a loaded machine; when the takeover comes is not checked. */
const TAKEOVER_WAIT_MS = 20_000;
/** A job expiry no test here lives to see, so that only the queue's own hand-over can move a run. */
const NEVER_EXPIRES_S = 3_600;

const NEW_RUN: NewTaskRecord = {
  owner: 'sub:alice',
  tool: 'generate_report',
  arguments: {},
  caller: {},
  ttlMs: 600_000,
  pollIntervalMs: 1_000,
};

/** Resolves once `check` holds, polling; fails after `limitMs`. */
async function until(check: () => boolean, limitMs = 10_000): Promise<void> {
  const began = Date.now();
  while (!check()) {
    if (Date.now() - began > limitMs) throw new Error('gave up waiting');
    await sleep(20);
  }
}

/** A handler that records its calls and otherwise does what `act` says; `turn` counts per run, from 1. */
function recorder(act: (id: string, signal: AbortSignal, turn: number) => Promise<'done' | 'continue'>) {
  const calls: Array<{ id: string; at: number }> = [];
  const handler: RunHandler = (id, signal) => {
    calls.push({ id, at: Date.now() });
    return act(id, signal, calls.filter((call) => call.id === id).length);
  };
  return { calls, handler };
}

/** Sessions waiting for an advisory lock in this database. */
async function lockWaiters(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ waiting: string }>(
    `SELECT count(*) AS waiting FROM pg_locks l JOIN pg_database d ON d.oid = l.database
      WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`,
  );
  return Number(rows[0]?.waiting ?? 0);
}

async function schemaExists(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [PG_BOSS_SCHEMA]);
  return rows.length === 1;
}

/** Checks `condition` every 20 ms until it holds; the test's timeout is the only bound. */
async function untilAsync(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(20);
}

describe.skipIf(!available.ok)('createPgBossRunQueue', () => {
  let cluster: PostgresCluster;
  let url = '';
  let databases = 0;
  let store: RunStore;
  let jobsPool: pg.Pool;
  const queues: TaskQueue[] = [];
  const queue = (timing: Partial<PgBossTiming> = TEST_TIMING) => {
    const created = createPgBossRunQueue({
      connectionString: url,
      store,
      logger: createSilentLogger(),
      timing,
    });
    queues.push(created);
    return created;
  };
  /** The run's jobs by state, straight from pg-boss's table. */
  const jobStates = async (runId: string) => {
    const { rows } = await jobsPool.query<{ state: string }>(
      `SELECT state FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on`,
      [RUN_QUEUE_NAME, runId],
    );
    return rows.map((row) => row.state);
  };
  /** The `retry_count` of the run's active job: raised each time pg-boss retries it. */
  const activeRetryCounts = async (runId: string) => {
    const { rows } = await jobsPool.query<{ retry_count: number }>(
      `SELECT retry_count FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state = 'active'`,
      [RUN_QUEUE_NAME, runId],
    );
    return rows.map((row) => row.retry_count);
  };

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);
  beforeEach(async () => {
    databases += 1;
    url = await cluster.createDatabase(`queue_${databases}`);
    const logger = createSilentLogger();
    store = await openPostgresRunStore({ pool: createStorePool({ connectionString: url, logger }), logger });
    jobsPool = new pg.Pool({ connectionString: url, max: 1 });
  });
  afterEach(async () => {
    for (const created of queues.splice(0)) await created.stop();
    await store.close();
    await jobsPool.end();
  });

  it("installs pg-boss's schema behind its install lock, so replicas starting at once never both create it", async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [installLockName(PG_BOSS_SCHEMA)]);
      let started = false;
      const starting = queue()
        .start(async () => 'done')
        .finally(() => {
          started = true;
        });
      // The start waits on the lock (a start that ignores it ends first, and fails here), and
      // while it waits pg-boss has created nothing.
      await untilAsync(async () => started || (await lockWaiters(holder)) === 1);
      expect(started, 'the start went ahead while the install lock was held').toBe(false);
      expect(await schemaExists(holder)).toBe(false);
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [installLockName(PG_BOSS_SCHEMA)]);
      await starting;
      expect(await schemaExists(holder)).toBe(true);
      // A second start finds the schema there; the lock is free again for it.
      await queue().start(async () => 'done');
    } finally {
      await holder.end();
    }
  });

  // Seen in a fresh-clone CI: two replicas on an empty database both called pgboss.create_queue
  // after the install, and Postgres logged "deadlock detected" on its queue table.
  it('creates its queue behind the install lock too: replicas starting at once leave no ERROR in the log', async () => {
    const logged = () =>
      cluster
        .serverLog()
        .split('\n')
        .filter((line) => / ERROR: /.test(line));
    const before = logged().length;
    for (let round = 0; round < 6; round += 1) {
      url = await cluster.createDatabase(`queue_race_${databases}_${round}`);
      const pair = [queue(), queue(), queue()];
      await Promise.all(pair.map((created) => created.start(async () => 'done')));
    }
    expect(logged().slice(before)).toEqual([]);
  }, 60_000);

  it('runs each turn of a run once across two replicas, and leaves no job behind', async () => {
    const { calls, handler } = recorder(async (_id, _signal, turn) => (turn === 3 ? 'done' : 'continue'));
    const [a, b] = [queue(), queue()];
    await a.start(handler);
    await b.start(handler);
    const runs = [];
    for (let i = 0; i < 5; i += 1) runs.push(await store.create(NEW_RUN));
    for (const run of runs) await (runs.indexOf(run) % 2 ? a : b).enqueue(run.id, NEW_RUN.owner);
    await until(() => calls.length >= 15);
    await sleep(500);
    expect(runs.map((run) => calls.filter((call) => call.id === run.id).length)).toEqual([3, 3, 3, 3, 3]);
    for (const run of runs) expect(await jobStates(run.id)).not.toContain('active');
    for (const run of runs) expect(await jobStates(run.id)).not.toContain('created');
  }, 30_000);

  it("ends a turn at the slice with a 'slice-over' reason, and the run carries on", async () => {
    const reasons: unknown[] = [];
    const { calls, handler } = recorder(async (_id, signal, turn) => {
      if (turn > 1) return 'done';
      await new Promise((wake) => signal.addEventListener('abort', wake));
      reasons.push(signal.reason);
      return 'continue';
    });
    const q = queue();
    await q.start(handler);
    const run = await store.create(NEW_RUN);
    await q.enqueue(run.id, NEW_RUN.owner);
    await until(() => calls.length === 2);
    // The first turn waits for its signal and nothing else: the slice is what ended it.
    expect(reasons).toEqual([new RunHandOffError('slice-over')]);
  }, 20_000);

  it('sends a job on start for an unfinished run that has none, and only for those', async () => {
    const lost = await store.create(NEW_RUN);
    const asking = await store.create(NEW_RUN);
    await store.update(asking.id, { status: 'input_required' });
    const finished = await store.create(NEW_RUN);
    await store.update(finished.id, { status: 'completed', result: {} });
    const { calls, handler } = recorder(async () => 'done');
    await queue().start(handler);
    await until(() => calls.length === 2);
    await sleep(500);
    expect(calls.map((call) => call.id).sort()).toEqual([lost.id, asking.id].sort());
  }, 20_000);

  it('sends one job for a run stored while the queue starts and enqueued before the start ends', async () => {
    // The start finds the run unfinished and sends its job; the enqueue that waited for the start
    // used to send a second, which a poll could fetch while the first ran: two turns at once.
    // Every job pg-boss inserts goes through the pool's query; an insert dropped as a duplicate
    // still shows here, so the count does not depend on how the race fell.
    const queries = vi.spyOn(pg.Pool.prototype, 'query');
    try {
      const run = await store.create(NEW_RUN);
      const { calls, handler } = recorder(async () => 'done');
      const started = queues.length;
      const starting = queue().start(handler);
      await queues[started]?.enqueue(run.id, NEW_RUN.owner);
      await starting;
      await until(() => calls.length === 1);
      await sleep(500);
      const inserts = queries.mock.calls.filter(
        ([text, values]) =>
          typeof text === 'string' &&
          /INSERT INTO \S*job/i.test(text) &&
          JSON.stringify(values ?? []).includes(run.id),
      );
      expect(inserts).toHaveLength(1);
      expect(calls.map((call) => call.id)).toEqual([run.id]);
    } finally {
      queries.mockRestore();
    }
  }, 20_000);

  it('hands a run over at once on a clean stop: another replica takes it at its next poll', async () => {
    let firstReason: unknown;
    const { calls, handler } = recorder(async (_id, signal, turn) => {
      if (turn > 1) return 'done';
      await new Promise((wake) => signal.addEventListener('abort', wake));
      firstReason = signal.reason;
      // As the host's runtime does: "stopped as told". The queue cut the turn, so the run goes on.
      return 'done';
    });
    // Its job never expires within the test: only the stop's hand-over can pass the run on.
    const a = queue({ ...TEST_TIMING, sliceMs: 3_000, expireInSeconds: NEVER_EXPIRES_S });
    await a.start(handler);
    const run = await store.create(NEW_RUN);
    await a.enqueue(run.id, NEW_RUN.owner);
    await until(() => calls.length === 1);
    await queue().start(handler);
    const stopped = Date.now();
    await a.stop();
    await until(() => calls.length === 2);
    const handover = (calls[1]?.at ?? 0) - stopped;
    report(`hand-over on a clean stop: ${handover} ms (polling every ${TEST_TIMING.pollingIntervalMs} ms)`);
    expect(firstReason).toEqual(new RunHandOffError('stopping'));
  }, 20_000);

  it('hands a run over on stop even when its handler ignores the signal, after the grace', async () => {
    const { calls, handler } = recorder(async (_id, _signal, turn) => {
      if (turn === 1) await new Promise(() => {});
      return 'done';
    });
    // The first turn never ends and its job never expires within the test: only the stop's grace
    // can pass the run on.
    const a = queue({ ...TEST_TIMING, sliceMs: 2_500, expireInSeconds: NEVER_EXPIRES_S });
    await a.start(handler);
    const run = await store.create(NEW_RUN);
    await a.enqueue(run.id, NEW_RUN.owner);
    await until(() => calls.length === 1);
    await queue().start(handler);
    await a.stop();
    await until(() => calls.length === 2);
  }, 20_000);

  it('retries a handler that throws, then marks its run failed', async () => {
    const { calls, handler } = recorder(async () => {
      throw new Error('the source is down');
    });
    await queue().start(handler);
    const run = await store.create(NEW_RUN);
    await queues[0]?.enqueue(run.id, NEW_RUN.owner);
    await until(() => calls.length === RUN_RETRY_LIMIT + 1);
    await sleep(500);
    expect(calls).toHaveLength(RUN_RETRY_LIMIT + 1);
    expect(await store.load(run.id)).toMatchObject({ status: 'failed', error: GAVE_UP_ERROR });
  }, 20_000);

  it(
    'takes over the run of a replica killed with SIGKILL mid-turn, once its job has expired',
    async () => {
      const run = await store.create(NEW_RUN);
      const child = await startReplicaThatHangs(url, run.id, TAKEOVER_TIMING);
      await child.took;
      child.kill();
      const killedAt = Date.now();
      const retryCounts: number[] = [];
      let looked = 0;
      const { calls, handler } = recorder(async (id) => {
        retryCounts.push(...(await activeRetryCounts(id)));
        looked += 1;
        return 'done';
      });
      // A fresh replica: its start must not send a second job while the dead one's is active.
      await queue(TAKEOVER_TIMING).start(handler);
      // Until the handler has looked at the jobs, not just been called: its look is what is checked.
      await until(() => looked === 1, takeoverBoundMs(TAKEOVER_TIMING) + TAKEOVER_WAIT_MS);
      const takeover = (calls[0]?.at ?? 0) - killedAt;
      report(`takeover after SIGKILL: ${takeover} ms (bound ${takeoverBoundMs(TAKEOVER_TIMING)} ms)`);
      // Not before the dead replica's job expired, so nobody ran the run twice at once: the one job
      // the new replica runs is that job, retried by pg-boss after it expired.
      expect(retryCounts).toHaveLength(1);
      expect(retryCounts[0]).toBeGreaterThanOrEqual(1);
      await sleep(500);
      expect(calls).toHaveLength(1);
      expect(await jobStates(run.id)).toEqual(['completed']);
    },
    takeoverBoundMs(TAKEOVER_TIMING) + TAKEOVER_WAIT_MS + 10_000,
  );
});

/**
 * Starts a replica in a child process: the real queue, transpiled, which enqueues `runId`, takes
 * it, prints "took", and then never returns from its handler (a hung or dying replica).
 */
async function startReplicaThatHangs(url: string, runId: string, timing: PgBossTiming) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-boss-replica-'));
  transpileForChild(dir, [
    'runs/pg-boss-queue.ts',
    'runs/pg-boss-jobs.ts',
    'runs/pg-boss-fetch.ts',
    'runs/fair-share.ts',
    'runs/hand-off.ts',
    'postgres-pool.ts',
  ]);
  const script = path.join(dir, 'replica.mjs');
  fs.writeFileSync(
    script,
    [
      `import { createPgBossRunQueue } from ${JSON.stringify(pathToFileURL(path.join(dir, 'runs/pg-boss-queue.js')).href)};`,
      'const [url, runId, timing] = process.argv.slice(2);',
      'const log = (...args) => console.error(JSON.stringify(args));',
      'const logger = { warn: log, error: log, info: () => {}, debug: () => {} };',
      // Only start's sweep and a give-up use the store; this replica needs neither.
      'const store = { unfinished: async () => [], update: async () => undefined };',
      'const queue = createPgBossRunQueue({ connectionString: url, store, logger, timing: JSON.parse(timing) });',
      "await queue.start(async (id) => { process.stdout.write('took ' + id + '\\n'); return new Promise(() => {}); });",
      "await queue.enqueue(runId, 'sub:alice');",
    ].join('\n'),
  );
  const child = spawn(process.execPath, [script, url, runId, JSON.stringify(timing)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const took = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes(`took ${runId}`)) resolve();
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`the replica exited (${code ?? signal}): ${stderr}`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    took,
    kill() {
      child.kill('SIGKILL');
      void exited.then(() => fs.rmSync(dir, { recursive: true, force: true }));
    },
  };
}
