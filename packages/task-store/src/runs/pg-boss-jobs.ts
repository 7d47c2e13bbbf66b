/**
 * @module runs/pg-boss-jobs
 * The pg-boss side of the runs' queue: its settings, and the three things `pg-boss-queue.ts` does to
 * jobs beyond pg-boss's own API. pg-boss 10's `complete()` completes any active job of that id, so a
 * turn that outlived its job could complete the job another replica has taken since; here a job is
 * completed only while it is still this turn's (same `retry_count`, which every re-fetch raises).
 * Reads and writes pg-boss's own tables, whose layout is pinned with the version (10.4.2).
 */

import type pg from 'pg';
import type PgBoss from 'pg-boss';

/** The queue's name in pg-boss. */
export const RUN_QUEUE_NAME = 'mcp-runs';

/** pg-boss keeps its tables in a schema of its own, created and migrated by pg-boss at start. */
export const PG_BOSS_SCHEMA = 'pgboss';

/** What a job carries: the run, its owner (whose line it waits in), and how many turns in a row have thrown. */
export interface RunJobData {
  runId: string;
  /** Absent on a job sent before jobs carried owners: it waits in the shared owner's line. */
  owner?: string;
  failures?: number;
}

export type RunJob = PgBoss.JobWithMetadata<RunJobData>;

/** When a replica takes over a dead one's run, and how it hands runs on. See `PG_BOSS_TIMING`. */
export interface PgBossTiming {
  /** pg-boss's `expireInSeconds`: a job active this long is failed by maintenance and retried. */
  expireInSeconds: number;
  /** A turn's signal aborts this long after the job was fetched, leaving the rest of the expiry to wrap up. */
  sliceMs: number;
  /** How often pg-boss's maintenance (which expires jobs) runs, across all replicas. */
  maintenanceIntervalSeconds: number;
  /** How often an idle replica asks for a job. */
  pollingIntervalMs: number;
  /** Wait before a job a dead replica held, or a turn that threw, runs again. */
  retryDelaySeconds: number;
  /** How long `stop()` waits for aborted turns to return before handing their runs on anyway. */
  stopGraceMs: number;
}

/**
 * Every job is sent with these, so they hold whatever the queue row in the database says. `short`
 * allows one waiting job per run (a second send is dropped) and, unlike `singleton` or `stately`,
 * never makes a fetch fail on a unique index, which in pg-boss 10 stalls the whole queue.
 */
export function jobOptions(runId: string, timing: PgBossTiming, retryLimit: number): PgBoss.SendOptions {
  return {
    singletonKey: runId,
    expireInSeconds: timing.expireInSeconds,
    retryLimit,
    retryDelay: timing.retryDelaySeconds,
    retryBackoff: false,
  };
}

export function queueOptions(timing: PgBossTiming, retryLimit: number): PgBoss.Queue {
  return {
    name: RUN_QUEUE_NAME,
    policy: 'short',
    expireInSeconds: timing.expireInSeconds,
    retryLimit,
    retryDelay: timing.retryDelaySeconds,
    retryBackoff: false,
  };
}

/** pg-boss's `db` option: its statements on our pool, or on one client inside a transaction. */
export function bossDb(client: Pick<pg.Pool | pg.PoolClient, 'query'>): PgBoss.Db {
  return { executeSql: (text, values) => client.query(text, values) };
}

/** Of `runIds`, those that have a job waiting, retrying or active: the rest have lost theirs. */
export async function runsWithJobs(
  pool: pg.Pool,
  schema: string,
  runIds: readonly string[],
): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const { rows } = await pool.query<{ run_id: string }>(
    `SELECT DISTINCT singleton_key AS run_id FROM ${schema}.job
     WHERE name = $1 AND state < 'completed' AND singleton_key = ANY($2::text[])`,
    [RUN_QUEUE_NAME, runIds],
  );
  return new Set(rows.map((row) => row.run_id));
}

/**
 * Completes `job` if it is still this turn's, and in the same transaction sends `next` (the run's
 * next turn) when given, so a replica dying in between can neither lose the run nor leave it two
 * jobs. Returns false, and changes nothing, when the job is no longer this turn's: it expired, and
 * its retry carries the run on.
 */
export async function completeTurn(
  boss: PgBoss,
  pool: pg.Pool,
  schema: string,
  job: RunJob,
  next?: { data: RunJobData; options: PgBoss.SendOptions },
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rowCount } = await client.query(
      `UPDATE ${schema}.job SET state = 'completed', completed_on = now()
       WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $3`,
      [RUN_QUEUE_NAME, job.id, job.retryCount],
    );
    if (rowCount === 1 && next)
      await boss.send(RUN_QUEUE_NAME, next.data, { ...next.options, db: bossDb(client) });
    await client.query(rowCount === 1 ? 'COMMIT' : 'ROLLBACK');
    return rowCount === 1;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
