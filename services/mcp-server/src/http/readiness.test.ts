/**
 * @module http/readiness.test
 * `GET /health/ready`: 200 while the task database answers, 503 while it does not (or does not
 * answer in time), behind the same rate limit as `/health`, which stays a plain liveness check.
 * The real database outage is in `readiness.http.test.ts`.
 */
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { createMcpServer } from '../server.js';
import { testDeps } from '../test-support/in-memory.js';
import { type AppOptions, createApp, READY_TIMEOUT_MS, type Readiness } from './app.js';

function appWith(options: Partial<AppOptions> = {}) {
  const deps = testDeps();
  return createApp({
    buildServer: () => createMcpServer(deps),
    logger: createSilentLogger(),
    stateless: true,
    sessionTtlSeconds: 60,
    maxSessions: 10,
    ...options,
  });
}

const answering = (readiness: Readiness) => async () => readiness;

describe('GET /health/ready', () => {
  it('answers 200 ready when the database answers', async () => {
    const workshop = appWith({ checkReady: answering({ ready: true, database: 'ok' }) });
    const response = await supertest(workshop.app).get('/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', database: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
    await workshop.close();
  });

  it('answers 200 ready when nothing was given to check', async () => {
    const workshop = appWith();
    expect((await supertest(workshop.app).get('/health/ready')).body).toEqual({
      status: 'ready',
      database: 'ok',
    });
    await workshop.close();
  });

  it('answers 503 not_ready while the database is unreachable, and /health stays 200', async () => {
    const workshop = appWith({ checkReady: answering({ ready: false, database: 'unreachable' }) });
    const response = await supertest(workshop.app).get('/health/ready');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ status: 'not_ready', database: 'unreachable' });
    expect(response.body.message).toMatch(/task database is unreachable/);
    const health = await supertest(workshop.app).get('/health');
    expect(health.status).toBe(200);
    expect(Object.keys(health.body).sort()).toEqual(
      ['mode', 'name', 'sessions', 'status', 'uptimeSeconds', 'version'].sort(),
    );
    await workshop.close();
  });

  it('answers 503 when the check throws', async () => {
    const workshop = appWith({
      checkReady: async () => {
        throw new Error('boom');
      },
    });
    expect((await supertest(workshop.app).get('/health/ready')).status).toBe(503);
    await workshop.close();
  });

  it(`answers 503 within ${READY_TIMEOUT_MS} ms when the check hangs`, async () => {
    const workshop = appWith({ checkReady: () => new Promise<Readiness>(() => {}) });
    const started = Date.now();
    const response = await supertest(workshop.app).get('/health/ready');
    expect(response.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(READY_TIMEOUT_MS + 1_000);
    await workshop.close();
  });

  it('counts against the same handshake limit as /health', async () => {
    const workshop = appWith({ rateLimits: { callsPerMinute: 10, handshakesPerMinute: 2 } });
    const agent = supertest(workshop.app);
    expect((await agent.get('/health')).status).toBe(200);
    expect((await agent.get('/health/ready')).status).toBe(200);
    expect((await agent.get('/health/ready')).status).toBe(429);
    await workshop.close();
  });
});
