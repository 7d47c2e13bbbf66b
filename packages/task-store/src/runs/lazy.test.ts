/**
 * The lazy run store opens once, on first use, again after a failed open, and never after close;
 * the lazy run queue loads on start only, and a failed start may be tried again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../test-support/silent-logger.js';
import { lazyRunQueue, lazyRunStore } from './lazy.js';
import { openSqliteRunStore } from './sqlite-run-store.js';
import type { RunQueue } from './types.js';

describe('lazyRunStore', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-runs-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens once for concurrent first calls, again after a failed open, and not after close', async () => {
    let opens = 0;
    let fail = true;
    const store = lazyRunStore(() => {
      opens += 1;
      if (fail) throw new Error('database away');
      return openSqliteRunStore({ dataDir: dir, logger: createSilentLogger() });
    });
    expect(opens).toBe(0);
    await expect(store.unfinished()).rejects.toThrow('database away');
    fail = false;
    const [a, b] = await Promise.all([store.unfinished(), store.unfinished()]);
    expect([a, b, opens]).toEqual([[], [], 2]);
    await store.close();
    await expect(store.unfinished()).rejects.toThrow('closed');
    expect(opens).toBe(2);
  });
});

describe('lazyRunQueue', () => {
  /** A queue that records what it was asked, and whose start fails while `failStart` is set. */
  function recordingQueue(calls: string[], failStart: { on: boolean }): RunQueue {
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
