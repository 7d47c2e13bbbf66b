/**
 * @module lazy-store.test
 * The lazily opened store: nothing is opened before the first use, concurrent first calls open
 * once, a failed open is retried, and a closed store stays closed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyTaskStore } from './lazy-store.js';
import { openTaskStore, TASKS_DB_FILE } from './sqlite-store.js';
import type { TaskStore } from './store.js';
import { createSilentLogger } from './test-support/silent-logger.js';

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

  it('opens nothing until the first call, then opens once', async () => {
    const store = lazyTaskStore(open);
    expect(opens).toBe(0);
    expect(fs.existsSync(path.join(dir, TASKS_DB_FILE))).toBe(false);
    await store.add('', 'first');
    expect((await store.list('', 'all')).map((task) => task.title)).toEqual(['first']);
    expect(opens).toBe(1);
    await store.close();
  });

  it('opens on open(), and later calls use that connection', async () => {
    const store = lazyTaskStore(open);
    await store.open();
    await store.open();
    expect(opens).toBe(1);
    expect(fs.existsSync(path.join(dir, TASKS_DB_FILE))).toBe(true);
    expect(await store.get('', 1)).toBeUndefined();
    expect(opens).toBe(1);
    await store.close();
  });

  it('shares one opening between calls that arrive while it is under way', async () => {
    const store = lazyTaskStore(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return open();
    });
    await Promise.all([store.open(), store.list('', 'all'), store.get('', 1)]);
    expect(opens).toBe(1);
    await store.close();
  });

  it('rejects with what opening throws, and tries again on the next call', async () => {
    let fail = true;
    const store = lazyTaskStore(() => {
      if (fail) throw new Error('cannot open');
      return open();
    });
    await expect(store.open()).rejects.toThrow('cannot open');
    await expect(store.list('', 'all')).rejects.toThrow('cannot open');
    fail = false;
    expect(await store.list('', 'all')).toEqual([]);
    await store.close();
  });

  it('never opens after close, even if it was never used', async () => {
    const store = lazyTaskStore(open);
    await store.close();
    await expect(store.list('', 'all')).rejects.toThrow(/closed/);
    await expect(store.open()).rejects.toThrow(/closed/);
    expect(opens).toBe(0);
  });
});
