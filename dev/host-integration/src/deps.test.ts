/**
 * @module deps.test
 * The workshop's services as the host's runner prepares them (`prepareCatalogue`, through
 * test-support/workshop.ts): DATA_DIR is checked at once, the task database opens only when first
 * needed, and with DATABASE_URL the tasks go to Postgres, whose failures name the variable but never
 * its password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHttpHost } from '@mcp-workshop/mcp-host';
import { createSilentLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { EnvError } from '@mcp-workshop/shared';
import { NOT_READY_MESSAGE, TASKS_DB_FILE, TodoStoreUnavailableError } from '@mcp-workshop/task-store';
import { createStorePool } from '@mcp-workshop/task-store/postgres';
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callToolRoute } from './test-support/http.js';
import { loadWorkshopEnv, prepareWorkshop } from './test-support/workshop.js';

/** A warn-level logger that keeps its JSON lines, to check what start-up logged. */
function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const written: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void written.push(line) });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('the workshop on SQLite', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'deps-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates DATA_DIR at once but opens the task database on first use', async () => {
    const dataDir = path.join(root, 'nested', 'data');
    const workshop = prepareWorkshop({ DATA_DIR: dataDir }, createSilentLogger());
    expect(fs.existsSync(dataDir)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, TASKS_DB_FILE))).toBe(false);
    expect(await workshop.deps.todos.list('', 'all')).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, TASKS_DB_FILE))).toBe(true);
    await workshop.close();
  });

  it('opens the task database on openTodos()', async () => {
    const workshop = prepareWorkshop({ DATA_DIR: root }, createSilentLogger());
    await workshop.open();
    expect(fs.existsSync(path.join(root, TASKS_DB_FILE))).toBe(true);
    await workshop.close();
  });

  it('throws an EnvError naming DATA_DIR when the folder cannot be created', () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    const create = () => prepareWorkshop({ DATA_DIR: dataDir }, createSilentLogger());
    expect(create).toThrow(EnvError);
    expect(create).toThrow(`DATA_DIR=${JSON.stringify(dataDir)}`);
  });

  it('reports SQLite as ready once the file opens', async () => {
    const workshop = prepareWorkshop({ DATA_DIR: root }, createSilentLogger());
    expect(await workshop.checkReady()).toEqual({ ready: true, checks: { database: 'ok' } });
    await workshop.close();
  });
});

describe('the workshop with DATABASE_URL', () => {
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
      const load = () => loadWorkshopEnv({ DATABASE_URL: url });
      expect(load).toThrow(EnvError);
      expect(load).toThrow(/DATABASE_URL=.*postgres:\/\/ or postgresql:\/\//);
      expect(load).not.toThrow(/s3cret-pw/);
    },
  );

  it.each(['postgres://app:pw@db:5432/tasks', 'postgresql://db/tasks'])('accepts DATABASE_URL=%s', (url) => {
    expect(loadWorkshopEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it('leaves DATA_DIR alone and keeps start-up going, with one warning, when Postgres cannot be reached', async () => {
    const dataDir = path.join(root, 'unused');
    const { logger, lines } = capturingLogger();
    const workshop = prepareWorkshop({ DATABASE_URL: DOWN_URL, DATA_DIR: dataDir }, logger);
    expect(fs.existsSync(dataDir)).toBe(false);
    await expect(workshop.open()).resolves.toBeUndefined();
    const warnings = lines().filter((line) => line.level === 40 && line.database !== undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ database: 'postgres://app:***@127.0.0.1:1/tasks' });
    expect(String(warnings[0]?.reason)).toContain('ECONNREFUSED');
    expect(String(warnings[0]?.msg)).toContain('Postgres cannot be reached');
    expect(JSON.stringify(lines())).not.toContain('s3cret-pw');
    await workshop.close();
  });

  it('answers task calls with TodoStoreUnavailableError and reports not ready while Postgres is away', async () => {
    const workshop = prepareWorkshop({ DATABASE_URL: DOWN_URL }, createSilentLogger());
    await expect(workshop.deps.todos.list('', 'all')).rejects.toThrow(TodoStoreUnavailableError);
    expect(await workshop.checkReady()).toEqual({
      ready: false,
      checks: { database: 'unreachable', notifications: 'reconnecting' },
      message: NOT_READY_MESSAGE,
    });
    await workshop.close();
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
  }, 60_000);
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
    const workshop = prepareWorkshop({ DATABASE_URL: url, DATA_DIR: root }, logger);
    const host = await startHttpHost({ ...workshop.hostOptions(), logger, stateless: true });
    try {
      const { baseUrl } = host;
      const call = (name: string, args: Record<string, unknown> = {}) => callToolRoute(baseUrl, name, args);
      const readyStatus = async () => (await fetch(`${baseUrl}/health/ready`)).status;

      // What index.ts does once listening: the open fails, one warning, and serving goes on.
      await expect(workshop.open()).resolves.toBeUndefined();
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
      await workshop.close();
    }
  }, 60_000);

  it('still stops start-up when a migration fails for a reason other than connectivity', async () => {
    const url = await cluster.createDatabase('future');
    const first = prepareWorkshop({ DATABASE_URL: url }, createSilentLogger());
    await first.open();
    await first.close();
    // A newer release migrated this database: this one does not know that migration.
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: createStorePool({ connectionString: url, logger: createSilentLogger() }),
      }),
    });
    try {
      await sql`INSERT INTO task_migrations (name, timestamp) VALUES ('9999_from_the_future', now()::text)`.execute(
        db,
      );
    } finally {
      await db.destroy();
    }
    const workshop = prepareWorkshop({ DATABASE_URL: url }, createSilentLogger());
    const opening = workshop.open();
    await expect(opening).rejects.toThrow(EnvError);
    await expect(opening).rejects.toThrow(/DATABASE_URL=postgres:\/\/.*could not be migrated/);
    await workshop.close();
  }, 30_000);
});
