/**
 * @module runs/pg-boss-queue
 * `createPgBossRunQueue()`: the {@link TaskQueue} for Postgres, where several replicas share the
 * runs. Each run's next turn is a pg-boss job; whichever replica fetches it runs the handler. The
 * fetch is this queue's own (`pg-boss-fetch.ts`), fair across owners on every replica: each owner's
 * jobs form a line, and free slots go round the owners, never more than half of them to one owner
 * while another waits (`fair-share.ts`).
 *
 * pg-boss 10 has no heartbeat: a job is "alive" only until its `expireInSeconds`, after which
 * maintenance fails it and it is retried, by any replica. That is the hand-over when a replica
 * dies, so a live turn must never outlast its job: the handler's signal aborts after `sliceMs`, the
 * handler returns `'continue'`, and the job is completed together with the run's next job (one
 * transaction, `pg-boss-jobs.ts`). A replica that dies mid-turn leaves an active job that expires;
 * one that stops cleanly aborts its turns and hands them on at once, so another replica takes them
 * at its next poll. A run whose job was lost outright (a process killed between storing the run
 * and sending its job) is found by `start`, which sends a job for every unfinished run that has none.
 *
 * A run can still see two turns at once in one case: `enqueue` while it has an active job (or a
 * handler that ignores its signal past the expiry). An `enqueue` that comes while the queue is
 * starting, for a run the start found and queued, sends nothing, or that run would get two turns
 * (ADR 020). The store makes the remaining case harmless, not free: a step's first value wins, and
 * a terminal status never changes. Test: `pg-boss-queue.test.ts`.
 */

import type { TaskQueue } from '@mcp-workshop/shared/tasks-port';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from '../logger.js';
import { createStorePool } from '../postgres-pool.js';
import { ownerShare, turnsToYield } from './fair-share.js';
import {
  giveUp,
  RUN_CONCURRENCY,
  RUN_RETRY_LIMIT,
  type RunHandler,
  RunHandOffError,
  STOP_GRACE_MS,
} from './hand-off.js';
import { fetchFairly, readLines } from './pg-boss-fetch.js';
import {
  completeTurn,
  jobOptions,
  PG_BOSS_SCHEMA,
  type PgBossTiming,
  queueOptions,
  RUN_QUEUE_NAME,
  type RunJob,
  type RunJobData,
  runsWithJobs,
} from './pg-boss-jobs.js';
import type { RunStore } from './types.js';

/**
 * A replica that dies mid-turn has its run taken over within expiry + two maintenance intervals +
 * retry delay + one poll: 30 + 10 + 1 + 1 = 42 s at most, inside the minute we promise. The turn
 * (20 s) leaves 10 s of the expiry for a handler to wrap up after its signal aborts.
 */
export const PG_BOSS_TIMING: Readonly<PgBossTiming> = {
  expireInSeconds: 30,
  sliceMs: 20_000,
  maintenanceIntervalSeconds: 5,
  pollingIntervalMs: 1_000,
  retryDelaySeconds: 1,
  stopGraceMs: STOP_GRACE_MS,
};

/** pg-boss's connections per replica: the poll, a turn's hand-on, maintenance, and one spare. */
export const PG_BOSS_POOL_MAX = 4;

/**
 * Replica deaths one turn survives. Each one costs an expiry; after the last, pg-boss gives the
 * job up, and the run waits for the next replica's `start` (or its TTL).
 */
const JOB_RETRY_LIMIT = 3;

export interface PgBossRunQueueOptions {
  /** `DATABASE_URL`; the queue opens a small pool of its own and closes it on `stop()`. */
  connectionString: string;
  /** Where `start` finds runs that lost their job, and where a run given up on is marked failed. */
  store: RunStore;
  logger: Logger;
  /** Turns at once on this replica; defaults to {@link RUN_CONCURRENCY}. */
  concurrency?: number;
  /** Tests shorten these; the defaults are {@link PG_BOSS_TIMING}. */
  timing?: Partial<PgBossTiming>;
  /** pg-boss's schema; defaults to {@link PG_BOSS_SCHEMA}. */
  schema?: string;
}

