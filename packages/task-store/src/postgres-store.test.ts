/**
 * @module postgres-store.test
 * What only the Postgres adapter has: migrations that replicas starting at once run exactly once,
 * a failed migration that names DATABASE_URL without its password, and an outage that task calls
 * report as `TodoStoreUnavailableError` until the pool reconnects by itself. The behaviour shared
 * with SQLite is in `postgres-store.contract.test.ts`. Skipped, with one line, without PostgreSQL.
 */
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreMigrationError } from './database-url.js';
import { migrateStoreDatabase, STORE_MIGRATIONS, type StoreDatabase } from './postgres-migrations.js';
import { createStorePool } from './postgres-pool.js';
import { openPostgresTodoStore } from './postgres-store.js';
import { TodoAddUncertainError, TodoStoreUnavailableError } from './store.js';
import { createSilentLogger } from './test-support/silent-logger.js';

const available = systemPrograms('the Postgres task-store tests', ['postgres']);

/** Replicas starting together in the migration race. */
const REPLICAS = 4;
/** How long a test waits for the pool to reach a restarted server; it takes well under a second. */
const RECOVERY_MS = 10_000;

describe.skipIf(!available.ok)('openPostgresTodoStore (Postgres only)', () => {
  let cluster: PostgresCluster;
  const logger = createSilentLogger();
  const openOn = (url: string) =>
    openPostgresTodoStore({ pool: createStorePool({ connectionString: url, logger }), logger });

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  it('runs each migration once when replicas start at once against an empty database', async () => {
    const url = await cluster.createDatabase('race');
    const stores = await Promise.all(Array.from({ length: REPLICAS }, () => openOn(url)));
    const db = new Kysely<{ task_migrations: { name: string } }>({
      dialect: new PostgresDialect({ pool: createStorePool({ connectionString: url, logger }) }),
    });
    try {
      const rows = await db.selectFrom('task_migrations').select('name').execute();
      expect(rows.map((row) => row.name)).toEqual(Object.keys(STORE_MIGRATIONS));
      // Every replica sees one schema: a task added through one is read through another.
      const task = await stores[0]?.add('', 'shared');
      expect(await stores[REPLICAS - 1]?.get('', task?.id ?? 0)).toEqual(task);
    } finally {
      await db.destroy();
      for (const store of stores) await store.close();
    }
  });

  it('says an add may or may not have happened when its connection breaks mid-statement, never "try again"', async () => {
    const url = await cluster.createDatabase('cut_mid_add');
    const store = await openOn(url);
    const admin = new Kysely<StoreDatabase>({
      dialect: new PostgresDialect({ pool: createStorePool({ connectionString: url, logger }) }),
    });
    try {
      // Hold the owner's count row (inserted, not yet committed), so the add is sent and then
      // waits inside Postgres for that key.
      const adding = await admin.connection().execute(async (holder) => {
        await sql`BEGIN`.execute(holder);
        await sql`INSERT INTO task_owner_count (owner, n) VALUES ('', 0)`.execute(holder);
        const pending = store.add('', 'cut off').catch((error: unknown) => error);
        let waiting: number | undefined;
        for (let tries = 0; tries < 100 && waiting === undefined; tries += 1) {
          const { rows } = await sql<{ pid: number }>`
            SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%insert into "tasks"%'`.execute(
            admin,
          );
          waiting = rows[0]?.pid;
          if (waiting === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(waiting, 'the add is waiting for the lock').toBeDefined();
        await sql`SELECT pg_terminate_backend(${waiting})`.execute(admin);
        const outcome = await pending;
        await sql`ROLLBACK`.execute(holder);
        return outcome;
      });
      expect(adding).toBeInstanceOf(TodoAddUncertainError);
      expect((adding as Error).message).toMatch(/may or may not have been added\. Call list_tasks/);
      // This time it was not committed, and the store goes on working.
      expect(await store.list('', 'all')).toEqual([]);
      expect((await store.add('', 'next')).title).toBe('next');
    } finally {
      await admin.destroy();
      await store.close();
    }
  });

  it('stops with a message that names DATABASE_URL, without its password, when a migration fails', async () => {
    const database = await cluster.createDatabase('broken');
    const url = database.replace('postgres@', 'postgres:s3cret-pw@');
    const db = new Kysely<StoreDatabase>({
      dialect: new PostgresDialect({ pool: createStorePool({ connectionString: url, logger }) }),
    });
    try {
      const failing = migrateStoreDatabase(db, url.replace('s3cret-pw', '***'), {
        '0001_broken': { up: (kdb) => sql`SELECT * FROM no_such_table`.execute(kdb).then(() => undefined) },
      });
      await expect(failing).rejects.toThrow(StoreMigrationError);
      const error = (await failing.catch((caught: unknown) => caught)) as Error;
      expect(error.message).toContain('DATABASE_URL=postgres://postgres:***@127.0.0.1:');
      expect(error.message).toContain('migration 0001_broken');
      expect(error.message).toContain('no_such_table');
      expect(error.message).not.toContain('s3cret-pw');
      // Nothing half-done: the failed migration's transaction left no record.
      const applied = await sql<{ n: string }>`SELECT count(*) AS n FROM task_migrations`.execute(db);
      expect(applied.rows[0]?.n).toBe('0');
    } finally {
      await db.destroy();
    }
  });

  it('reports an outage as TodoStoreUnavailableError and recovers by itself when Postgres is back', async () => {
    const url = await cluster.createDatabase('outage');
    const store = await openOn(url);
    try {
      const before = await store.add('', 'before the outage');
      await cluster.stopServer();
      await expect(store.list('', 'all')).rejects.toThrow(TodoStoreUnavailableError);
      await expect(store.add('', 'during the outage')).rejects.toThrow(
        'The task database is unreachable right now; try again in a moment.',
      );
      await expect(store.ping()).rejects.toThrow();
      await cluster.start();
      const deadline = Date.now() + RECOVERY_MS;
      let tasks = await store.list('', 'all').catch(() => undefined);
      while (!tasks && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        tasks = await store.list('', 'all').catch(() => undefined);
      }
      // The acknowledged write survived; the refused one was never half-stored.
      expect(tasks).toEqual([before]);
      expect((await store.add('', 'after the outage')).title).toBe('after the outage');
    } finally {
      await store.close();
    }
  }, 60_000);

  it('refuses to open while Postgres is down with TodoStoreUnavailableError, and opens once it is up', async () => {
    const url = await cluster.createDatabase('late');
    await cluster.stopServer();
    try {
      await expect(openOn(url)).rejects.toThrow(TodoStoreUnavailableError);
    } finally {
      await cluster.start();
    }
    const store = await openOn(url);
    expect(await store.list('', 'all')).toEqual([]);
    await store.close();
  }, 60_000);
});
