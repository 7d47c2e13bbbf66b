/**
 * Two replicas start at the same moment against an empty database: both come up with no error, and
 * each migration ran once (kysely's migration table, read straight from Postgres). Repeated on fresh
 * databases, since a race that is lost only sometimes is the one that matters.
 */
import { type PostgresCluster, startPostgres } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFigure } from './test-support/doc-figures.js';
import { expectSuccess } from './test-support/expect.js';
import { callTool, titlesOf } from './test-support/mcp.js';
import { type Replica, startReplica } from './test-support/replica.js';
import { query, TASKS_TABLE, topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

/** Fresh databases raced on: a few, since each costs two cold server starts on a shared box. */
const ROUNDS = 3;
/** kysely's bookkeeping tables, under the names the Postgres adapter gives them (postgres-migrations.ts). */
const MIGRATION_TABLE = 'task_migrations';
const LOCK_TABLE = 'task_migrations_lock';
/** pino's levels: 50 error, 60 fatal. A replica logs at warn, so anything it logs is visible. */
const ERROR_LOG_LINE = /"level":\s*(50|60)/;

describe.skipIf(!available)('two replicas starting at once on an empty database', () => {
  let postgres: PostgresCluster;
  const started: Replica[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(started.map((replica) => replica.stop()));
    await postgres?.destroy();
  });

  it('run each migration once, with no error, and serve the same tasks', async () => {
    const migrationCounts: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const databaseUrl = await postgres.createDatabase(`race_${round}`);
      const pair = await Promise.all([
        startReplica({ name: `race${round}a`, databaseUrl }),
        startReplica({ name: `race${round}b`, databaseUrl }),
      ]);
      started.push(...pair);
      for (const replica of pair) {
        expect(replica.exited(), replica.name).toBe(false);
        expect(
          replica
            .log()
            .split('\n')
            .filter((line) => ERROR_LOG_LINE.test(line)),
        ).toEqual([]);
      }

      const migrations = await query<{ name: string }>(
        databaseUrl,
        `select name from ${MIGRATION_TABLE} order by name`,
      );
      const names = migrations.map((row) => row.name);
      expect(names.length, 'at least one migration ran').toBeGreaterThan(0);
      expect(new Set(names).size, `each migration once: ${names.join(', ')}`).toBe(names.length);
      const locks = await query<{ is_locked: number }>(databaseUrl, `select is_locked from ${LOCK_TABLE}`);
      expect(
        locks.map((row) => Number(row.is_locked)),
        'the lock row is there and released',
      ).toEqual([0]);
      migrationCounts.push(names.length);

      // Both replicas use the one schema that resulted.
      const [a, b] = pair;
      const title = `raced ${round}`;
      expectSuccess(await callTool(a.mcpUrl, 'add_task', { title }), 'add on the first');
      expect(titlesOf(expectSuccess(await callTool(b.mcpUrl, 'list_tasks'), 'list on the second'))).toContain(
        title,
      );
      expect(await query(databaseUrl, `select id from ${TASKS_TABLE}`)).toHaveLength(1);
      await Promise.all(pair.map((replica) => replica.stop()));
    }
    const postgresErrors = postgres
      .serverLog()
      .split('\n')
      .filter((line) => /ERROR:/.test(line));
    reportFigure(
      `[scale-e2e] ${ROUNDS} concurrent starts of 2 replicas on an empty database: migrations recorded per database ` +
        `${JSON.stringify(migrationCounts)}, replica errors 0, Postgres ERROR lines ${postgresErrors.length}` +
        (postgresErrors.length ? ` (${postgresErrors.slice(0, 3).join(' | ')})` : ''),
    );
    // The server's own advisory lock queues the replicas before kysely creates its bookkeeping
    // tables; without it, the loser's duplicate-key errors land in Postgres's log.
    expect(postgresErrors).toEqual([]);
  });
});
