/**
 * @module sqlite-store
 * `openTodoStore()`: the {@link TodoStore} over a SQLite file, `<dataDir>/tasks.db`, through
 * `node-sqlite3-wasm`. Every write is one statement, so even kill -9 leaves a task either fully
 * stored or absent. Stale-lock removal and busy retries live in `sqlite-lock.ts`; tests in
 * `sqlite-store.test.ts`.
 *
 * Crash recovery is SQLite's own hot-journal rollback, which needs a small fix to the package:
 * `patches/node-sqlite3-wasm@0.8.60.patch` (applied by pnpm through `patchedDependencies` in
 * `pnpm-workspace.yaml`). The package's xCheckReservedLock answered "does `<file>.lock` exist?",
 * but the package takes that same directory for every lock level, so a reader holding its own
 * SHARED lock was told another connection held RESERVED. SQLite then treated a killed writer's
 * journal as belonging to a live one, never rolled it back, and read its half-written pages as if
 * committed. The patch answers "no" when this handle holds the lock itself, which is correct
 * because the directory lock is exclusive. To report upstream (github.com/tndrle/node-sqlite3-wasm);
 * drop the patch once a release fixes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BindValues, Database, SQLiteValue } from 'node-sqlite3-wasm';
import type { Logger } from './logger.js';
import { removeStaleLock, withBusyRetry } from './sqlite-lock.js';
import { loadSqlite } from './sqlite-wasm.js';
import {
  checkOwner,
  checkPageRequest,
  checkTitle,
  isTodoId,
  listFullError,
  MAX_OWNER_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_TODOS,
  pageOf,
  type Todo,
  type TodoStatusFilter,
  type TodoStore,
} from './store.js';

/** Still exported from here for the callers that imported them before there were two adapters. */
export { MAX_TITLE_LENGTH, MAX_TODOS };

/** The database file's name inside `dataDir`. */
export const TASKS_DB_FILE = 'tasks.db';

/**
 * Set on every open, because `synchronous` is per connection. A rollback journal with an fsync on
 * every commit is what lets a committed task survive kill -9 or a power cut
 * (`node-sqlite3-wasm` cannot do WAL).
 */
export const CONNECTION_PRAGMAS = 'PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL;';

