/**
 * @module postgres-store.contract.test
 * The shared task-store contract (`test-support/todo-store-contract.ts`) against the Postgres
 * adapter, on a throwaway PostgreSQL cluster, each test in a new database. Skipped, with one
 * line, where the PostgreSQL server binaries are not installed (never in CI).
 */
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe } from 'vitest';
import { migrateStoreDatabase, STORE_MIGRATIONS, type StoreDatabase } from './postgres-migrations.js';
import { createStorePool } from './postgres-pool.js';
import { openPostgresTodoStore } from './postgres-store.js';
import { createSilentLogger } from './test-support/silent-logger.js';
import { describeTodoStoreContract } from './test-support/todo-store-contract.js';

const available = systemPrograms('the Postgres task-store contract tests', ['postgres']);

describe.skipIf(!available.ok)('openPostgresTodoStore', () => {
  let cluster: PostgresCluster;
  let url = '';
  let databases = 0;

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  describeTodoStoreContract('Postgres', {
    async freshDatabase() {
      databases += 1;
      url = await cluster.createDatabase(`contract_${databases}`);
    },
    open(options) {
      const logger = createSilentLogger();
      return openPostgresTodoStore({
        pool: createStorePool({ connectionString: url, logger }),
        logger,
        ...options,
      });
    },
    async seedVersion1(tasks) {
      await seedAt(url, ['0001_tasks'], tasks, []);
    },
    async seedVersion2(tasks, deleted) {
      await seedAt(url, ['0001_tasks', '0002_task_owners'], tasks, deleted);
    },
  });
});

/**
 * Writes the database at `url` the way a server at the last of `migrations` wrote it: those
 * migrations, its rows (ids 1 to n; an owner only from 0002 on) with its count, then its deletes.
 */
async function seedAt(
  url: string,
  migrations: readonly string[],
  tasks: ReadonlyArray<{ owner?: string; title: string; done: boolean }>,
  deleted: readonly number[],
): Promise<void> {
  const logger = createSilentLogger();
  const db = new Kysely<StoreDatabase>({
    dialect: new PostgresDialect({ pool: createStorePool({ connectionString: url, logger }) }),
  });
  const withOwners = migrations.includes('0002_task_owners');
  try {
    const chosen = Object.fromEntries(
      migrations.map((name) => {
        const migration = STORE_MIGRATIONS[name];
        if (!migration) throw new Error(`migration ${name} is missing`);
        return [name, migration];
      }),
    );
    await migrateStoreDatabase(db, url, chosen);
    for (const [index, task] of tasks.entries()) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
      const completedAt = task.done ? at : null;
      if (withOwners) {
        const owner = task.owner ?? '';
        await sql`INSERT INTO tasks (owner, title, done, created_at, completed_at)
                  VALUES (${owner}, ${task.title}, ${task.done}, ${at}::timestamptz, ${completedAt}::timestamptz)`.execute(
          db,
        );
        await sql`INSERT INTO task_owner_count (owner, n) VALUES (${owner}, 1)
                  ON CONFLICT (owner) DO UPDATE SET n = task_owner_count.n + 1`.execute(db);
      } else {
        await sql`INSERT INTO tasks (title, done, created_at, completed_at)
                  VALUES (${task.title}, ${task.done}, ${at}::timestamptz, ${completedAt}::timestamptz)`.execute(
          db,
        );
      }
    }
    if (!withOwners) await sql`UPDATE task_count SET n = ${tasks.length}`.execute(db);
    for (const id of deleted) {
      // As 0002's delete did: the owner's count row stays, one lower, even at 0.
      await sql`WITH gone AS (DELETE FROM tasks WHERE id = ${id} RETURNING owner)
                UPDATE task_owner_count SET n = n - 1 WHERE owner IN (SELECT owner FROM gone)`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}
