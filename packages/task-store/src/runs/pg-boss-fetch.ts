/**
 * @module runs/pg-boss-fetch
 * The pg-boss run queue's fetch, fair across owners and replicas. pg-boss's own `fetch()` takes the
 * oldest jobs first, so one owner's pile would starve everyone queued behind it. This one reads
 * each owner's line from pg-boss's job table (the first jobs waiting, and how many of the owner's
 * jobs are active on any replica), picks with `fair-share.ts`, then claims the picked jobs as
 * pg-boss's fetch does (`active`, `started_on`, `retry_count`), skipping any job another replica
 * claimed in between. Every replica decides from the same table, so the order holds across them.
 * Reads and writes pg-boss 10.4.2's own table, like `pg-boss-jobs.ts`. Used by `pg-boss-queue.ts`.
 */
import type pg from 'pg';
import { type OwnerLine, pickTurns } from './fair-share.js';
import { RUN_QUEUE_NAME, type RunJob } from './pg-boss-jobs.js';

/** A job sent before jobs carried their owner waits in one line of its own, the shared owner's. */
const OWNER = "coalesce(data->>'owner', '')";

/** The columns pg-boss's fetch returns with `includeMetadata`, so a claimed job is a `RunJob`. */
const JOB_COLUMNS = `j.id, j.name, j.data, EXTRACT(epoch FROM j.expire_in) AS "expireInSeconds",
  j.policy, j.state, j.priority, j.retry_limit AS "retryLimit", j.retry_count AS "retryCount",
  j.retry_delay AS "retryDelay", j.retry_backoff AS "retryBackoff", j.start_after AS "startAfter",
  j.started_on AS "startedOn", j.singleton_key AS "singletonKey", j.singleton_on AS "singletonOn",
  j.expire_in AS "expireIn", j.created_on AS "createdOn", j.completed_on AS "completedOn",
  j.keep_until AS "keepUntil", j.dead_letter AS "deadLetter", j.output`;

export interface FairFetch {
  /** Free slots on this replica. */
  room: number;
  /** `ownerShare(concurrency)` of this replica. */
  share: number;
  /** Turns each owner holds on this replica now. */
  heldHere: ReadonlyMap<string, number>;
}

/** Claims up to `room` jobs, picked fairly across owners; fewer when other replicas got there first. */
export async function fetchFairly(
  pool: pg.Pool,
  schema: string,
  { room, share, heldHere }: FairFetch,
): Promise<RunJob[]> {
  const lines = await readLines(pool, schema, room);
  const picked = pickTurns(
    lines.map((line) => ({ ...line, heldHere: heldHere.get(line.owner) ?? 0 })),
    room,
    share,
  );
  if (picked.length === 0) return [];
  const { rows } = await pool.query<RunJob>(
    `WITH next AS (
       SELECT id FROM ${schema}.job
       WHERE name = $1 AND id = ANY($2::uuid[]) AND state < 'active' AND start_after < now()
       FOR UPDATE SKIP LOCKED
     )
     UPDATE ${schema}.job j SET
       state = 'active',
       started_on = now(),
       retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
     FROM next
     WHERE j.name = $1 AND j.id = next.id
     RETURNING ${JOB_COLUMNS}`,
    [RUN_QUEUE_NAME, picked],
  );
  // In the order they were picked, so turns start in the order the rule gave them.
  return rows.sort((a, b) => picked.indexOf(a.id) - picked.indexOf(b.id));
}

/** Each owner's first `room` waiting jobs (more could not start now), and its active jobs everywhere. */
export async function readLines(
  pool: pg.Pool,
  schema: string,
  room: number,
): Promise<Omit<OwnerLine, 'heldHere'>[]> {
  const { rows } = await pool.query<{ id: string; owner: string; since: number; held: number }>(
    `WITH waiting AS (
       SELECT id, ${OWNER} AS owner, created_on,
         row_number() OVER (PARTITION BY ${OWNER} ORDER BY created_on, id) AS place
       FROM ${schema}.job
       WHERE name = $1 AND state < 'active' AND start_after < now()
     ), held AS (
       SELECT ${OWNER} AS owner, count(*)::integer AS held
       FROM ${schema}.job WHERE name = $1 AND state = 'active'
       GROUP BY 1
     )
     SELECT w.id, w.owner, (extract(epoch FROM w.created_on) * 1000)::float8 AS since,
       coalesce(h.held, 0) AS held
     FROM waiting w LEFT JOIN held h ON h.owner = w.owner
     WHERE w.place <= $2
     ORDER BY w.owner, w.place`,
    [RUN_QUEUE_NAME, room],
  );
  const lines = new Map<
    string,
    { owner: string; waiting: OwnerLine['waiting'][number][]; heldEverywhere: number }
  >();
  for (const row of rows) {
    const line = lines.get(row.owner) ?? { owner: row.owner, waiting: [], heldEverywhere: row.held };
    line.waiting.push({ id: row.id, since: row.since });
    lines.set(row.owner, line);
  }
  return [...lines.values()];
}
