/**
 * @module postgres-open
 * What both Postgres stores (the task list, `postgres-store.ts`, and the runs,
 * `runs/postgres-run-store.ts`) do first: a kysely database over their pool, migrated (once across
 * replicas; see postgres-migrations.ts), and a `close()` that ends the pool once.
 */
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { redactDatabaseUrl, StoreMigrationError } from './database-url.js';
import { migrateStoreDatabase, type StoreDatabase } from './postgres-migrations.js';
import { isConnectionError } from './postgres-pool.js';
import { TodoStoreUnavailableError } from './store.js';

export interface OpenStoreDatabase {
  db: Kysely<StoreDatabase>;
  /** Ends the pool; a second call does nothing. */
  close(): Promise<void>;
}

/**
 * Rejects with a `TodoStoreUnavailableError` when Postgres cannot be reached, and with a
 * `StoreMigrationError` naming DATABASE_URL (password redacted) when migrating fails otherwise;
 * the pool is ended either way.
 */
export async function openStoreDatabase(pool: pg.Pool): Promise<OpenStoreDatabase> {
  const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.destroy();
  };
  try {
    await migrateStoreDatabase(db, redactDatabaseUrl(pool.options.connectionString ?? ''));
  } catch (error) {
    await close();
    if (!isConnectionError(error)) throw error;
    // The driver's own words are the useful part ("connect ECONNREFUSED 127.0.0.1:5432").
    throw new TodoStoreUnavailableError({
      cause: error instanceof StoreMigrationError ? error.cause : error,
    });
  }
  return { db, close };
}
