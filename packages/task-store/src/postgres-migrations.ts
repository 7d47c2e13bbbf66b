/**
 * @module postgres-migrations
 * The Postgres task schema and its migrations, run by kysely's `Migrator`. The Migrator holds a
 * Postgres advisory lock while it migrates, and runs each migration in a transaction, so replicas
 * that start at once run every migration exactly once and a failed one leaves nothing half-done.
 * Append new migrations; never edit a shipped one. Used by `postgres-store.ts`.
 */
import { type ColumnType, type Kysely, type Migration, Migrator, sql } from 'kysely';
import { StoreMigrationError } from './database-url.js';
import { RUNS_MIGRATION, type RunTables } from './runs/postgres-run-schema.js';
import { MAX_OWNER_LENGTH, MAX_TITLE_LENGTH } from './store.js';

/**
 * The tables as kysely sees them, the runs' (MCP tasks, `runs/postgres-run-schema.ts`) included.
 * `bigint` arrives from `pg` as a string.
 */
export interface StoreDatabase extends RunTables {
  tasks: {
    /** The row's own key, internal since 0003: callers see `number`. */
    id: ColumnType<string, never, never>;
    /** Whose task it is (store.ts); set once, by the add. */
    owner: ColumnType<string, string, never>;
    /** The task's id as its owner sees it, unique per owner (0003); set once, by the add. */
    number: ColumnType<string, string, never>;
    title: string;
    done: ColumnType<boolean, never, boolean>;
    created_at: ColumnType<Date, Date, never>;
    completed_at: ColumnType<Date | null, never, Date>;
  };
  /**
   * Per owner: how many tasks, for the per-owner MAX_TODOS check (0002; it replaced 0001's
   * `task_count`), and the last number handed out (0003), whose default is a new owner's first.
   */
  task_owner_count: {
    owner: string;
    n: number;
    last_number: ColumnType<string, string | undefined, string>;
  };
}

/** Kysely keeps its own bookkeeping tables; prefixed so they are clearly this server's. */
const MIGRATION_TABLE = 'task_migrations';
const MIGRATION_LOCK_TABLE = 'task_migrations_lock';
/** An arbitrary key (bigint), this server's own among the database's advisory locks; a literal, not a parameter. */
const MIGRATION_ADVISORY_LOCK = sql.lit(7_210_531_846_117);

