/**
 * @module postgres
 * The Postgres pieces on their own (`@mcp-workshop/task-store/postgres`), for tests and tools that
 * set a database up by hand: the task list's and the runs' stores, and the pg-boss run queue.
 * Importing this loads `pg`, kysely and pg-boss; the main entry never does.
 */

export { migrateStoreDatabase, STORE_MIGRATIONS, type StoreDatabase } from './postgres-migrations.js';
export { createStorePool, pingDatabase } from './postgres-pool.js';
export { openPostgresTodoStore, type PostgresTodoStore } from './postgres-store.js';
export { PG_BOSS_SCHEMA, type PgBossTiming, RUN_QUEUE_NAME } from './runs/pg-boss-jobs.js';
export {
  createPgBossRunQueue,
  PG_BOSS_POOL_MAX,
  PG_BOSS_TIMING,
  type PgBossRunQueueOptions,
} from './runs/pg-boss-queue.js';
export { openPostgresRunStore, type PostgresRunStoreOptions } from './runs/postgres-run-store.js';
