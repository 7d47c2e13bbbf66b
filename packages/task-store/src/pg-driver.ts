/**
 * @module pg-driver
 * What both connections of the task notification relay share: `pg`, loaded on first use so
 * `deps.ts` can import the relay and a SQLite server never loads the driver, and the timeouts and
 * backoff they connect with. Used by `pg-notify-relay.ts` and `pg-notify-sender.ts`.
 */
import type pg from 'pg';

/** A connect that hangs (a dead host drops packets) must not stall a reconnect loop. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** NOTIFY and the heartbeat take a millisecond; longer means the connection is gone. */
export const QUERY_TIMEOUT_MS = 5_000;
/** Reconnect backoff: quick after a blip, never more than a few seconds behind a restarted server. */
const RETRY_INITIAL_MS = 100;
const RETRY_MAX_MS = 5_000;

export async function loadPg(): Promise<typeof pg> {
  return (await import('pg')).default;
}

/** The wait before retry number `failures + 1`: doubling from 100 ms, capped at 5 s. */
export function backoffMs(failures: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_INITIAL_MS * 2 ** Math.min(failures, 16));
}