export const STORE_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_tasks': {
    async up(db) {
      // An identity, like SQLite's AUTOINCREMENT, never hands out an id twice, even after deletes,
      // so an old id a model remembers can never hit a different task.
      await sql`
        CREATE TABLE tasks (
          id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND ${sql.lit(MAX_TITLE_LENGTH)}),
          done boolean NOT NULL DEFAULT false,
          created_at timestamptz NOT NULL,
          completed_at timestamptz
        )`.execute(db);
      // The task count in one row. An add updates it under the row's lock, so two writers take
      // turns at the MAX_TODOS check instead of both counting the same snapshot.
      await sql`
        CREATE TABLE task_count (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          n integer NOT NULL CHECK (n >= 0)
        )`.execute(db);
      await sql`INSERT INTO task_count (n) VALUES (0)`.execute(db);
    },
  },
  '0002_task_owners': {
    async up(db) {
      // Tasks stored before there were owners were the one shared list: they stay the shared
      // owner's (''), the list stdio and no-sign-in HTTP keep using. The default only serves that
      // backfill; it is dropped after, so an insert that forgot the owner fails instead of landing
      // in the shared list.
      await sql`
        ALTER TABLE tasks ADD COLUMN owner text NOT NULL DEFAULT ''
          CHECK (char_length(owner) <= ${sql.lit(MAX_OWNER_LENGTH)})`.execute(db);
      await sql`ALTER TABLE tasks ALTER COLUMN owner DROP DEFAULT`.execute(db);
      await sql`CREATE INDEX tasks_owner_id ON tasks (owner, id)`.execute(db);
      // MAX_TODOS is per owner now, so the one count row becomes one row per owner. An add upserts
      // its owner's row under that row's lock, so two writers for one owner still take turns at the
      // check, and writers for different owners no longer queue behind one row.
      await sql`
        CREATE TABLE task_owner_count (
          owner text PRIMARY KEY CHECK (char_length(owner) <= ${sql.lit(MAX_OWNER_LENGTH)}),
          n integer NOT NULL CHECK (n >= 0)
        )`.execute(db);
      await sql`
        INSERT INTO task_owner_count (owner, n)
        SELECT owner, count(*) FROM tasks GROUP BY owner`.execute(db);
      await sql`DROP TABLE task_count`.execute(db);
    },
  },
  '0003_task_numbers': {
    async up(db) {
      // One identity for everybody told each user how many tasks the others wrote, and when. The
      // id a caller sees becomes `number`, unique per owner; the identity stays as the row's
      // internal key. Existing tasks keep their id as their number, so the ids models remember
      // still name the same tasks. ALTER TABLE goes first: its lock waits out any add still in
      // flight, so the identity read below has seen every id ever handed out.
      await sql`ALTER TABLE tasks ADD COLUMN number bigint CHECK (number > 0)`.execute(db);
      await sql`UPDATE tasks SET number = id`.execute(db);
      await sql`ALTER TABLE tasks ALTER COLUMN number SET NOT NULL`.execute(db);
      await sql`ALTER TABLE tasks ADD CONSTRAINT tasks_owner_number UNIQUE (owner, number)`.execute(db);
      // The unique index serves every lookup and the list order now.
      await sql`DROP INDEX tasks_owner_id`.execute(db);
      // Each owner's high-water mark lives on their count row, which is never deleted: an add
      // raises it under that row's lock, nothing lowers it, so an owner never gets a deleted task's
      // id again, not even after deleting every task. What ids each owner had before this migration
      // is unknowable (an owner whose tasks were all deleted may have no row left to count from),
      // so every owner's new numbers start above the last id handed out before it: existing rows
      // get that floor, and the column default (a new owner's first number) is floor + 1. The floor
      // tells each owner only how many tasks everybody had written before the upgrade, once, as a
      // constant. An identity never used has no last value: then the floor is 0, ids start at 1.
      const { rows } = await sql<{ floor: string }>`
        SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('tasks', 'id')::regclass), 0)::text
          AS floor`.execute(db);
      // A bigint as text from Postgres: BigInt keeps it exact, and sql.lit puts it in the DDL,
      // which takes no parameters.
      const floor = BigInt(rows[0]?.floor ?? '0');
      await sql`
        ALTER TABLE task_owner_count ADD COLUMN last_number bigint NOT NULL DEFAULT ${sql.lit(floor.toString())}::bigint
          CHECK (last_number >= 0)`.execute(db);
      await sql`
        ALTER TABLE task_owner_count ALTER COLUMN last_number SET DEFAULT ${sql.lit((floor + 1n).toString())}::bigint`.execute(
        db,
      );
    },
  },
  // MCP tasks ("runs") and their steps, beside the task list: runs/postgres-run-schema.ts.
  '0004_runs': RUNS_MIGRATION,
};

/**
 * Brings the schema up to date, or rejects with a {@link StoreMigrationError} whose `cause` is the
 * driver's error (`isConnectionError` on it tells "try later" from "broken").
 */
export async function migrateStoreDatabase(
  db: Kysely<StoreDatabase>,
  redactedUrl: string,
  migrations: Readonly<Record<string, Migration>> = STORE_MIGRATIONS,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  // Kysely's own lock lives in its bookkeeping tables, which the first replica must create: two
  // replicas starting on an empty database both try, and Postgres logs the loser's duplicate-key
  // error (kysely absorbs it). A session advisory lock, on a connection of its own, queues them first.
  const { error, results = [] } = await db.connection().execute(async (session) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_ADVISORY_LOCK})`.execute(session);
    try {
      return await migrator.migrateToLatest();
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_ADVISORY_LOCK})`
        .execute(session)
        .catch(() => undefined);
    }
  });
  if (error === undefined) return;
  const failed = results.find((result) => result.status === 'Error')?.migrationName;
  const reason = error instanceof Error ? error.message : String(error);
  throw new StoreMigrationError(
    `DATABASE_URL=${redactedUrl}: the task database could not be migrated` +
      `${failed ? ` (migration ${failed})` : ''}: ${reason}. ` +
      'Check that Postgres is running and that this user may create tables there, or unset DATABASE_URL to keep tasks in DATA_DIR.',
    { cause: error },
  );
}