interface Turn {
  job: RunJob;
  controller: AbortController;
  /** Aborted to ask the turn to end at its next step, so another owner gets the slot. */
  yielding: AbortController;
  /** stop() handed the run on without waiting for this turn; whatever it returns is ignored. */
  abandoned: boolean;
  done: Promise<void>;
}

export function createPgBossRunQueue(options: PgBossRunQueueOptions): TaskQueue {
  const { connectionString, store, logger, concurrency = RUN_CONCURRENCY, schema = PG_BOSS_SCHEMA } = options;
  const timing = { ...PG_BOSS_TIMING, ...options.timing };
  checkSettings(timing, schema);
  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  let starting: Promise<void> | undefined;
  let connection: { boss: PgBoss; pool: pg.Pool } | undefined;
  let loop: Promise<void> | undefined;
  const turns = new Map<string, Turn>();
  /**
   * The unfinished runs `start` found, each of which had a job or was sent one. An `enqueue` that
   * waited for the start sends none for these: a second job could be fetched while the first runs,
   * and the run would get two turns at once.
   */
  const queuedAtStart = new Set<string>();
  // Set by whatever makes a fetch worth doing now (a send, a turn that ended), so the poll skips its nap.
  let poked = false;
  let endNap: (() => void) | undefined;
  const wake = (): void => {
    poked = true;
    endNap?.();
  };

  const share = ownerShare(concurrency);

  const send = async (data: RunJobData): Promise<void> => {
    await connection?.boss.send(RUN_QUEUE_NAME, data, jobOptions(data.runId, timing, JOB_RETRY_LIMIT));
  };

  /** The run's next job carries what its last one did, so it rejoins its owner's line. */
  const nextOf = (job: RunJob, failures?: number): RunJobData => ({
    runId: job.data.runId,
    ...(job.data.owner !== undefined && { owner: job.data.owner }),
    ...(failures !== undefined && { failures }),
  });

  /** Turns each owner holds on this replica. */
  const heldHere = (): Map<string, number> => {
    const held = new Map<string, number>();
    for (const { job } of turns.values()) {
      const owner = job.data.owner ?? '';
      held.set(owner, (held.get(owner) ?? 0) + 1);
    }
    return held;
  };

  /** Completes a turn's job, with the run's next job unless the run is done. */
  const settle = async (job: RunJob, next: RunJobData | undefined, startAfter = 0): Promise<void> => {
    if (!connection) return;
    const options = { ...jobOptions(job.data.runId, timing, JOB_RETRY_LIMIT), startAfter };
    const ours = await completeTurn(
      connection.boss,
      connection.pool,
      schema,
      job,
      next && { data: next, options },
    );
    if (!ours)
      logger.warn({ run: job.data.runId }, "a run's turn outlived its job; its retry carries the run on");
  };

  const runTurn = async (turn: Turn, handler: RunHandler): Promise<void> => {
    const { job, controller } = turn;
    const { runId } = job.data;
    const slice = setTimeout(() => controller.abort(new RunHandOffError('slice-over')), timing.sliceMs);
    let outcome: 'done' | 'continue' | { error: unknown };
    try {
      outcome = await handler(runId, controller.signal, turn.yielding.signal);
    } catch (error) {
      outcome = { error };
    } finally {
      clearTimeout(slice);
    }
    if (turn.abandoned) return;
    // The queue cut this turn short, so whatever the handler says (a throw, or 'done' for "stopped
    // as told"), the run gets another turn. One that did finish ends that turn at once: it is terminal.
    if (controller.signal.aborted) outcome = 'continue';
    if (outcome === 'done') return settle(job, undefined);
    if (outcome === 'continue') return settle(job, nextOf(job));
    const failures = (job.data.failures ?? 0) + 1;
    if (failures > RUN_RETRY_LIMIT) {
      await giveUp(store, runId, outcome.error, logger);
      return settle(job, undefined);
    }
    logger.warn(
      { err: outcome.error, run: runId, attempt: failures },
      'a run handler failed; trying it again shortly',
    );
    return settle(job, nextOf(job, failures), timing.retryDelaySeconds);
  };

  const startTurn = (job: RunJob, handler: RunHandler): void => {
    const turn: Turn = {
      job,
      controller: new AbortController(),
      yielding: new AbortController(),
      abandoned: false,
      done: Promise.resolve(),
    };
    turns.set(job.id, turn);
    turn.done = runTurn(turn, handler)
      .catch((error) => logger.error({ err: error, run: job.data.runId }, 'a run turn could not be settled'))
      .finally(() => {
        turns.delete(job.id);
        wake();
      });
  };

  /**
   * With every slot taken and an owner past its share here, asks that owner's oldest turns to
   * yield, one for each owner whose jobs wait (on any replica's table) while it is below its share
   * here. The query runs only while some owner is past its share on this replica.
   */
  const askToYield = async (pool: pg.Pool): Promise<void> => {
    const running = [...turns.values()].map((turn) => ({
      turn,
      owner: turn.job.data.owner ?? '',
      asked: turn.yielding.signal.aborted,
    }));
    const held = heldHere();
    if (![...held.values()].some((count) => count > share)) return;
    const lines = await readLines(pool, schema, 1).catch(() => []);
    const wanting = lines.filter((line) => (held.get(line.owner) ?? 0) < share).length;
    for (const at of turnsToYield(running, wanting, share)) running[at]?.turn.yielding.abort();
  };

  /** Fetches while there is room, then naps until a poll is due, a turn ends, or `enqueue` sends. */
  const poll = async (pool: pg.Pool, handler: RunHandler): Promise<void> => {
    while (state === 'started') {
      poked = false;
      const room = concurrency - turns.size;
      let fetched = 0;
      if (room > 0) {
        // The database away is no reason to stop: the next poll tries again.
        const jobs = await fetchFairly(pool, schema, { room, share, heldHere: heldHere() }).catch(
          (error: unknown) => {
            logger.warn({ err: error }, 'the run queue could not fetch; polling again');
            return [];
          },
        );
        fetched = jobs.length;
        for (const job of jobs) {
          if (typeof job.data?.runId !== 'string') {
            logger.warn({ job: job.id }, 'dropping a run job without a run id');
            await settle(job, undefined).catch(() => undefined);
          } else if (state === 'started') startTurn(job, handler);
          // stop() came while this fetch was on its way: hand the run straight on.
          else await settle(job, nextOf(job)).catch(() => undefined);
        }
      }
      if (turns.size >= concurrency) await askToYield(pool);
      if ((fetched > 0 && turns.size < concurrency) || poked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timing.pollingIntervalMs);
        endNap = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      endNap = undefined;
    }
  };

  const open = async (handler: RunHandler): Promise<void> => {
    const pool = createStorePool({ connectionString, logger, max: PG_BOSS_POOL_MAX });
    const boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema,
      // pg-boss creates and migrates its schema itself; `installSerially` keeps replicas from racing.
      migrate: true,
      supervise: true,
      maintenanceIntervalSeconds: timing.maintenanceIntervalSeconds,
      // No cron: its timekeeper would poll for schedules nobody makes.
      schedule: false,
      archiveCompletedAfterSeconds: 60 * 60,
      deleteAfterDays: 1,
    });
    // Maintenance errors arrive as events; unheard, an 'error' event would crash the process.
    boss.on('error', (error) => logger.warn({ err: error }, 'the run queue (pg-boss) reported an error'));
    try {
      await installSerially(pool, schema, async () => {
        await boss.start();
        // Under the same lock: two replicas calling create_queue at once deadlock in Postgres.
        const queue = queueOptions(timing, JOB_RETRY_LIMIT);
        await boss.createQueue(RUN_QUEUE_NAME, queue);
        // createQueue leaves an existing queue as it was; this makes it match this version's settings.
        await boss.updateQueue(RUN_QUEUE_NAME, queue);
      });
      connection = { boss, pool };
      // Runs whose job was lost (stored, then the process died before sending it) get one now.
      const unfinished = await store.unfinished();
      const queued = await runsWithJobs(
        pool,
        schema,
        unfinished.map(({ id }) => id),
      );
      for (const { id, owner } of unfinished) {
        if (!queued.has(id)) await send({ runId: id, owner });
        queuedAtStart.add(id);
      }
    } catch (error) {
      connection = undefined;
      await boss.stop({ graceful: false, close: false }).catch(() => undefined);
      await pool.end().catch(() => undefined);
      throw error;
    }
    state = 'started';
    loop = poll(pool, handler);
  };

  return {
    async enqueue(id, owner) {
      if (state === 'starting') {
        await starting?.catch(() => undefined);
        // Stored before the start looked: the start has already given this run its job.
        if (queuedAtStart.has(id)) return;
      }
      // Before start, after stop, or with a failed start: the run is stored, and a start sends its job.
      if (state !== 'started') return;
      await send({ runId: id, owner });
      wake();
    },
    async start(handler) {
      if (state !== 'new') throw new Error('A run queue starts once; make a new one after stop().');
      state = 'starting';
      starting = open(handler).catch((error) => {
        state = 'new';
        throw error;
      });
      await starting;
    },
    async stop() {
      if (state === 'starting') await starting?.catch(() => undefined);
      if (state !== 'started') {
        state = 'stopped';
        return;
      }
      state = 'stopped';
      wake();
      await loop;
      const current = [...turns.values()];
      for (const turn of current) turn.controller.abort(new RunHandOffError('stopping'));
      const returned = Promise.all(current.map((turn) => turn.done));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timing.stopGraceMs);
      });
      const outcome = await Promise.race([returned, late]);
      clearTimeout(timer);
      if (outcome === 'late') {
        // Their handlers ignore the signal; hand the runs on anyway rather than make another replica wait for an expiry.
        for (const turn of turns.values()) {
          turn.abandoned = true;
          await settle(turn.job, nextOf(turn.job)).catch(() => undefined);
        }
        logger.warn(
          { runs: [...turns.values()].map((turn) => turn.job.data.runId) },
          'run handlers ignored stop',
        );
      }
      const { boss, pool } = connection ?? {};
      connection = undefined;
      await boss?.stop({ graceful: false, close: false });
      await pool?.end();
    },
  };
}

