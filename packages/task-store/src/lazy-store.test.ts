/**
 * @module lazy-store.test
 * The lazily opened to-do store: nothing is opened before the first use, and `open()` opens the
 * connection later calls use. How opening is shared, retried and refused after close is
 * `lazyOpen`'s, tested in `lazy-open.test.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyTodoStore } from './lazy-store.js';
import { openTodoStore, TASKS_DB_FILE } from './sqlite-store.js';
import type { TodoStore } from './store.js';
import { createSilentLogger } from './test-support/silent-logger.js';

describe('lazyTodoStore', () => {
  let dir: string;
  let opens: number;
  const open = (): TodoStore => {
    opens += 1;
    return openTodoStore({ dataDir: dir, logger: createSilentLogger() });
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-store-'));
    opens = 0;
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens nothing until the first call, then opens once', async () => {
    const store = lazyTodoStore(open);
    expect(opens).toBe(0);
    expect(fs.existsSync(path.join(dir, TASKS_DB_FILE))).toBe(false);
    await store.add('', 'first');
    expect((await store.list('', 'all')).map((task) => task.title)).toEqual(['first']);
    expect(opens).toBe(1);
    await store.close();
  });

  it('opens on open(), and later calls use that connection', async () => {
    const store = lazyTodoStore(open);
    await store.open();
    await store.open();
    expect(opens).toBe(1);
    expect(fs.existsSync(path.join(dir, TASKS_DB_FILE))).toBe(true);
    expect(await store.get('', 1)).toBeUndefined();
    expect(opens).toBe(1);
    await store.close();
  });
});
