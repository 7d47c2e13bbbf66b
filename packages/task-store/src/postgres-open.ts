/**
 * @module postgres-open
 * What both Postgres stores (the task list, `postgres-store.ts`, and the runs,
 * `runs/postgres-run-store.ts`) do first: a kysely database over their pool, migrated (once across
 * replicas; see postgres-migrations.ts), and a `close()` that ends the pool once.
 */
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { redactDatabaseUrl, TaskMigrationError } from './database-url.js';
import { migrateTaskDatabase, type TaskDatabase } from './postgres-migrations.js';
import { isConnectionError } from './postgres-pool.js';
import { TaskStoreUnavailableError } from './store.js';

export interface OpenTaskDatabase {
  db: Kysely<TaskDatabase>;
  /** Ends the pool; a second call does nothing. */
  close(): Promise<void>;
}

/**
 * Rejects with a `TaskStoreUnavailableError` when Postgres cannot be reached, and with a
 * `TaskMigrationError` naming DATABASE_URL (password redacted) when migrating fails otherwise;
 * the pool is ended either way.
 */
export async function openTaskDatabase(pool: pg.Pool): Promise<OpenTaskDatabase> {
  const db = new Kysely<TaskDatabase>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.destroy();
  };
  try {
    await migrateTaskDatabase(db, redactDatabaseUrl(pool.options.connectionString ?? ''));
  } catch (error) {
    await close();
    if (!isConnectionError(error)) throw error;
    // The driver's own words are the useful part ("connect ECONNREFUSED 127.0.0.1:5432").
    throw new TaskStoreUnavailableError({ cause: error instanceof TaskMigrationError ? error.cause : error });
  }
  return { db, close };
}
