/**
 * The in-process run queue on a real SQLite run store: it runs what is enqueued (bounded, one turn
 * per run at a time), gives a `'continue'` another turn, resumes unfinished runs on start, retries a
 * failing handler and then marks its run failed, and `stop()` aborts and waits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NewTaskRecord, TaskQueue } from '@mcp-workshop/shared/tasks-port';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { GAVE_UP_ERROR, RUN_RETRY_LIMIT, type RunHandler, RunHandOffError } from './hand-off.js';
import { createInProcessRunQueue, type InProcessRunQueueOptions } from './in-process-queue.js';
import { openSqliteRunStore } from './sqlite-run-store.js';
import type { RunStore } from './types.js';

const NEW_RUN: NewTaskRecord = {
  owner: 'sub:alice',
  tool: 'generate_report',
  arguments: {},
  caller: {},
  ttlMs: 60_000,
  pollIntervalMs: 1_000,
};

/** Long enough for a queue to have run anything it was going to; far below any test timeout. */
const SETTLE_MS = 100;

/** Resolves once `check` holds, polling briefly; fails the test after two seconds. */
async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 2_000) throw new Error('gave up waiting');
    await sleep(10);
  }
}

describe('createInProcessRunQueue', () => {
  let dir = '';
  let store: RunStore;
  const queues: TaskQueue[] = [];
  const queue = (options: Partial<InProcessRunQueueOptions> = {}) => {
    const created = createInProcessRunQueue({
      store,
      logger: createSilentLogger(),
      retryDelayMs: 10,
      ...options,
    });
    queues.push(created);
    return created;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-queue-'));
    store = openSqliteRunStore({ dataDir: dir, logger: createSilentLogger() });
  });
  afterEach(async () => {
    for (const created of queues.splice(0)) await created.stop();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs an enqueued run soon, with a live signal, once for a done', async () => {
    const calls: Array<{ id: string; aborted: boolean }> = [];
    const q = queue();
    await q.start(async (id, signal) => {
      calls.push({ id, aborted: signal.aborted });
      return 'done';
    });
    const run = await store.create(NEW_RUN);
    await q.enqueue(run.id, NEW_RUN.owner);
    await until(() => calls.length === 1);
    await sleep(SETTLE_MS);
    expect(calls).toEqual([{ id: run.id, aborted: false }]);
  });

  it("gives a run another turn for each 'continue'", async () => {
    let turns = 0;
    const q = queue();
    await q.start(async () => (++turns < 3 ? 'continue' : 'done'));
    await q.enqueue((await store.create(NEW_RUN)).id, NEW_RUN.owner);
    await until(() => turns === 3);
    await sleep(SETTLE_MS);
    expect(turns).toBe(3);
  });

  it('runs at most four at once, and each run in one turn at a time', async () => {
    let running = 0;
    let most = 0;
    const turns = new Map<string, number>();
    const q = queue();
    await q.start(async (id) => {
      running += 1;
      most = Math.max(most, running);
      turns.set(id, (turns.get(id) ?? 0) + 1);
      await sleep(20);
      running -= 1;
      return 'done';
    });
    const ids = [];
    for (let i = 0; i < 10; i += 1) ids.push((await store.create(NEW_RUN)).id);
    for (const id of ids) await q.enqueue(id, NEW_RUN.owner);
    // Enqueued again while waiting, and again while running: one more turn at most, never two at once.
    for (const id of ids) await q.enqueue(id, NEW_RUN.owner);
    await until(() => turns.size === 10 && running === 0);
    await sleep(SETTLE_MS);
    expect(most).toBe(4);
    for (const count of turns.values()) expect(count).toBeLessThanOrEqual(2);
  });

  it('resumes every unfinished run on start, and nothing before start', async () => {
    const working = await store.create(NEW_RUN);
    const asking = await store.create(NEW_RUN);
    const done = await store.create(NEW_RUN);
    await store.update(asking.id, { status: 'input_required' });
    await store.update(done.id, { status: 'completed', result: {} });
    const seen: string[] = [];
    const q = queue();
    await q.enqueue(working.id, NEW_RUN.owner);
    await q.start(async (id) => {
      seen.push(id);
      return 'done';
    });
    await until(() => seen.length === 2);
    await sleep(SETTLE_MS);
    expect(seen).toEqual([working.id, asking.id]);
  });

  it('aborts running handlers on stop, waits for them, and then takes nothing more', async () => {
    const reasons: unknown[] = [];
    let returned = false;
    const q = queue();
    const started = new Promise<void>((resolve) => {
      void q.start(async (_id, signal) => {
        resolve();
        await new Promise((wake) => signal.addEventListener('abort', wake));
        reasons.push(signal.reason);
        await sleep(50);
        returned = true;
        return 'continue';
      });
    });
    const run = await store.create(NEW_RUN);
    await q.enqueue(run.id, NEW_RUN.owner);
    await started;
    await q.stop();
    expect(returned).toBe(true);
    expect(reasons).toEqual([new RunHandOffError('stopping')]);
    expect((reasons[0] as RunHandOffError).why).toBe('stopping');
    // The run is as the handler left it: working, for the next start to resume.
    expect((await store.load(run.id))?.status).toBe('working');
    await q.enqueue(run.id, NEW_RUN.owner);
    await sleep(SETTLE_MS);
    expect(reasons).toHaveLength(1);
  });

  it('stops without a handler that ignores its signal once the grace is over, and says so', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const q = queue({ logger, stopGraceMs: 50 });
    let entered = false;
    await q.start(async () => {
      entered = true;
      // Never ends: only the grace can end the stop.
      await new Promise(() => {});
      return 'done';
    });
    await q.enqueue((await store.create(NEW_RUN)).id, NEW_RUN.owner);
    await until(() => entered);
    await q.stop();
    expect(lines.join('')).toMatch(/ignored their abort signal/);
  });

  it('retries a handler that throws, then marks its run failed with an error that names no internals', async () => {
    let calls = 0;
    const q = queue();
    const failing: RunHandler = async () => {
      calls += 1;
      throw new Error('connection string postgres://secret@db');
    };
    await q.start(failing);
    const run = await store.create(NEW_RUN);
    await q.enqueue(run.id, NEW_RUN.owner);
    await until(() => calls === RUN_RETRY_LIMIT + 1);
    await sleep(SETTLE_MS);
    expect(calls).toBe(RUN_RETRY_LIMIT + 1);
    const failed = await store.load(run.id);
    expect(failed).toMatchObject({ status: 'failed', error: GAVE_UP_ERROR });
    expect(JSON.stringify(failed?.error)).not.toMatch(/secret/);
  });

  it('counts a throw after stop aborted the signal as stopping, not as a failure', async () => {
    const q = queue();
    let entered = false;
    await q.start(async (_id, signal) => {
      entered = true;
      await new Promise((wake) => signal.addEventListener('abort', wake));
      throw signal.reason;
    });
    const run = await store.create(NEW_RUN);
    await q.enqueue(run.id, NEW_RUN.owner);
    await until(() => entered);
    await q.stop();
    expect((await store.load(run.id))?.status).toBe('working');
  });

  it('starts once', async () => {
    const q = queue();
    await q.start(async () => 'done');
    await expect(q.start(async () => 'done')).rejects.toThrow('starts once');
  });

  it('can be started again after a start that failed because the database did not answer', async () => {
    const run = await store.create({
      owner: 'o',
      tool: 't',
      arguments: {},
      caller: {},
      ttlMs: 60_000,
      pollIntervalMs: 500,
    });
    let failOnce = true;
    const flaky = new Proxy(store, {
      get(target, property) {
        if (property === 'unfinished' && failOnce) {
          failOnce = false;
          return async () => {
            throw new Error('database busy');
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const q = queue({ store: flaky });
    const seen: string[] = [];
    await expect(q.start(async () => 'done')).rejects.toThrow('database busy');
    await q.start(async (id) => {
      seen.push(id);
      return 'done';
    });
    await until(() => seen.length === 1);
    expect(seen).toEqual([run.id]);
  });
});
