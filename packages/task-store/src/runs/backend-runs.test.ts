/**
 * `openStoreBackend()`'s runs, through the public entry: with SQLite they share the task list's file
 * and run on the in-process queue; with Postgres (on a throwaway cluster, skipped where PostgreSQL
 * is not installed) they share its database and run on pg-boss, whose schema pg-boss makes itself.
 * Both queues share their slots fairly between owners (`test-support/run-queue-fairness.ts`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewTaskRecord } from '@mcp-workshop/shared/tasks-port';
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStoreBackend, type StoreBackend } from '../index.js';
import { describeRunQueueFairness } from '../test-support/run-queue-fairness.js';
import { createSilentLogger } from '../test-support/silent-logger.js';

const NEW_RUN: NewTaskRecord = {
  owner: 'sub:alice',
  tool: 'generate_report',
  arguments: { month: '2026-07' },
  caller: {},
  ttlMs: 60_000,
  pollIntervalMs: 1_000,
};

/** Creates a run, runs it through a fresh queue, and shuts the backend down in the documented order. */
async function runOnce(backend: StoreBackend): Promise<string[]> {
  const seen: string[] = [];
  const changed: Array<[string, string]> = [];
  const stopWatching = backend.watchRuns((id, owner) => changed.push([id, owner]));
  const queue = backend.runQueue({ concurrency: 1 });
  const handled = new Promise<void>((resolve) => {
    void queue.start(async (id) => {
      seen.push(id);
      await backend.runs.update(id, { status: 'completed', result: { content: [] } });
      resolve();
      return 'done';
    });
  });
  const run = await backend.runs.create(NEW_RUN);
  await queue.enqueue(run.id, NEW_RUN.owner);
  await handled;
  await queue.stop();
  expect(await backend.runs.get('sub:alice', run.id)).toMatchObject({ status: 'completed' });
  // Its changes are announced for listen streams: at once with SQLite, over LISTEN with Postgres
  // (where the creation and the completion may arrive as one notice).
  // A safety net: over LISTEN this takes milliseconds when the machine is idle.
  await vi.waitFor(() => expect(changed).toContainEqual([run.id, 'sub:alice']), { timeout: 15_000 });
  stopWatching();
  // The task list lives beside the runs, in the same database.
  expect((await backend.todos.add('sub:alice', 'after the report')).id).toBe(1);
  await backend.runs.close();
  await backend.todos.close();
  return seen.map((id) => (id === run.id ? 'the run' : id));
}

/** A backend whose queue the fairness suite drives; `close` stops the queue, then the stores. */
function queueOn(backend: StoreBackend, cleanUp: () => void) {
  const queue = backend.runQueue();
  return {
    runs: backend.runs,
    queue,
    async close() {
      await queue.stop();
      await backend.runs.close();
      await backend.todos.close();
      cleanUp();
    },
  };
}

describeRunQueueFairness('SQLite, in-process', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backend-fair-'));
  return queueOn(openStoreBackend({ logger: createSilentLogger(), dataDir }), () =>
    fs.rmSync(dataDir, { recursive: true, force: true }),
  );
});

describe('openStoreBackend runs: SQLite', () => {
  it('keeps runs in the task file and runs them in-process', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backend-runs-'));
    try {
      expect(await runOnce(openStoreBackend({ logger: createSilentLogger(), dataDir }))).toEqual(['the run']);
      expect(fs.readdirSync(dataDir)).toEqual(['tasks.db']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

const available = systemPrograms('the Postgres backend runs test', ['postgres']);

describe.skipIf(!available.ok)('openStoreBackend runs: Postgres', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  let fairDatabases = 0;
  describeRunQueueFairness('Postgres, pg-boss', async () => {
    fairDatabases += 1;
    const databaseUrl = await cluster.createDatabase(`fair_${fairDatabases}`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backend-fair-pg-'));
    return queueOn(openStoreBackend({ logger: createSilentLogger(), dataDir, databaseUrl }), () =>
      fs.rmSync(dataDir, { recursive: true, force: true }),
    );
  });

  it('keeps runs in the same database and runs them on pg-boss, in its own schema', async () => {
    const databaseUrl = await cluster.createDatabase('backend_runs');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backend-runs-pg-'));
    try {
      const backend = openStoreBackend({ logger: createSilentLogger(), dataDir, databaseUrl });
      expect(await runOnce(backend)).toEqual(['the run']);
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ schema: string }>(
        "SELECT nspname AS schema FROM pg_namespace WHERE nspname = 'pgboss'",
      );
      await client.end();
      expect(rows).toEqual([{ schema: 'pgboss' }]);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
