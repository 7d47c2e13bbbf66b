/**
 * @module deps.test
 * `createDeps`: DATA_DIR is checked at once, the task database opens only when first needed, and
 * with DATABASE_URL the tasks go to Postgres, whose failures name the variable but never its password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHttpHost } from '@mcp-workshop/mcp-host';
import { createSilentLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { EnvError } from '@mcp-workshop/shared';
import { NOT_READY_MESSAGE, TASKS_DB_FILE, TaskStoreUnavailableError } from '@mcp-workshop/task-store';
import { createTaskPool } from '@mcp-workshop/task-store/postgres';
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { hostedCatalogue } from '../src/hosted.js';
import { callToolRoute } from './support/http.js';

/** A warn-level logger that keeps its JSON lines, to check what start-up logged. */
function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const written: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void written.push(line) });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createDeps', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'deps-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates DATA_DIR at once but opens the task database on first use', async () => {
    const dataDir = path.join(root, 'nested', 'data');
    const deps = createDeps(loadEnv({ DATA_DIR: dataDir }), createSilentLogger());
    expect(fs.existsSync(dataDir)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, TASKS_DB_FILE))).toBe(false);
    expect(await deps.tasks.list('', 'all')).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, TASKS_DB_FILE))).toBe(true);
    await deps.tasks.close();
  });

  it('opens the task database on openTasks()', async () => {
    const deps = createDeps(loadEnv({ DATA_DIR: root }), createSilentLogger());
    await deps.openTasks();
    expect(fs.existsSync(path.join(root, TASKS_DB_FILE))).toBe(true);
    await deps.tasks.close();
  });

  it('throws an EnvError naming DATA_DIR when the folder cannot be created', () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    const create = () => createDeps(loadEnv({ DATA_DIR: dataDir }), createSilentLogger());
    expect(create).toThrow(EnvError);
    expect(create).toThrow(`DATA_DIR=${JSON.stringify(dataDir)}`);
  });

  it('reports SQLite as ready once the file opens', async () => {
    const deps = createDeps(loadEnv({ DATA_DIR: root }), createSilentLogger());
    expect(await deps.checkReady()).toEqual({ ready: true, checks: { database: 'ok' } });
    await deps.tasks.close();
  });
});

describe('createDeps with DATABASE_URL', () => {
  /** Nothing listens on port 1, so every connect is refused at once. */
  const DOWN_URL = 'postgres://app:s3cret-pw@127.0.0.1:1/tasks';
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'deps-pg-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it.each(['mysql://app:s3cret-pw@db/tasks', 'http://db/tasks', 'not a url'])(
    'refuses DATABASE_URL=%s, naming the schemes and never the password',
    (url) => {
      const load = () => loadEnv({ DATABASE_URL: url });
      expect(load).toThrow(EnvError);
      expect(load).toThrow(/DATABASE_URL=.*postgres:\/\/ or postgresql:\/\//);
      expect(load).not.toThrow(/s3cret-pw/);
    },
  );

  it.each(['postgres://app:pw@db:5432/tasks', 'postgresql://db/tasks'])('accepts DATABASE_URL=%s', (url) => {
    expect(loadEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it('leaves DATA_DIR alone and keeps start-up going, with one warning, when Postgres cannot be reached', async () => {
    const dataDir = path.join(root, 'unused');
    const { logger, lines } = capturingLogger();
    const deps = createDeps(loadEnv({ DATABASE_URL: DOWN_URL, DATA_DIR: dataDir }), logger);
    expect(fs.existsSync(dataDir)).toBe(false);
    await expect(deps.openTasks()).resolves.toBeUndefined();
    const warnings = lines().filter((line) => line.level === 40 && line.database !== undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ database: 'postgres://app:***@127.0.0.1:1/tasks' });
    expect(String(warnings[0]?.reason)).toContain('ECONNREFUSED');
    expect(String(warnings[0]?.msg)).toContain('Postgres cannot be reached');
    expect(JSON.stringify(lines())).not.toContain('s3cret-pw');
    await deps.tasks.close();
  });

  it('answers task calls with TaskStoreUnavailableError and reports not ready while Postgres is away', async () => {
    const deps = createDeps(loadEnv({ DATABASE_URL: DOWN_URL }), createSilentLogger());
    await expect(deps.tasks.list('', 'all')).rejects.toThrow(TaskStoreUnavailableError);
    expect(await deps.checkReady()).toEqual({
      ready: false,
      checks: { database: 'unreachable', notifications: 'reconnecting' },
      message: NOT_READY_MESSAGE,
    });
    await deps.tasks.close();
  });
});

const postgres = systemPrograms('the start-up tests against a real Postgres', ['postgres']);

/** Long enough for a started Postgres to take connections and readiness to notice; well under a second in practice. */
const RECOVERY_MS = 15_000;

describe.skipIf(!postgres.ok)('start-up with DATABASE_URL on a real Postgres', () => {
  let cluster: PostgresCluster;
  let root: string;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'deps-pg-live-'));
  });
  afterEach(async () => {
    await cluster.start().catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves while Postgres is stopped, 503 on /health/ready, and turns ready by itself once it starts', async () => {
    const url = await cluster.createDatabase('late');
    await cluster.stopServer();
    const { logger, lines } = capturingLogger();
    const deps = createDeps(loadEnv({ DATABASE_URL: url, DATA_DIR: root }), logger);
    const host = await startHttpHost({ ...hostedCatalogue(deps), logger, stateless: true });
    try {
      const { baseUrl } = host;
      const call = (name: string, args: Record<string, unknown> = {}) => callToolRoute(baseUrl, name, args);
      const readyStatus = async () => (await fetch(`${baseUrl}/health/ready`)).status;

      // What index.ts does once listening: the open fails, one warning, and serving goes on.
      await expect(deps.openTasks()).resolves.toBeUndefined();
      expect(lines().filter((line) => line.level === 40 && line.database !== undefined)).toHaveLength(1);
      expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
      expect(await readyStatus()).toBe(503);
      const refused = await call('add_task', { title: 'while Postgres is stopped' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toBe(
        'The task database is unreachable right now; try again in a moment.',
      );

      // Readiness alone retries the open: no task call is needed to notice Postgres is back.
      await cluster.start();
      const deadline = Date.now() + RECOVERY_MS;
      let status = await readyStatus();
      while (status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = await readyStatus();
      }
      expect(status).toBe(200);
      const added = await call('add_task', { title: 'once Postgres is up' });
      expect(added.isError).toBeFalsy();
    } finally {
      await host.close();
      await deps.tasks.close();
    }
  }, 60_000);

  it('still stops start-up when a migration fails for a reason other than connectivity', async () => {
    const url = await cluster.createDatabase('future');
    const first = createDeps(loadEnv({ DATABASE_URL: url }), createSilentLogger());
    await first.openTasks();
    await first.tasks.close();
    // A newer release migrated this database: this one does not know that migration.
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: createTaskPool({ connectionString: url, logger: createSilentLogger() }),
      }),
    });
    try {
      await sql`INSERT INTO task_migrations (name, timestamp) VALUES ('9999_from_the_future', now()::text)`.execute(
        db,
      );
    } finally {
      await db.destroy();
    }
    const deps = createDeps(loadEnv({ DATABASE_URL: url }), createSilentLogger());
    const opening = deps.openTasks();
    await expect(opening).rejects.toThrow(EnvError);
    await expect(opening).rejects.toThrow(/DATABASE_URL=postgres:\/\/.*could not be migrated/);
    await deps.tasks.close();
  }, 30_000);
});
