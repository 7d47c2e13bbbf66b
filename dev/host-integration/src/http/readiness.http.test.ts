/**
 * @module http/readiness.http.test
 * A server on DATABASE_URL while Postgres goes away and comes back, the server never restarted:
 * `/health/ready` turns 503 and back to 200, task tools answer `isError` with a message the model
 * can act on, other tools keep working, and `/health` (liveness) stays 200 throughout. Skipped,
 * with one line, where the PostgreSQL server binaries are not installed (never in CI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpHost, startHttpHost } from '@mcp-workshop/mcp-host';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callToolRoute, type ToolAnswer } from '../test-support/http.js';
import { type PreparedWorkshop, prepareWorkshop } from '../test-support/workshop.js';

const available = systemPrograms('the task database readiness tests', ['postgres']);

/** Long enough for a restarted Postgres to take connections again; it takes well under a second. */
const RECOVERY_MS = 10_000;

describe.skipIf(!available.ok)('the task database going away and coming back', () => {
  let cluster: PostgresCluster;
  let workshop: PreparedWorkshop;
  let host: HttpHost;
  let baseUrl = '';
  let dataDir = '';

  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase('ready');
    dataDir = mkdtempSync(join(tmpdir(), 'mcp-ready-'));
    const logger = createSilentLogger();
    workshop = prepareWorkshop({ DATABASE_URL: url, DATA_DIR: dataDir }, logger);
    await workshop.open();
    host = await startHttpHost({
      ...workshop.hostOptions(),
      logger,
      stateless: true,
      sessionTtlSeconds: 60,
      maxSessions: 10,
    });
    baseUrl = host.baseUrl;
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await workshop?.close();
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const ready = async () => {
    const response = await fetch(`${baseUrl}/health/ready`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const call = (name: string, args: Record<string, unknown> = {}) => callToolRoute(baseUrl, name, args);

  it('is ready, and task tools work, while Postgres is up', async () => {
    // The LISTEN connection comes up beside the pool, in the background; readiness reports it.
    const deadline = Date.now() + RECOVERY_MS;
    let answer = await ready();
    while (answer.body.notifications !== 'listening' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await ready();
    }
    expect(answer).toEqual({
      status: 200,
      body: { status: 'ready', database: 'ok', notifications: 'listening' },
    });
    expect((await call('add_task', { title: 'before the outage' })).isError).toBeFalsy();
  });

  it('is not ready while Postgres is down, task tools say so, other tools keep working', async () => {
    await cluster.stopServer();
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'not_ready', database: 'unreachable' });
    expect(['listening', 'reconnecting']).toContain(down.body.notifications);
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);

    for (const [name, args] of [
      ['list_tasks', {}],
      ['add_task', { title: 'during the outage' }],
      ['complete_task', { id: 1 }],
    ] as const) {
      const answer = await call(name, args);
      expect(answer.isError, name).toBe(true);
      expect(answer.content[0]?.text, name).toBe(
        'The task database is unreachable right now; try again in a moment.',
      );
    }
    const time = await call('get_time', { timezone: 'Europe/Oslo' });
    expect(time.isError).toBeFalsy();
  }, 30_000);

  it('is ready again once Postgres is back, with no restart of the server', async () => {
    await cluster.start();
    const deadline = Date.now() + RECOVERY_MS;
    let status = (await ready()).status;
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await ready()).status;
    }
    expect(status).toBe(200);
    const answer = (await call('list_tasks')) as ToolAnswer & {
      structuredContent?: { items: { title: string }[] };
    };
    expect(answer.isError).toBeFalsy();
    // The write acknowledged before the outage is there; the one refused during it is not.
    expect(answer.structuredContent?.items.map((task) => task.title)).toEqual(['before the outage']);
  }, 30_000);
});