/** A turn that could outlast its job would be taken over while alive; refuse such settings outright. */
function checkSettings(timing: PgBossTiming, schema: string): void {
  if (timing.sliceMs + 1_000 > timing.expireInSeconds * 1_000) {
    throw new Error(
      `A run's turn (sliceMs ${timing.sliceMs}) must end at least a second before its job expires (${timing.expireInSeconds} s).`,
    );
  }
  if (!/^[a-z_][a-z0-9_]{0,49}$/.test(schema)) throw new Error(`Not a plain schema name: ${schema}`);
}

/**
 * Runs pg-boss's start (which installs its schema on an empty database) while holding a session
 * advisory lock of this schema's, so replicas starting at once install it one after the other.
 * pg-boss checks "installed?" before taking its own lock, so two replicas that both see an empty
 * database both run the create script; the second fails with `type "job_state" already exists`,
 * which pg-boss then swallows, but Postgres has logged an ERROR that an operator would chase.
 * Behind this lock the second replica finds the schema there and creates nothing. The run queue
 * is created under it too: pgboss.create_queue, called by two replicas at once on a new database,
 * deadlocks on its queue table (one start then fails with "deadlock detected").
 * Test: `pg-boss-queue.test.ts` (a start waits while the lock is held elsewhere).
 */
export async function installSerially(
  pool: pg.Pool,
  schema: string,
  start: () => Promise<void>,
): Promise<void> {
  const name = installLockName(schema);
  const client = await pool.connect();
  let unlocked = false;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      await start();
    } finally {
      unlocked = await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).then(
        () => true,
        () => false,
      );
    }
  } finally {
    // A connection that may still hold the lock is closed, not pooled: closing it frees the lock.
    client.release(!unlocked);
  }
}

/** The advisory lock's name: the schema's, so two schemas in one database install side by side. */
export function installLockName(schema: string): string {
  return `${schema}:install`;
}
