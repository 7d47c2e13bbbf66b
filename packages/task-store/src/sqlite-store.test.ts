import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError } from '@mcp-workshop/shared';
import sqlite from 'node-sqlite3-wasm';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockPathFor, STALE_LOCK_MS, StoreBusyError } from './sqlite-lock.js';
import {
  CONNECTION_PRAGMAS,
  MAX_TITLE_LENGTH,
  MIGRATIONS,
  openTodoStore,
  TASKS_DB_FILE,
} from './sqlite-store.js';
import type { TodoStore } from './store.js';
import { createSilentLogger } from './test-support/silent-logger.js';
import { transpileForChild } from './test-support/transpile-for-child.js';

/** Enough committed writes that the kill lands in the middle of a busy writer, not before it starts. */
const KILL_AFTER_IDS = 50;
/** The writer stops on its own after this many, so a broken kill cannot leave it running. */
const WRITER_MAX_TODOS = 5_000;
/** A child that waits to be killed gives up after this, so a broken kill cannot leave it running. */
const CHILD_MAX_WAIT_MS = 30_000;

describe('openTodoStore', () => {
  /** The test's temporary directory; some tests point `dir` at a data directory inside it. */
  let root: string;
  let dir: string;
  const stores: TodoStore[] = [];
  const open = (options: Partial<Parameters<typeof openTodoStore>[0]> = {}) => {
    const store = openTodoStore({ dataDir: dir, logger: createSilentLogger(), ...options });
    stores.push(store);
    return store;
  };
  const dbFile = () => path.join(dir, TASKS_DB_FILE);
  /** A lock directory as a crashed process leaves it, `ageMs` old. */
  const leaveLock = (ageMs: number) => {
    fs.mkdirSync(lockPathFor(dbFile()));
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lockPathFor(dbFile()), then, then);
  };
  const rawQuery = (sql: string) => {
    const db = new sqlite.Database(dbFile());
    try {
      return db.all(sql);
    } finally {
      db.close();
    }
  };

  const closeAll = async () => {
    for (const store of stores.splice(0)) await store.close();
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-store-'));
    dir = root;
  });
  afterEach(async () => {
    await closeAll();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('adds, lists, completes and deletes tasks', async () => {
    const store = open({ now: () => new Date('2026-07-28T12:00:00Z') });
    const milk = await store.add('', 'Buy milk');
    const bread = await store.add('', 'Buy bread');
    expect(milk).toEqual({
      id: 1,
      title: 'Buy milk',
      done: false,
      createdAt: '2026-07-28T12:00:00.000Z',
      completedAt: null,
    });
    expect(await store.complete('', bread.id)).toMatchObject({
      done: true,
      completedAt: '2026-07-28T12:00:00.000Z',
    });
    expect((await store.list('', 'open')).map((task) => task.title)).toEqual(['Buy milk']);
    expect((await store.list('', 'done')).map((task) => task.title)).toEqual(['Buy bread']);
    expect((await store.list('', 'all')).map((task) => task.id)).toEqual([1, 2]);
    expect(await store.delete('', milk.id)).toEqual(milk);
    expect(await store.get('', milk.id)).toBeUndefined();
    expect((await store.list('', 'all')).map((task) => task.id)).toEqual([2]);
  });

  it('keeps the first completion time when a task is completed twice', async () => {
    let clock = new Date('2026-07-28T12:00:00Z');
    const store = open({ now: () => clock });
    const task = await store.add('', 'Water plants');
    const first = await store.complete('', task.id);
    clock = new Date('2026-07-29T08:00:00Z');
    expect(await store.complete('', task.id)).toEqual(first);
  });

  it('never reuses the id of a deleted task', async () => {
    const store = open();
    await store.add('', 'one');
    const two = await store.add('', 'two');
    await store.delete('', two.id);
    expect((await store.add('', 'three')).id).toBe(3);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2, 1e300])(
    'answers undefined for id %s, which names no task',
    async (id) => {
      const store = open();
      await store.add('', 'keep me');
      expect(await store.get('', id)).toBeUndefined();
      expect(await store.complete('', id)).toBeUndefined();
      expect(await store.delete('', id)).toBeUndefined();
      expect(await store.list('', 'all')).toHaveLength(1);
    },
  );

  it.each([
    "'); DROP TABLE tasks;--",
    '__proto__',
    'constructor',
    '"quoted" and \'single\' and `back`',
    '😀 ünïcödé ✓',
  ])('stores the title %j verbatim and leaves the table intact', async (title) => {
    const store = open();
    const task = await store.add('', title);
    expect((await store.get('', task.id))?.title).toBe(title);
    expect(await store.list('', 'all')).toHaveLength(1);
    expect(rawQuery("SELECT name FROM sqlite_master WHERE name = 'tasks'")).toHaveLength(1);
  });

  it.each(['', 'x'.repeat(MAX_TITLE_LENGTH + 1)])(
    'throws a ToolError for a title of length %#',
    async (title) => {
      const store = open();
      await expect(store.add('', title)).rejects.toThrow(ToolError);
      expect(await store.list('', 'all')).toEqual([]);
    },
  );

  it('keeps tasks when the store is closed and opened again', async () => {
    const first = open();
    await first.add('', 'survive a restart');
    await first.complete('', 1);
    await first.close();
    expect(await open().list('', 'all')).toMatchObject([{ id: 1, title: 'survive a restart', done: true }]);
  });

  it('creates a missing data directory and records the schema version', async () => {
    dir = path.join(dir, 'nested', 'data');
    await open().close();
    expect(rawQuery('PRAGMA user_version')).toEqual([{ user_version: MIGRATIONS.length }]);
    expect(rawQuery('PRAGMA journal_mode')).toEqual([{ journal_mode: 'delete' }]);
  });

  it('refuses a database whose schema is newer than it knows', async () => {
    await open().close();
    rawQuery('PRAGMA user_version = 99');
    expect(() => open()).toThrow(/schema version 99/);
  });

  it('removes a stale lock left by a crashed process when it opens', async () => {
    await open().add('', 'before the crash');
    await closeAll();
    leaveLock(STALE_LOCK_MS + 1_000);
    const logs: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => logs.push(line) });
    const store = open({ logger });
    expect((await store.list('', 'all')).map((task) => task.title)).toEqual(['before the crash']);
    expect(fs.existsSync(lockPathFor(dbFile()))).toBe(false);
    expect(logs.join('')).toMatch(/stale SQLite lock/);
  });

  it('recovers when a lock goes stale while the store is open', async () => {
    const store = open();
    leaveLock(STALE_LOCK_MS + 1_000);
    expect((await store.add('', 'after recovery')).id).toBe(1);
  });

  it('gives a clear busy error, and keeps the lock, when a live holder keeps it through every retry', async () => {
    const store = open();
    leaveLock(0);
    await expect(store.add('', 'blocked')).rejects.toThrow(StoreBusyError);
    await expect(store.list('', 'all')).rejects.toThrow(/busy: another process is holding its database lock/);
    expect(fs.existsSync(lockPathFor(dbFile()))).toBe(true);
    fs.rmdirSync(lockPathFor(dbFile()));
    expect(await store.list('', 'all')).toEqual([]);
  });

  it("lets SQLite roll back a crashed writer's journal by itself (patches/node-sqlite3-wasm@0.8.60.patch)", async () => {
    const store = open();
    for (let i = 0; i < 10; i++) await store.add('', `committed ${i}`);
    await closeAll();
    // What a crash leaves behind, without killing anything: copies of the database file holding
    // uncommitted pages and of the journal that undoes them, taken while the writer is mid-transaction.
    const crashed = path.join(dir, 'crashed');
    fs.mkdirSync(crashed);
    const writer = new sqlite.Database(dbFile());
    try {
      writer.exec(`${CONNECTION_PRAGMAS} PRAGMA cache_size = 1; BEGIN IMMEDIATE;`);
      for (let i = 0; i < 500; i++) {
        writer.run('INSERT INTO tasks (title, created_at) VALUES (?, ?)', [
          `uncommitted ${'x'.repeat(180)}`,
          'now',
        ]);
      }
      for (const name of [TASKS_DB_FILE, `${TASKS_DB_FILE}-journal`]) {
        fs.copyFileSync(path.join(dir, name), path.join(crashed, name));
      }
    } finally {
      writer.close();
    }
    dir = crashed;
    // Without the patch SQLite thinks its own lock is another writer's, skips the rollback and
    // returns the uncommitted rows too.
    expect((await open().list('', 'all')).map((task) => task.title)).toEqual(
      Array.from({ length: 10 }, (_, index) => `committed ${index}`),
    );
    await closeAll();
    expect(fs.existsSync(`${dbFile()}-journal`)).toBe(false);
    expect(rawQuery('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('keeps every committed task and an intact file when the writer is killed with SIGKILL', async () => {
    const dataDir = path.join(dir, 'data');
    const run = await runChildUntilKilled(
      dir,
      [
        'const store = openTodoStore({ dataDir: process.argv[2], logger });',
        // Pipes are written synchronously on Linux, so every id the parent reads was committed first.
        `for (let i = 0; i < ${WRITER_MAX_TODOS}; i++) process.stdout.write((await store.add('', 'task ' + i)).id + '\\n');`,
      ],
      [dataDir],
      (lines) => lines.length >= KILL_AFTER_IDS,
    );

    const committed = run.lines.map(Number);
    expect(committed.length).toBeGreaterThanOrEqual(KILL_AFTER_IDS);
    dir = dataDir;
    // The writer may have died holding its lock; a restart after the stale threshold recovers it.
    backdateLock(dbFile());
    const ids = (await open().list('', 'all')).map((task) => task.id);
    expect(ids).toEqual(expect.arrayContaining(committed));
    // Contiguous from 1: no task was half-written, and none was lost before a later one.
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    await closeAll();
    expect(rawQuery('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('rolls back a transaction that SIGKILL interrupted after it had spilled into the file', async () => {
    const dataDir = path.join(dir, 'data');
    const run = await runChildUntilKilled(
      dir,
      [
        'const store = openTodoStore({ dataDir: process.argv[2], logger });',
        "for (let i = 0; i < 10; i++) await store.add('', 'committed ' + i);",
        'await store.close();',
        `const file = process.argv[2] + '/${TASKS_DB_FILE}';`,
        "process.stdout.write('committed-bytes ' + fs.statSync(file).size + '\\n');",
        'const db = new sqlite.Database(file);',
        // A one-page cache forces SQLite to write uncommitted pages into the database file itself,
        // so only the rollback journal can undo them: the hardest case for recovery.
        "db.exec(CONNECTION_PRAGMAS + ' PRAGMA cache_size = 1; BEGIN IMMEDIATE;');",
        "for (let i = 0; i < 2000; i++) db.run('INSERT INTO tasks (title, created_at) VALUES (?, ?)', ['uncommitted ' + 'x'.repeat(180), 'now']);",
        "process.stdout.write('in-transaction\\n');",
        `setTimeout(() => process.exit(2), ${CHILD_MAX_WAIT_MS});`,
      ],
      [dataDir],
      (lines) => lines.includes('in-transaction'),
    );

    expect(run.lines).toEqual([expect.stringMatching(/^committed-bytes \d+$/), 'in-transaction']);
    const committedBytes = Number(run.lines[0]?.split(' ')[1]);
    dir = dataDir;
    expect(fs.existsSync(lockPathFor(dbFile()))).toBe(true);
    expect(fs.existsSync(`${dbFile()}-journal`)).toBe(true);
    // The uncommitted rows really are in the database file, not only in the dead process's memory.
    expect(fs.statSync(dbFile()).size).toBeGreaterThan(committedBytes);
    backdateLock(dbFile());
    expect((await open().list('', 'all')).map((task) => task.title)).toEqual(
      Array.from({ length: 10 }, (_, index) => `committed ${index}`),
    );
    await closeAll();
    expect(fs.existsSync(`${dbFile()}-journal`)).toBe(false);
    expect(rawQuery('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });
});

/** Makes a lock left by a killed process look as old as it would be after a restart. */
function backdateLock(dbFile: string): void {
  const lock = lockPathFor(dbFile);
  if (fs.existsSync(lock)) fs.utimesSync(lock, new Date(0), new Date(0));
}

interface KilledRun {
  /** Complete stdout lines read before the kill. */
  lines: string[];
}

/**
 * Runs `body` in a child Node process with the real store loaded (`openTodoStore`,
 * `CONNECTION_PRAGMAS`, `sqlite`, `fs`, a stderr `logger` in scope), kills it with SIGKILL once
 * `killWhen` accepts its stdout lines, and fails unless SIGKILL is what ended it.
 */
async function runChildUntilKilled(
  dir: string,
  body: string[],
  args: string[],
  killWhen: (lines: string[]) => boolean,
): Promise<KilledRun> {
  const childDir = fs.mkdtempSync(path.join(dir, 'child-'));
  transpileForChild(childDir, ['sqlite-store.ts', 'sqlite-lock.ts', 'sqlite-wasm.ts', 'store.ts']);
  const storeUrl = pathToFileURL(path.join(childDir, 'sqlite-store.js')).href;
  const sqliteUrl = pathToFileURL(createRequire(import.meta.url).resolve('node-sqlite3-wasm')).href;
  const script = path.join(dir, 'child.mjs');
  fs.writeFileSync(
    script,
    [
      `import { CONNECTION_PRAGMAS, openTodoStore } from ${JSON.stringify(storeUrl)};`,
      `import sqlite from ${JSON.stringify(sqliteUrl)};`,
      "import fs from 'node:fs';",
      'const log = (...args) => console.error(JSON.stringify(args));',
      'const logger = { warn: log, error: log, info: () => {}, debug: () => {} };',
      ...body,
    ].join('\n'),
  );
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    if (killWhen(lines)) child.kill('SIGKILL');
  });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  expect(exit, `the child was not killed; stderr: ${stderr}`).toEqual({ code: null, signal: 'SIGKILL' });
  return { lines };
}
