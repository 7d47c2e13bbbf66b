/**
 * The lazy run store opens on first use and forwards to what it opened (sharing, retrying and
 * closing are `lazyOpen`'s, tested in `lazy-open.test.ts`); the lazy run queue loads on start
 * only, and a failed start may be tried again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskQueue } from '@mcp-workshop/shared/tasks-port';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { lazyRunQueue, lazyRunStore } from './lazy.js';
import { openSqliteRunStore } from './sqlite-run-store.js';

describe('lazyRunStore', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-runs-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens on first use, forwards to the opened store, and refuses calls after close', async () => {
    let opens = 0;
    const store = lazyRunStore(() => {
      opens += 1;
      return openSqliteRunStore({ dataDir: dir, logger: createSilentLogger() });
    });
    expect(opens).toBe(0);
    const run = await store.create({
      owner: 'sub:alice',
      tool: 't',
      arguments: {},
      caller: {},
      ttlMs: 60_000,
      pollIntervalMs: 500,
    });
    expect(await store.unfinished()).toEqual([{ id: run.id, owner: 'sub:alice' }]);
    expect((await store.get('sub:alice', run.id))?.status).toBe('working');
    expect(opens).toBe(1);
    await store.close();
    await expect(store.unfinished()).rejects.toThrow('The run store is closed.');
    expect(opens).toBe(1);
  });
});

describe('lazyRunQueue', () => {
  /** A queue that records what it was asked, and whose start fails while `failStart` is set. */
  function recordingQueue(calls: string[], failStart: { on: boolean }): TaskQueue {
    return {
      enqueue: async (id) => void calls.push(`enqueue ${id}`),
      async start() {
        calls.push('start');
        if (failStart.on) throw new Error('database away');
      },
      stop: async () => void calls.push('stop'),
    };
  }

  it('loads on start only, lets a failed start be tried again, and starts once', async () => {
    const calls: string[] = [];
    const failStart = { on: true };
    let loads = 0;
    const queue = lazyRunQueue(async () => {
      loads += 1;
      return recordingQueue(calls, failStart);
    });
    await queue.enqueue('before', 'sub:alice');
    expect(loads).toBe(0);
    await expect(queue.start(async () => 'done')).rejects.toThrow('database away');
    failStart.on = false;
    await queue.start(async () => 'done');
    await queue.enqueue('after', 'sub:alice');
    await expect(queue.start(async () => 'done')).rejects.toThrow('starts once');
    await queue.stop();
    expect(calls).toEqual(['start', 'start', 'enqueue after', 'stop']);
    expect(loads).toBe(2);
  });
});
