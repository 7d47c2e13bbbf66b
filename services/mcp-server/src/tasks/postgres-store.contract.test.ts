/**
 * @module tasks/postgres-store.contract.test
 * The shared task-store contract (`test-support/task-store-contract.ts`) against the Postgres
 * adapter, on a throwaway PostgreSQL cluster, each test in a new database. Skipped, with one
 * line, where the PostgreSQL server binaries are not installed (never in CI).
 */
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { createTaskPool } from './postgres-pool.js';
import { openPostgresTaskStore } from './postgres-store.js';
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
  });
});