/**
 * Migration N takes the schema from `user_version` N-1 to N. Append; never edit a shipped one.
 * AUTOINCREMENT means a row id is never reused, even after deletes; since 3 that id is internal.
 *
 * 2 gives every task an owner (see store.ts). Tasks stored before there were owners were the one
 * shared list, so they stay the shared owner's (`''`, the list stdio and no-sign-in HTTP use).
 * Every statement names the owner, and the index makes each one a range of that owner's rows.
 *
 * 3 numbers each owner's tasks on their own: the id a caller sees is `number`, unique per owner,
 * because one sequence for everybody told each user how many tasks the others wrote, and when.
 * `task_owner_seq` is each owner's high-water mark; the trigger raises it inside the add's own
 * statement (one statement, so kill -9 safe), and nothing lowers or deletes it, so an owner never
 * gets a deleted task's id again, not even after deleting every task. Existing tasks keep their id
 * as their number. The ids handed out before this migration are unknowable per owner (an owner
 * whose tasks were all deleted left no row), so every owner's new numbers start above
 * `task_number_floor`, the last id handed out before it (`sqlite_sequence`; 0 on a new file): an
 * old id a model remembers can never hit a newer task. The floor tells each owner only how many
 * tasks everybody had written before the upgrade, once, as a constant. `number` stays nullable
 * (SQLite cannot add a NOT NULL column without a constant default); only `add` inserts, and it
 * always sets it. The (owner, number) index serves every lookup now, so it replaces `tasks_owner_id`.
 *
 * 4 adds the MCP tasks' storage, "runs" (`runs/sqlite-run-store.ts`): a run's row and its finished
 * steps. `expires_at` is `created_at` plus the run's TTL, kept as ISO text so it compares as text.
 * The trigger deletes a run's steps in the run's own delete statement (one statement, so kill -9
 * safe; foreign keys would need a pragma on every connection). `seq` keeps steps in the order recorded.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE tasks (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND ${MAX_TITLE_LENGTH}),
     done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
     created_at TEXT NOT NULL,
     completed_at TEXT
   )`,
  `ALTER TABLE tasks ADD COLUMN owner TEXT NOT NULL DEFAULT '' CHECK (length(owner) <= ${MAX_OWNER_LENGTH});
   CREATE INDEX tasks_owner_id ON tasks (owner, id);`,
  `CREATE TABLE task_number_floor (
     singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
     last_id INTEGER NOT NULL CHECK (last_id >= 0)
   );
   INSERT INTO task_number_floor (singleton, last_id)
     VALUES (1, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'tasks'), 0));
   CREATE TABLE task_owner_seq (
     owner TEXT PRIMARY KEY CHECK (length(owner) <= ${MAX_OWNER_LENGTH}),
     last_number INTEGER NOT NULL CHECK (last_number > 0)
   );
   ALTER TABLE tasks ADD COLUMN number INTEGER CHECK (number > 0);
   UPDATE tasks SET number = id;
   CREATE UNIQUE INDEX tasks_owner_number ON tasks (owner, number);
   DROP INDEX tasks_owner_id;
   CREATE TRIGGER tasks_owner_seq_after_insert AFTER INSERT ON tasks WHEN NEW.number IS NOT NULL BEGIN
     INSERT INTO task_owner_seq (owner, last_number) VALUES (NEW.owner, NEW.number)
       ON CONFLICT (owner) DO UPDATE SET last_number = max(last_number, excluded.last_number);
   END;`,
  `CREATE TABLE mcp_runs (
     id TEXT PRIMARY KEY CHECK (length(id) = 22),
     owner TEXT NOT NULL CHECK (length(owner) <= ${MAX_OWNER_LENGTH}),
     tool TEXT NOT NULL,
     arguments TEXT NOT NULL,
     caller TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
     status_message TEXT,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     ttl_ms INTEGER NOT NULL CHECK (ttl_ms > 0),
     poll_interval_ms INTEGER NOT NULL CHECK (poll_interval_ms > 0),
     result TEXT,
     error TEXT,
     input_requests TEXT
   );
   CREATE INDEX mcp_runs_expires_at ON mcp_runs (expires_at);
   CREATE INDEX mcp_runs_active ON mcp_runs (created_at) WHERE status IN ('working', 'input_required');
   CREATE TABLE mcp_run_steps (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     run_id TEXT NOT NULL,
     step_key TEXT NOT NULL,
     value TEXT NOT NULL,
     size INTEGER NOT NULL CHECK (size >= 0),
     UNIQUE (run_id, step_key)
   );
   CREATE TRIGGER mcp_runs_delete_steps AFTER DELETE ON mcp_runs BEGIN
     DELETE FROM mcp_run_steps WHERE run_id = OLD.id;
   END;`,
];

/** `number` is the id the owner sees (migration 3); the row's own `id` never leaves this file. */
const COLUMNS = 'number, title, done, created_at, completed_at';

const SQL = {
  // One statement checks the owner's bound, takes the owner's next number and inserts (the trigger
  // of migration 3 records the number), so two writers cannot both squeeze past the bound or take
  // one number. A refused add inserts nothing, so it takes no number.
  add: `INSERT INTO tasks (owner, number, title, created_at)
        SELECT :owner,
               coalesce((SELECT last_number FROM task_owner_seq WHERE owner = :owner),
                        (SELECT last_id FROM task_number_floor)) + 1,
               :title, :now
        WHERE (SELECT count(*) FROM tasks WHERE owner = :owner) < :max
        RETURNING ${COLUMNS}`,
  list: {
    all: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? ORDER BY number`,
    open: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? AND done = 0 ORDER BY number`,
    done: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? AND done = 1 ORDER BY number`,
  } satisfies Record<TodoStatusFilter, string>,
  // The (owner, number) index serves both: a page reads its own rows, however deep it starts.
  listPage: {
    all: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? AND number > ? ORDER BY number LIMIT ?`,
    open: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? AND number > ? AND done = 0 ORDER BY number LIMIT ?`,
    done: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? AND number > ? AND done = 1 ORDER BY number LIMIT ?`,
  } satisfies Record<TodoStatusFilter, string>,
  get: `SELECT ${COLUMNS} FROM tasks WHERE owner = ? AND number = ?`,
  // coalesce keeps the first completion time, so completing twice changes nothing.
  complete: `UPDATE tasks SET done = 1, completed_at = coalesce(completed_at, ?) WHERE owner = ? AND number = ? RETURNING ${COLUMNS}`,
  delete: `DELETE FROM tasks WHERE owner = ? AND number = ? RETURNING ${COLUMNS}`,
} as const;

