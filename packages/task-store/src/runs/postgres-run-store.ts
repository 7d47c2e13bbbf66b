/**
 * @module runs/postgres-run-store
 * `openPostgresRunStore()`: the {@link RunStore} over Postgres, beside the task list (migration
 * `0004_runs`), so every replica sees every run. It behaves like `sqlite-run-store.ts` down to the
 * errors: the same checks run first (`limits.ts`), and the same answers come back for a run that is
 * another owner's, expired, terminal or missing. Each write is one statement. Contract:
 * `test-support/run-store-contract.ts`.
 */

import type { NewTaskRecord, TaskError, TaskRecord, TaskStatus } from '@mcp-workshop/shared/tasks-port';
import { type Kysely, type Selectable, sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import type { StoreDatabase } from '../postgres-migrations.js';
import { openStoreDatabase } from '../postgres-open.js';
import { checkOwner, TodoStoreUnavailableError } from '../store.js';
import { planAnswer } from './answers.js';
import {
  ACTIVE_RUN_STATUSES,
  type CheckedNewRun,
  checkMaxActive,
  checkNewRun,
  checkStepKey,
  checkUpdate,
  isRunId,
  MAX_RUN_STEPS,
  MAX_RUN_STEPS_BYTES,
  newRunId,
  stepBoundError,
  toStoredJson,
} from './limits.js';
import type { RunStore } from './types.js';

const COLUMNS = [
  'id',
  'owner',
  'tool',
  'arguments',
  'caller',
  'status',
  'status_message',
  'created_at',
  'last_updated_at',
  'ttl_ms',
  'poll_interval_ms',
  'result',
  'error',
  'input_requests',
] as const;

/**
 * The first key of the advisory lock `createWithin` takes per owner (the second is the owner's
 * hash). Two-key advisory locks are a space apart from the one-key locks kysely's migrator and
 * pg-boss take; two owners whose names hash alike only wait on each other.
 */
const ACTIVE_RUNS_LOCK_CLASS = 0x6d637072;

type Row = Pick<Selectable<StoreDatabase['mcp_runs']>, (typeof COLUMNS)[number]>;

export interface PostgresRunStoreOptions {
  /** A pool of its own (`createStorePool`); the store owns it from here, and `close()` ends it. */
  pool: pg.Pool;
  logger: Logger;
  /** Stamps `createdAt` and `lastUpdatedAt`, and decides what has expired; tests fix it. */
  now?: () => Date;
  /** The per-run step bounds; only tests lower them, to reach them without a thousand writes. */
  maxSteps?: number;
  maxStepsBytes?: number;
}

/**
 * Migrates the schema (the task list's Migrator; once across replicas) and returns the store.
 * Rejects with a `TodoStoreUnavailableError` when Postgres cannot be reached.
 */
export async function openPostgresRunStore({
  pool,
  logger,
  now = () => new Date(),
  maxSteps = MAX_RUN_STEPS,
  maxStepsBytes = MAX_RUN_STEPS_BYTES,
}: PostgresRunStoreOptions): Promise<RunStore> {
  const { db, close } = await openStoreDatabase(pool).catch((error: unknown) => {
    if (error instanceof TodoStoreUnavailableError)
      logger.warn({ err: error.cause }, 'the run database is unreachable');
    throw error;
  });

  // Every read compares `expires_at` with the clock: a run past its TTL is gone to every reader,
  // whether or not `deleteExpired` has run yet.
  const runs = () => db.selectFrom('mcp_runs').select(COLUMNS);
  const get = async (owner: string, id: string): Promise<TaskRecord | undefined> => {
    checkOwner(owner);
    if (!isRunId(id)) return undefined;
    const row = await runs()
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('expires_at', '>', now())
      .executeTakeFirst();
    return row && toRun(row);
  };

  const insert = (trx: Kysely<StoreDatabase>, run: NewTaskRecord, checked: CheckedNewRun) => {
    const created = now();
    return trx
      .insertInto('mcp_runs')
      .values({
        id: newRunId(),
        owner: run.owner,
        tool: run.tool,
        arguments: checked.arguments.json,
        caller: checked.caller.json,
        status: 'working',
        status_message: run.statusMessage ?? null,
        created_at: created.toISOString(),
        last_updated_at: created.toISOString(),
        expires_at: new Date(created.getTime() + run.ttlMs).toISOString(),
        ttl_ms: run.ttlMs,
        poll_interval_ms: run.pollIntervalMs,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  };

  return {
    async create(run) {
      return toRun(await insert(db, run, checkNewRun(run)));
    },
    async createWithin(run, maxActive) {
      const checked = checkNewRun(run);
      checkMaxActive(maxActive);
      const row = await db.transaction().execute(async (trx) => {
        // Creates of one owner take turns, on every replica, until this transaction ends: a count
        // and an insert by two of them at once would both see room for one more run.
        await sql`SELECT pg_advisory_xact_lock(${ACTIVE_RUNS_LOCK_CLASS}::integer, hashtext(${run.owner}))`.execute(
          trx,
        );
        const { active } = await trx
          .selectFrom('mcp_runs')
          .select((eb) => eb.fn.countAll<string>().as('active'))
          .where('owner', '=', run.owner)
          .where('status', 'in', ACTIVE_RUN_STATUSES)
          .where('expires_at', '>', now())
          .executeTakeFirstOrThrow();
        return Number(active) < maxActive ? insert(trx, run, checked) : undefined;
      });
      return row && toRun(row);
    },
    get,
    async load(id) {
      if (!isRunId(id)) return undefined;
      const row = await runs().where('id', '=', id).where('expires_at', '>', now()).executeTakeFirst();
      return row && toRun(row);
    },
    async update(id, update) {
      const checked = checkUpdate(update);
      if (!isRunId(id)) return undefined;
      const at = now();
      const row = await db
        .updateTable('mcp_runs')
        .set({
          status: update.status,
          // Left out, the message stays as it was.
          ...(update.statusMessage !== undefined && { status_message: update.statusMessage }),
          ...(checked.inputRequests !== 'keep' && { input_requests: checked.inputRequests }),
          result: checked.result,
          error: checked.error,
          last_updated_at: at.toISOString(),
        })
        .where('id', '=', id)
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .where('expires_at', '>', at)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row && toRun(row);
    },
    async cancel(owner, id) {
      checkOwner(owner);
      if (!isRunId(id)) return undefined;
      const at = now();
      const row = await db
        .updateTable('mcp_runs')
        .set({ status: 'cancelled', input_requests: null, last_updated_at: at.toISOString() })
        .where('id', '=', id)
        .where('owner', '=', owner)
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .where('expires_at', '>', at)
        .returning(COLUMNS)
        .executeTakeFirst();
      // Already terminal (or not there): the run as it is, or undefined.
      return row ? toRun(row) : get(owner, id);
    },
    async answer(owner, id, responses) {
      checkOwner(owner);
      if (!isRunId(id)) return undefined;
      const at = now();
      const row = await db.transaction().execute(async (trx) => {
        // The row lock makes concurrent answers (and a cancel) take turns on the open questions.
        const found = await trx
          .selectFrom('mcp_runs')
          .select(COLUMNS)
          .where('id', '=', id)
          .where('owner', '=', owner)
          .where('expires_at', '>', at)
          .forUpdate()
          .executeTakeFirst();
        const open =
          found?.status === 'input_required'
            ? (found.input_requests as Record<string, unknown> | null)
            : null;
        const plan = open ? planAnswer(open, responses) : undefined;
        if (!found || !plan) return found;
        for (const step of plan.steps) {
          const { rows } = await sql<{ seq: string }>`
            WITH used AS (
              SELECT count(*) AS n, coalesce(sum(size), 0) AS bytes FROM mcp_run_steps WHERE run_id = ${id}
            )
            INSERT INTO mcp_run_steps (run_id, step_key, value, size)
            SELECT ${id}::text, ${step.key}::text, ${step.value.json}::json, ${step.value.bytes}::integer FROM used
            WHERE used.n < ${maxSteps}::bigint AND used.bytes + ${step.value.bytes}::bigint <= ${maxStepsBytes}::bigint
            ON CONFLICT (run_id, step_key) DO NOTHING
            RETURNING seq`.execute(trx);
          if (rows.length === 1) continue;
          const recorded = await trx
            .selectFrom('mcp_run_steps')
            .select('seq')
            .where('run_id', '=', id)
            .where('step_key', '=', step.key)
            .executeTakeFirst();
          if (!recorded) throw stepBoundError(maxSteps, maxStepsBytes);
        }
        return trx
          .updateTable('mcp_runs')
          .set({
            status: plan.left ? 'input_required' : 'working',
            input_requests: plan.left && JSON.stringify(plan.left),
            last_updated_at: at.toISOString(),
          })
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
      return row && toRun(row);
    },
    async steps(id) {
      if (!isRunId(id)) return [];
      const rows = await db
        .selectFrom('mcp_run_steps')
        .select(['step_key', 'value'])
        .where('run_id', '=', id)
        .where(({ exists, selectFrom }) =>
          exists(selectFrom('mcp_runs').select('id').where('id', '=', id).where('expires_at', '>', now())),
        )
        .orderBy('seq')
        .execute();
      return rows.map((row) => ({ key: row.step_key, value: row.value }));
    },
    async saveStep(id, key, value) {
      checkStepKey(key);
      const stored = toStoredJson('step value', value);
      if (!isRunId(id)) return false;
      const at = now();
      // One statement: the run must still be working (its row is locked against a concurrent
      // cancel), the bounds must hold, and a key already recorded keeps its first value. Two
      // writers of one run racing past a bound can overshoot it by one step each.
      const { rows } = await sql<{ seq: string }>`
        WITH run AS (
          SELECT id FROM mcp_runs
          WHERE id = ${id} AND status = 'working' AND expires_at > ${at}
          FOR SHARE
        ), used AS (
          SELECT count(*) AS n, coalesce(sum(size), 0) AS bytes FROM mcp_run_steps WHERE run_id = ${id}
        )
        INSERT INTO mcp_run_steps (run_id, step_key, value, size)
        SELECT run.id, ${key}::text, ${stored.json}::json, ${stored.bytes}::integer FROM run, used
        WHERE used.n < ${maxSteps}::bigint AND used.bytes + ${stored.bytes}::bigint <= ${maxStepsBytes}::bigint
        ON CONFLICT (run_id, step_key) DO NOTHING
        RETURNING seq`.execute(db);
      if (rows.length === 1) return true;
      // Nothing inserted: the run stopped working, the key was there first, or a bound was reached.
      const { rows: found } = await sql<{ working: boolean | null; recorded: boolean }>`
        SELECT
          (SELECT true FROM mcp_runs WHERE id = ${id} AND status = 'working' AND expires_at > ${at}) AS working,
          EXISTS (SELECT 1 FROM mcp_run_steps WHERE run_id = ${id} AND step_key = ${key}) AS recorded`.execute(
        db,
      );
      if (!found[0]?.working) return false;
      if (found[0].recorded) return true;
      throw stepBoundError(maxSteps, maxStepsBytes);
    },
    async unfinished() {
      return db
        .selectFrom('mcp_runs')
        .select(['id', 'owner'])
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .where('expires_at', '>', now())
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    async deleteExpired() {
      // The foreign key's ON DELETE CASCADE takes each run's steps in the same statement.
      const result = await db.deleteFrom('mcp_runs').where('expires_at', '<=', now()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    close,
  };
}

function toRun(row: Row): TaskRecord {
  return {
    id: row.id,
    owner: row.owner,
    tool: row.tool,
    arguments: row.arguments as Record<string, unknown>,
    caller: row.caller as Record<string, unknown>,
    status: row.status as TaskStatus,
    statusMessage: row.status_message,
    createdAt: row.created_at.toISOString(),
    lastUpdatedAt: row.last_updated_at.toISOString(),
    ttlMs: Number(row.ttl_ms),
    pollIntervalMs: row.poll_interval_ms,
    result: row.result as Record<string, unknown> | null,
    error: row.error as TaskError | null,
    inputRequests: row.input_requests as Record<string, unknown> | null,
  };
}
