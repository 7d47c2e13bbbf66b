/**
 * @module tasks/lazy-store.test
 * The lazily opened store: nothing is opened before the first use, a failed open is retried,
 * and a closed store stays closed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { lazyTaskStore } from './lazy-store.js';
import { openTaskStore, TASKS_DB_FILE } from './sqlite-store.js';
import type { TaskStore } from './store.js';

describe('lazyTaskStore', () => {
  let dir: string;
  let opens: number;
  const open = (): TaskStore => {
    opens += 1;
    return openTaskStore({ dataDir: dir, logger: createSilentLogger() });
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-store-'));
    opens = 0;
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens nothing until the first call, then opens once', () => {
    const store = lazyTaskStore(open);
    expect(opens).toBe(0);
    expect(fs.existsSync(path.join(dir, TASKS_DB_FILE))).toBe(false);
    store.add('first');
    expect(store.list('all').map((task) => task.title)).toEqual(['first']);
    expect(opens).toBe(1);
    store.close();
  });

  it('opens on open(), and later calls use that connection', () => {
    const store = lazyTaskStore(open);
    store.open();
    store.open();
    expect(opens).toBe(1);
    expect(fs.existsSync(path.join(dir, TASKS_DB_FILE))).toBe(true);
    expect(store.get(1)).toBeUndefined();
    expect(opens).toBe(1);
    store.close();
  });

  it('throws what opening throws, and tries again on the next call', () => {
    let fail = true;
    const store = lazyTaskStore(() => {
      if (fail) throw new Error('cannot open');
      return open();
    });
    expect(() => store.open()).toThrow('cannot open');
    expect(() => store.list('all')).toThrow('cannot open');
    fail = false;
    expect(store.list('all')).toEqual([]);
    store.close();
  });

  it('never opens after close, even if it was never used', () => {
    const store = lazyTaskStore(open);
    store.close();
    expect(() => store.list('all')).toThrow(/closed/);
    expect(() => store.open()).toThrow(/closed/);
    expect(opens).toBe(0);
  });
});
