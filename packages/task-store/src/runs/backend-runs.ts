/**
 * @module runs/backend-runs
 * The runs' half of `openStoreBackend()`: their store beside the task list (SQLite in the same file,
 * or the same Postgres database), and the queue that fits it: in-process where one process owns
 * the SQLite file, pg-boss where replicas share Postgres. Postgres modules load on first use, so a
 * SQLite server never loads `pg` or pg-boss. Test: `backend-runs.test.ts`.
 */

import type { TaskQueue } from '@mcp-workshop/shared/tasks-port';
import type { Logger } from '../logger.js';
import { createInProcessRunQueue } from './in-process-queue.js';
import { lazyRunQueue, lazyRunStore } from './lazy.js';
import { openSqliteRunStore } from './sqlite-run-store.js';
import type { RunStore } from './types.js';

/**
 * Connections the runs' store holds per replica, beside the task list's pool: a running task reads
 * and writes a row or a step at a time, and at most a few tasks run at once.
 */
export const RUN_POOL_MAX = 4;

export interface RunQueueOptions {
  /** Turns at once in this process; defaults to `RUN_CONCURRENCY`. */
  concurrency?: number;
}

export interface RunBackend {
  /** Opened on first use; close it after stopping the queue. */
  runs: RunStore;
  /** A new queue over `runs`: in-process with SQLite, pg-boss with Postgres (loaded on `start`). */
  runQueue(options?: RunQueueOptions): TaskQueue;
}

export interface RunBackendOptions {
  logger: Logger;
  now: () => Date;
  /** The task list's folder, already prepared; used unless `databaseUrl` is set. */
  dataDir: string;
  databaseUrl?: string;
}

export function openRunBackend({ logger, now, dataDir, databaseUrl }: RunBackendOptions): RunBackend {
  if (!databaseUrl) {
    const runs = lazyRunStore(() => openSqliteRunStore({ dataDir, logger, now }));
    return { runs, runQueue: (options) => createInProcessRunQueue({ store: runs, logger, ...options }) };
  }
  const runs = lazyRunStore(async () => {
    const [{ createStorePool }, { openPostgresRunStore }] = await Promise.all([
      import('../postgres-pool.js'),
      import('./postgres-run-store.js'),
    ]);
    return openPostgresRunStore({
      pool: createStorePool({ connectionString: databaseUrl, logger, max: RUN_POOL_MAX }),
      logger,
      now,
    });
  });
  return {
    runs,
    runQueue: (options) =>
      lazyRunQueue(async () => {
        const { createPgBossRunQueue } = await import('./pg-boss-queue.js');
        return createPgBossRunQueue({ connectionString: databaseUrl, store: runs, logger, ...options });
      }),
  };
}
