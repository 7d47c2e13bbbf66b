/**
 * @module http/readiness.test
 * `GET /health/ready` on the fixture server: 200 and the checks as given while the server's own
 * check says ready, 503 with its message while not, 503 with the host's own message when the
 * check throws or hangs past READY_TIMEOUT_MS, behind the same rate limit as `/health`, which
 * stays a plain liveness check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureHost } from '../test-support/fixture-host.js';
import { READY_TIMEOUT_MS, type Readiness } from './app.js';
import type { HttpHost, HttpHostOptions } from './start.js';

let host: HttpHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function ready(options: Partial<HttpHostOptions> = {}, path = '/health/ready') {
  host ??= await startFixtureHost({ stateless: true, ...options });
  const response = await fetch(`${host.baseUrl}${path}`);
  return {
    status: response.status,
    cache: response.headers.get('cache-control'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const answering = (readiness: Readiness) => async () => readiness;
const HOST_MESSAGE = /readiness check failed or took longer/;

describe('GET /health/ready', () => {
  it('answers 200 ready with the checks as given, no message, and no-store', async () => {
    const answer = await ready({
      checkReady: answering({ ready: true, checks: { notes: 'ok' }, message: 'not shown when ready' }),
    });
    expect(answer).toEqual({ status: 200, cache: 'no-store', body: { status: 'ready', notes: 'ok' } });
  });

  it('answers 200 ready with nothing else when no check was given', async () => {
    expect((await ready()).body).toEqual({ status: 'ready' });
  });

  it("answers 503 not_ready with the server's checks and message, while /health stays 200", async () => {
    const answer = await ready({
      checkReady: answering({
        ready: false,
        checks: { notes: 'unreachable' },
        message: 'The note store is away; echo still works.',
      }),
    });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      status: 'not_ready',
      notes: 'unreachable',
      message: 'The note store is away; echo still works.',
    });
    const health = await ready({}, '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      name: 'fixture-notes',
      version: '9.9.9',
      mode: 'stateless',
    });
  });

  it("answers 503 with the host's own message when the check throws, and leaks nothing of the error", async () => {
    const answer = await ready({
      checkReady: async () => {
        throw new Error('password=hunter2');
      },
    });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 'not_ready', message: expect.stringMatching(HOST_MESSAGE) });
    expect(JSON.stringify(answer.body)).not.toMatch(/hunter2/);
  });

  it(`answers 503 after ${READY_TIMEOUT_MS} ms when the check hangs`, async () => {
    // The check never settles, so only the host's own timeout can have ended the request.
    const answer = await ready({ checkReady: () => new Promise<Readiness>(() => {}) });
    expect(answer.status).toBe(503);
    expect(answer.body.message).toMatch(HOST_MESSAGE);
  });

  it('counts against the same handshake limit as /health', async () => {
    const limits = { rateLimits: { callsPerMinute: 10, handshakesPerMinute: 2 } };
    expect((await ready(limits, '/health')).status).toBe(200);
    expect((await ready(limits)).status).toBe(200);
    expect((await ready(limits)).status).toBe(429);
  });
});
