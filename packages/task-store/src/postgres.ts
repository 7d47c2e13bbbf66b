/**
 * @module postgres
 * The Postgres pieces on their own (`@mcp-workshop/task-store/postgres`), for tests and tools that
 * set a database up by hand. Importing this loads `pg` and kysely; the main entry never does.
 */

export { migrateTaskDatabase, TASK_MIGRATIONS, type TaskDatabase } from './postgres-migrations.js';
export { createTaskPool, pingDatabase } from './postgres-pool.js';
export { openPostgresTaskStore, type PostgresTaskStore } from './postgres-store.js';
