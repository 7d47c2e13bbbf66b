/**
 * @module runs/sqlite-run-store
 * `openSqliteRunStore()`: the {@link RunStore} in the task list's SQLite file (`<dataDir>/tasks.db`,
 * migration 4 of `sqlite-store.ts`), on a connection of its own. Every write is one statement, so
 * kill -9 leaves a run or a step either stored whole or absent; the calls that read after a write
 * (`cancel`, `saveStep`) do both before they return, and one process owns the file, so nothing
 * comes between. Its Postgres twin is `postgres-run-store.ts`; both answer to
 * `test-support/run-store-contract.ts`.
 */

import type {
  NewTaskRecord,
  TaskError,
  TaskRecord,
  TaskStatus,
  TaskStep,
} from '@mcp-workshop/shared/tasks-port';
import type { BindValues, Database, SQLiteValue } from 'node-sqlite3-wasm';
import type { Logger } from '../logger.js';
import { openStoreDatabaseFile } from '../sqlite-store.js';
import { checkOwner } from '../store.js';
import { planAnswer } from './answers.js';
import {
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

export interface SqliteRunStoreOptions {
  /** The task list's folder; the runs live in its database file. */
  dataDir: string;
  logger: Logger;
  /** Stamps `createdAt` and `lastUpdatedAt`, and decides what has expired; tests fix it. */
  now?: () => Date;
  /** The per-run step bounds; only tests lower them, to reach them without a thousand writes. */
  maxSteps?: number;
  maxStepsBytes?: number;
}

const COLUMNS = `id, owner, tool, arguments, caller, status, status_message, created_at, last_updated_at,
  ttl_ms, poll_interval_ms, result, error, input_requests`;
const ACTIVE = "status IN ('working', 'input_required')";
/** A run past its TTL is gone to every reader, whether or not `deleteExpired` has run yet. */
const LIVE = 'expires_at > :now';
const WITHIN_BOUNDS = `(SELECT count(*) FROM mcp_run_steps WHERE run_id = :id) < :maxSteps
  AND (SELECT coalesce(sum(size), 0) FROM mcp_run_steps WHERE run_id = :id) + :size <= :maxBytes`;

const SQL = {
  // `:maxActive` null stores the run whatever its owner has; one statement, so nothing comes between
  // the count and the insert.
  create: `INSERT INTO mcp_runs (id, owner, tool, arguments, caller, status, status_message, created_at,
             last_updated_at, expires_at, ttl_ms, poll_interval_ms)
           SELECT :id, :owner, :tool, :arguments, :caller, 'working', :message, :now, :now, :expires,
             :ttl, :poll
           WHERE :maxActive IS NULL
             OR (SELECT count(*) FROM mcp_runs WHERE owner = :owner AND ${ACTIVE} AND ${LIVE}) < :maxActive
           RETURNING ${COLUMNS}`,
  get: `SELECT ${COLUMNS} FROM mcp_runs WHERE id = :id AND owner = :owner AND ${LIVE}`,
  load: `SELECT ${COLUMNS} FROM mcp_runs WHERE id = :id AND ${LIVE}`,
  // `:keep` leaves the message as it was when the update names none; `:keepRequests` the questions.
  update: `UPDATE mcp_runs SET status = :status,
             status_message = CASE WHEN :keep THEN status_message ELSE :message END,
             input_requests = CASE WHEN :keepRequests THEN input_requests ELSE :requests END,
             result = :result, error = :error, last_updated_at = :now
           WHERE id = :id AND ${ACTIVE} AND ${LIVE}
           RETURNING ${COLUMNS}`,
  cancel: `UPDATE mcp_runs SET status = 'cancelled', input_requests = NULL, last_updated_at = :now
           WHERE id = :id AND owner = :owner AND ${ACTIVE} AND ${LIVE}
           RETURNING ${COLUMNS}`,
  steps: `SELECT step_key, value FROM mcp_run_steps
          WHERE run_id = :id AND EXISTS (SELECT 1 FROM mcp_runs WHERE id = :id AND ${LIVE})
          ORDER BY seq`,
  // One statement checks that the run still works and that its step bounds hold, then inserts; a
  // key already recorded keeps its first value.
  saveStep: `INSERT INTO mcp_run_steps (run_id, step_key, value, size)
             SELECT :id, :key, :value, :size
             WHERE EXISTS (SELECT 1 FROM mcp_runs WHERE id = :id AND status = 'working' AND ${LIVE})
               AND ${WITHIN_BOUNDS}
             ON CONFLICT (run_id, step_key) DO NOTHING`,
  // Inside `answer`'s transaction, which has checked the run already.
  saveAnswer: `INSERT INTO mcp_run_steps (run_id, step_key, value, size)
               SELECT :id, :key, :value, :size WHERE ${WITHIN_BOUNDS}
               ON CONFLICT (run_id, step_key) DO NOTHING`,
  answered: `UPDATE mcp_runs SET status = :status, input_requests = :requests, last_updated_at = :now
             WHERE id = :id RETURNING ${COLUMNS}`,
  working: `SELECT 1 AS working FROM mcp_runs WHERE id = :id AND status = 'working' AND ${LIVE}`,
  hasStep: 'SELECT 1 AS found FROM mcp_run_steps WHERE run_id = :id AND step_key = :key',
  unfinished: `SELECT id, owner FROM mcp_runs WHERE ${ACTIVE} AND ${LIVE} ORDER BY created_at, id`,
  // The trigger of migration 4 deletes each run's steps inside this statement.
  deleteExpired: 'DELETE FROM mcp_runs WHERE expires_at <= :now',
} as const;

/** Opens (creating and migrating if needed) the runs' side of the task database. */
export function openSqliteRunStore({
  dataDir,
  logger,
  now = () => new Date(),
  maxSteps = MAX_RUN_STEPS,
  maxStepsBytes = MAX_RUN_STEPS_BYTES,
}: SqliteRunStoreOptions): RunStore {
  const { db, retry } = openStoreDatabaseFile(dataDir, logger);
  const one = (sql: string, values: BindValues): Row | undefined =>
    (retry(() => db.get(sql, values)) as Row | null) ?? undefined;
  const at = () => now().toISOString();

  const create = (run: NewTaskRecord, maxActive: number | null): TaskRecord | undefined => {
    const checked = checkNewRun(run);
    if (maxActive !== null) checkMaxActive(maxActive);
    const created = now();
    const row = one(SQL.create, {
      ':id': newRunId(),
      ':owner': run.owner,
      ':tool': run.tool,
      ':arguments': checked.arguments.json,
      ':caller': checked.caller.json,
      ':message': run.statusMessage ?? null,
      ':now': created.toISOString(),
      ':expires': new Date(created.getTime() + run.ttlMs).toISOString(),
      ':ttl': run.ttlMs,
      ':poll': run.pollIntervalMs,
      ':maxActive': maxActive,
    });
    return row && toRun(row);
  };

  return {
    async create(run) {
      const stored = create(run, null);
      if (!stored) throw new Error('The new run was not stored.');
      return stored;
    },
    async createWithin(run, maxActive) {
      return create(run, maxActive);
    },
    async get(owner, id) {
      checkOwner(owner);
      if (!isRunId(id)) return undefined;
      const row = one(SQL.get, { ':id': id, ':owner': owner, ':now': at() });
      return row && toRun(row);
    },
    async load(id) {
      if (!isRunId(id)) return undefined;
      const row = one(SQL.load, { ':id': id, ':now': at() });
      return row && toRun(row);
    },
    async update(id, update) {
      const checked = checkUpdate(update);
      if (!isRunId(id)) return undefined;
      const row = one(SQL.update, {
        ':id': id,
        ':status': update.status,
        ':keep': update.statusMessage === undefined ? 1 : 0,
        ':message': update.statusMessage ?? null,
        ':keepRequests': checked.inputRequests === 'keep' ? 1 : 0,
        ':requests': checked.inputRequests === 'keep' ? null : checked.inputRequests,
        ':result': checked.result,
        ':error': checked.error,
        ':now': at(),
      });
      return row && toRun(row);
    },
    async cancel(owner, id) {
      checkOwner(owner);
      if (!isRunId(id)) return undefined;
      const values = { ':id': id, ':owner': owner, ':now': at() };
      // Already terminal (or not there): the run as it is, or undefined.
      const row = one(SQL.cancel, values) ?? one(SQL.get, values);
      return row && toRun(row);
    },
    async answer(owner, id, responses) {
      checkOwner(owner);
      if (!isRunId(id)) return undefined;
      const values = { ':id': id, ':owner': owner, ':now': at() };
      const row = retry(() =>
        inTransaction(db, () => {
          const found = one(SQL.get, values);
          const open = found?.status === 'input_required' && parse(found.input_requests);
          const plan = open ? planAnswer(open as Record<string, unknown>, responses) : undefined;
          if (!found || !plan) return found;
          for (const step of plan.steps) {
            const bound = { ':maxSteps': maxSteps, ':maxBytes': maxStepsBytes };
            const saved = {
              ':id': id,
              ':key': step.key,
              ':value': step.value.json,
              ':size': step.value.bytes,
            };
            if (db.run(SQL.saveAnswer, { ...saved, ...bound }).changes === 1) continue;
            if (!one(SQL.hasStep, { ':id': id, ':key': step.key }))
              throw stepBoundError(maxSteps, maxStepsBytes);
          }
          return one(SQL.answered, {
            ':id': id,
            ':status': plan.left ? 'input_required' : 'working',
            ':requests': plan.left && JSON.stringify(plan.left),
            ':now': values[':now'],
          });
        }),
      );
      return row && toRun(row);
    },
    async steps(id) {
      if (!isRunId(id)) return [];
      const rows = retry(() => db.all(SQL.steps, { ':id': id, ':now': at() })) as Row[];
      return rows.map(toStep);
    },
    async saveStep(id, key, value) {
      checkStepKey(key);
      const stored = toStoredJson('step value', value);
      if (!isRunId(id)) return false;
      const live = { ':id': id, ':now': at() };
      const { changes } = retry(() =>
        db.run(SQL.saveStep, {
          ...live,
          ':key': key,
          ':value': stored.json,
          ':size': stored.bytes,
          ':maxSteps': maxSteps,
          ':maxBytes': maxStepsBytes,
        }),
      );
      if (changes === 1) return true;
      // Nothing inserted: the run stopped working, the key was there first, or a bound was reached.
      if (!one(SQL.working, live)) return false;
      if (one(SQL.hasStep, { ':id': id, ':key': key })) return true;
      throw stepBoundError(maxSteps, maxStepsBytes);
    },
    async unfinished() {
      const rows = retry(() => db.all(SQL.unfinished, { ':now': at() })) as Row[];
      return rows.map((row) => ({ id: String(row.id), owner: String(row.owner) }));
    },
    async deleteExpired() {
      return retry(() => db.run(SQL.deleteExpired, { ':now': at() })).changes;
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}

type Row = Record<string, SQLiteValue>;

function toRun(row: Row): TaskRecord {
  return {
    id: String(row.id),
    owner: String(row.owner),
    tool: String(row.tool),
    arguments: JSON.parse(String(row.arguments)) as Record<string, unknown>,
    caller: JSON.parse(String(row.caller)) as Record<string, unknown>,
    status: String(row.status) as TaskStatus,
    statusMessage: row.status_message === null ? null : String(row.status_message),
    createdAt: String(row.created_at),
    lastUpdatedAt: String(row.last_updated_at),
    ttlMs: Number(row.ttl_ms),
    pollIntervalMs: Number(row.poll_interval_ms),
    result: parse(row.result) as Record<string, unknown> | null,
    error: parse(row.error) as TaskError | null,
    inputRequests: parse(row.input_requests) as Record<string, unknown> | null,
  };
}

function parse(value: SQLiteValue | undefined): unknown {
  return value === null || value === undefined ? null : JSON.parse(String(value));
}

/** Runs `work` in one write transaction: kill -9 leaves all of it or none. Safe to repeat when busy. */
function inTransaction<T>(db: Database, work: () => T): T {
  // IMMEDIATE takes the write lock first, so what `work` reads cannot change before it writes.
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function toStep(row: Row): TaskStep {
  return { key: String(row.step_key), value: JSON.parse(String(row.value)) };
}