export interface TodoStoreOptions {
  /** Created if missing; the database is `<dataDir>/tasks.db`. */
  dataDir: string;
  logger: Logger;
  /** Clock for `createdAt` and `completedAt`; tests pass a fixed one. */
  now?: () => Date;
  /** The per-owner list bound; only tests lower it, to reach it without 10,000 inserts. */
  maxTodos?: number;
}

/**
 * Opens (creating and migrating if needed) the task database. Call `close()` when done. Opening
 * and every call are synchronous underneath; the methods are async only to share the
 * {@link TodoStore} shape with Postgres, and run their statement before they return.
 */
export function openTodoStore({
  dataDir,
  logger,
  now = () => new Date(),
  maxTodos = MAX_TODOS,
}: TodoStoreOptions): TodoStore {
  const { db, retry } = openStoreDatabaseFile(dataDir, logger);

  const one = (sql: string, values: BindValues): Todo | undefined => {
    const row = retry(() => db.get(sql, values)) as Row | null;
    return row ? toTodo(row) : undefined;
  };

  return {
    async add(owner, title) {
      checkOwner(owner);
      checkTitle(title);
      const task = one(SQL.add, {
        ':owner': owner,
        ':title': title,
        ':now': now().toISOString(),
        ':max': maxTodos,
      });
      if (!task) throw listFullError(maxTodos);
      return task;
    },
    async list(owner, status) {
      checkOwner(owner);
      return (retry(() => db.all(SQL.list[status], [owner])) as Row[]).map(toTodo);
    },
    async listPage(owner, status, page) {
      checkOwner(owner);
      checkPageRequest(page);
      const rows = retry(() => db.all(SQL.listPage[status], [owner, page.after, page.limit + 1])) as Row[];
      return pageOf(rows.map(toTodo), page.limit);
    },
    async get(owner, id) {
      checkOwner(owner);
      return isTodoId(id) ? one(SQL.get, [owner, id]) : undefined;
    },
    async complete(owner, id) {
      checkOwner(owner);
      return isTodoId(id) ? one(SQL.complete, [now().toISOString(), owner, id]) : undefined;
    },
    async delete(owner, id) {
      checkOwner(owner);
      return isTodoId(id) ? one(SQL.delete, [owner, id]) : undefined;
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}

/** An open, migrated connection to `<dataDir>/tasks.db`, and the busy retry its statements go through. */
export interface StoreDatabaseFile {
  db: Database;
  retry<T>(op: () => T): T;
}

/**
 * Opens (creating and migrating if needed) the database file. The task list and the runs
 * (`runs/sqlite-run-store.ts`) each open their own connection with it; both live in one process, and
 * every statement finishes before the next starts, so they never wait on each other's lock.
 */
export function openStoreDatabaseFile(dataDir: string, logger: Logger): StoreDatabaseFile {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, TASKS_DB_FILE);
  // Before the first access: a crash may have left a lock that makes every access busy. Once it is
  // gone, the first read rolls back the dead writer's journal (SQLite's own recovery; see above).
  removeStaleLock(file, logger);
  const sqlite = loadSqlite();
  const db = new sqlite.Database(file);
  const retry = <T>(op: () => T): T => withBusyRetry(file, logger, op);
  try {
    retry(() => db.exec(CONNECTION_PRAGMAS));
    retry(() => migrate(db));
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, retry };
}

type Row = Record<string, SQLiteValue>;

/** Brings the schema up to date in one transaction, so a crash mid-migration changes nothing. */
function migrate(db: Database): void {
  // IMMEDIATE takes the write lock before reading the version, so two servers cannot both migrate.
  db.exec('BEGIN IMMEDIATE');
  try {
    const version = Number((db.get('PRAGMA user_version') as Row | null)?.user_version ?? 0);
    if (version > MIGRATIONS.length) {
      throw new Error(
        `${TASKS_DB_FILE} has schema version ${version}, but this server only knows up to ${MIGRATIONS.length}. ` +
          'Upgrade the server, or point DATA_DIR at another directory.',
      );
    }
    // An up-to-date file is only read: no write and no fsync on every start.
    if (version < MIGRATIONS.length) {
      for (const migration of MIGRATIONS.slice(version)) db.exec(migration);
      // PRAGMA cannot take bound parameters; the value is a number from this file, never input.
      db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function toTodo(row: Row): Todo {
  return {
    id: Number(row.number),
    title: String(row.title),
    done: row.done === 1,
    createdAt: String(row.created_at),
    completedAt: row.completed_at === null ? null : String(row.completed_at),
  };
}
