/**
 * @module runs/postgres-run-store.contract.test
 * The shared run-store contract (`test-support/run-store-contract.ts`) against the Postgres adapter,
 * on a throwaway PostgreSQL cluster, each test in a new database. Skipped, with one line, where the
 * PostgreSQL server binaries are not installed (never in CI).
 */
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe } from 'vitest';
import { createStorePool } from '../postgres-pool.js';
import { describeRunStoreContract } from '../test-support/run-store-contract.js';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { openPostgresRunStore } from './postgres-run-store.js';

const available = systemPrograms('the Postgres run-store contract tests', ['postgres']);

describe.skipIf(!available.ok)('openPostgresRunStore', () => {
  let cluster: PostgresCluster;
  let url = '';
  let databases = 0;

  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  describeRunStoreContract('Postgres', {
    async freshDatabase() {
      databases += 1;
      url = await cluster.createDatabase(`runs_${databases}`);
    },
    open(options) {
      const logger = createSilentLogger();
      return openPostgresRunStore({
        pool: createStorePool({ connectionString: url, logger }),
        logger,
        ...options,
      });
    },
  });
});
