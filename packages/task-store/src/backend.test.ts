/**
 * `openStoreBackend()`'s `open()` with SQLite: what stops start-up and what only delays the store.
 * A server restarted right after a crash finds its predecessor's lock, which is removed only once
 * it is stale; that must not stop the new server. A folder it cannot use still does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStoreBackend, type StoreBackend } from './backend.js';
import { lockPathFor, STALE_LOCK_MS, StoreBusyError } from './sqlite-lock.js';
import { TASKS_DB_FILE } from './sqlite-store.js';

describe('openStoreBackend with SQLite: open()', () => {
  let dir: string;
  const backends: StoreBackend[] = [];
  const logs: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) });
  const lock = () => lockPathFor(path.join(dir, TASKS_DB_FILE));
  /** The lock directory a writer killed mid-statement leaves, `ageMs` old. */
  const leaveLock = (ageMs: number) => {
    fs.mkdirSync(lock());
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lock(), then, then);
  };
  const open = () => {
    const backend = openStoreBackend({ dataDir: dir, logger });
    backends.push(backend);
    return backend;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-workshop-backend-'));
    logs.length = 0;
  });
  afterEach(async () => {
    for (const backend of backends.splice(0)) {
      await backend.runs.close();
      await backend.todos.close();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves on through a crashed server's fresh lock, says so once, and opens once the lock is gone", async () => {
    await open().todos.add('sub:alice', 'before the crash');
    leaveLock(0);
    const backend = open();
    await expect(backend.open()).resolves.toBeUndefined();
    expect(logs.filter((line) => line.includes('The task database is locked'))).toHaveLength(1);
    expect(
      JSON.parse(logs.find((line) => line.includes('The task database is locked')) ?? '{}'),
    ).toMatchObject({
      staleAfterMs: STALE_LOCK_MS,
    });
    // Meanwhile a task call gets the busy error the model can act on, and readiness says not ready.
    await expect(backend.todos.list('sub:alice', 'all')).rejects.toThrow(StoreBusyError);
    expect((await backend.checkReady()).ready).toBe(false);
    // The lock goes (here by hand; sqlite-lock.ts removes it once stale): the next call opens.
    fs.rmdirSync(lock());
    expect((await backend.todos.list('sub:alice', 'all')).map((task) => task.title)).toEqual([
      'before the crash',
    ]);
    expect((await backend.checkReady()).ready).toBe(true);
  });

  it('removes a stale lock at open, without a warning about a locked database', async () => {
    leaveLock(STALE_LOCK_MS + 1_000);
    const backend = open();
    await backend.open();
    expect(fs.existsSync(lock())).toBe(false);
    expect(logs.some((line) => line.includes('The task database is locked'))).toBe(false);
    expect((await backend.todos.add('sub:alice', 'after recovery')).id).toBe(1);
  });

  it('still stops start-up on a database file it cannot read', async () => {
    fs.writeFileSync(
      path.join(dir, TASKS_DB_FILE),
      'not a database, just text that is long enough to be a header',
    );
    await expect(open().open()).rejects.toThrow(/not a database|file is not a database|malformed/i);
  });
});
