/**
 * @module postgres-store.contract.test
 * The shared task-store contract (`test-support/task-store-contract.ts`) against the Postgres
 * adapter, on a throwaway PostgreSQL cluster, each test in a new database. Skipped, with one
 * line, where the PostgreSQL server binaries are not installed (never in CI).
 */
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe } from 'vitest';
import { migrateTaskDatabase, TASK_MIGRATIONS, type TaskDatabase } from './postgres-migrations.js';
import { createTaskPool } from './postgres-pool.js';
import { openPostgresTaskStore } from './postgres-store.js';
import { createSilentLogger } from './test-support/silent-logger.js';
import { describeTaskStoreContract } from './test-support/task-store-contract.js';

const available = systemPrograms('the Postgres task-store contract tests', ['postgres']);

describe.skipIf(!available.ok)('openPostgresTaskStore', () => {
  let cluster: PostgresCluster;
  let url = '';
  let databases = 0;

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy());

  describeTaskStoreContract('Postgres', {
    async freshDatabase() {
      databases += 1;
      url = await cluster.createDatabase(`contract_${databases}`);
    },
    open(options) {
      const logger = createSilentLogger();
      return openPostgresTaskStore({
        pool: createTaskPool({ connectionString: url, logger }),
        logger,
        ...options,
      });
    },
    async seedVersion1(tasks) {
      // Written the way a server of migration 0001 wrote it: the migration, its rows, its count.
      const logger = createSilentLogger();
      const db = new Kysely<TaskDatabase>({
        dialect: new PostgresDialect({ pool: createTaskPool({ connectionString: url, logger }) }),
      });
      try {
        const first = TASK_MIGRATIONS['0001_tasks'];
        if (!first) throw new Error('migration 0001_tasks is missing');
        await migrateTaskDatabase(db, url, { '0001_tasks': first });
        for (const [index, task] of tasks.entries()) {
          const at = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
          await sql`INSERT INTO tasks (title, done, created_at, completed_at)
                    VALUES (${task.title}, ${task.done}, ${at}::timestamptz, ${task.done ? at : null}::timestamptz)`.execute(
            db,
          );
        }
        await sql`UPDATE task_count SET n = ${tasks.length}`.execute(db);
      } finally {
        await db.destroy();
      }
    },
  });
});
