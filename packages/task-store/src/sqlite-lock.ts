/**
 * @module sqlite-lock
 * Lock handling for `node-sqlite3-wasm`, which locks a database by creating `<file>.lock` as a
 * directory. A process killed mid-transaction leaves that directory behind and every later access
 * gets SQLITE_BUSY, so stale locks are removed here and busy operations are retried a bounded
 * number of times. Once the lock is gone, SQLite itself rolls back the dead writer's hot journal on
 * the next read; that relies on our patch to the package's xCheckReservedLock
 * (`patches/node-sqlite3-wasm@0.8.60.patch`, explained in `sqlite-store.ts`). Used by
 * `sqlite-store.ts`; tested in `sqlite-store.test.ts`.
 */
import fs from 'node:fs';
import { ToolError } from '@mcp-workshop/shared';
import type { Logger } from './logger.js';
import { loadSqlite } from './sqlite-wasm.js';

/**
 * A lock older than this was left by a crashed process. Transactions here take milliseconds
 * (one small row, one fsync), so 10 s is far past any live holder even on a slow disk. Age is the
 * only signal: the package takes and drops the lock inside each statement, so this code never gets
 * a moment to record the holder's PID beside it and check whether that process is still alive.
 */
export const STALE_LOCK_MS = 10_000;

/**
 * Waits between attempts when the database is busy, ~0.6 s in all. A live holder is done within
 * milliseconds; waiting longer would only stall the caller (the wait blocks the event loop,
 * because the store API is synchronous like SQLite itself).
 */
export const BUSY_RETRY_DELAYS_MS: readonly number[] = [10, 20, 40, 80, 160, 320];

/** The database stayed locked through every retry. The model can act on it by trying again later. */
export class StoreBusyError extends ToolError {}

/** The lock directory `node-sqlite3-wasm` creates next to a database file. */
export function lockPathFor(dbFile: string): string {
  return `${dbFile}.lock`;
}

/**
 * Removes the lock directory when it is older than {@link STALE_LOCK_MS}; returns whether it did.
 * Age is measured on the real clock, never an injected test clock, because it is compared with
 * the file system's mtime. Two processes recovering at the same instant could, in theory, remove
 * a lock a third has just taken; that needs a crash plus three racing processes within
 * microseconds, which this single-server store does not see.
 */
export function removeStaleLock(dbFile: string, logger: Logger): boolean {
  const lockPath = lockPathFor(dbFile);
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(lockPath).mtimeMs;
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return false;
    throw error;
  }
  const ageMs = Date.now() - mtimeMs;
  if (ageMs < STALE_LOCK_MS) return false;
  logger.warn(
    { lockPath, ageMs },
    'removing a stale SQLite lock left by a process that died mid-transaction',
  );
  try {
    fs.rmdirSync(lockPath);
  } catch (error) {
    // Another process may have cleaned it up first; that is the outcome we wanted.
    if (!isErrnoCode(error, 'ENOENT')) throw error;
  }
  return true;
}

/**
 * Runs `op`, retrying while SQLite reports the database as locked. Before each wait it checks
 * whether the lock has gone stale, so a long-running server recovers from another process's crash
 * without a restart. `op` must be safe to repeat: a single statement or a whole transaction.
 */
export function withBusyRetry<T>(dbFile: string, logger: Logger, op: () => T): T {
  for (const delayMs of BUSY_RETRY_DELAYS_MS) {
    try {
      return op();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      if (!removeStaleLock(dbFile, logger)) sleepSync(delayMs);
    }
  }
  try {
    return op();
  } catch (error) {
    if (!isBusyError(error)) throw error;
    logger.warn({ lockPath: lockPathFor(dbFile) }, 'task database stayed locked through every retry');
    throw new StoreBusyError(
      'The task list is busy: another process is holding its database lock. Try again in a few seconds.',
      { cause: error },
    );
  }
}

/** SQLite's message for SQLITE_BUSY; `node-sqlite3-wasm` exposes no result codes, only messages. */
function isBusyError(error: unknown): boolean {
  // Only reached after a statement failed, so the package is loaded already.
  return error instanceof loadSqlite().SQLite3Error && error.message.includes('database is locked');
}

function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** The store API is synchronous, so waiting must be too; `Atomics.wait` sleeps without spinning. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
