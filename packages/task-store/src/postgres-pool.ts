/**
 * @module postgres-pool
 * The `pg` connection pool the Postgres task store runs on, and the two things every caller of it
 * needs: telling "the database is unreachable" apart from a bug, and a cheap liveness query.
 * The pool reconnects by itself: a broken connection is dropped, and the next query opens a new
 * one, so a restarted Postgres is picked up without restarting the server.
 * Used by `postgres-store.ts` and `deps.ts`; tested through `postgres-store.contract.test.ts`.
 */
import pg from 'pg';
import type { Logger } from './logger.js';

/**
 * Connections per replica. Every task query is one short statement, so a few go a long way, and
 * three replicas (plus their LISTEN connections) stay far below Postgres' default 100.
 */
export const POOL_MAX_CONNECTIONS = 10;
/** A connect that hangs (a dead host drops packets) fails within this instead of holding a call. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Longest one statement may take, on the server and on the client; task queries take milliseconds. */
export const QUERY_TIMEOUT_MS = 10_000;
/** Idle connections close after this, so a quiet replica holds none. */
const IDLE_TIMEOUT_MS = 30_000;

export interface StorePoolOptions {
  /** `DATABASE_URL`: postgres:// or postgresql://. */
  connectionString: string;
  logger: Logger;
  /** Defaults to {@link POOL_MAX_CONNECTIONS}. */
  max?: number;
}

/** A bounded pool whose broken connections are logged and dropped, never thrown at the process. */
export function createStorePool({
  connectionString,
  logger,
  max = POOL_MAX_CONNECTIONS,
}: StorePoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    statement_timeout: QUERY_TIMEOUT_MS,
    // A peer that vanished without a FIN is noticed by the OS instead of looking alive forever.
    keepAlive: true,
    // Idle connections never keep a finished process (a test, a stdio session) alive.
    allowExitOnIdle: true,
  });
  // An idle connection cut by a Postgres restart emits 'error' on the pool; unhandled, that
  // would crash the process. The pool has already dropped it, so a log line is all it needs.
  pool.on('error', (error) => logger.warn({ err: error }, 'an idle task database connection failed'));
  // A connection can also break while checked out between two statements (a transaction): then
  // the client itself emits 'error'. The statement that follows fails and the pool drops it.
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.debug({ err: error }, 'a task database connection failed'));
  });
  return pool;
}

/** Socket-level failures: nothing answered, or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Postgres SQLSTATEs that mean "not now" rather than "wrong": class 08 (connection exception),
 * 57P01–57P03 (the server is shutting down, crashed, or still starting), and 57014 (the statement
 * ran past statement_timeout: an overloaded server).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|57014)$/;

/** What `pg` and `pg-pool` say, without a code, when a connection ends or never comes. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|connection (?:is )?closed/i;

/** Whether `error` means the database is unreachable right now, so trying later can succeed. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (UNAVAILABLE_MESSAGE.test(error.message)) return true;
  // Node wraps a connect to every address of a host name in one AggregateError.
  if (error instanceof AggregateError) return error.errors.some(isConnectionError);
  return error.cause !== undefined && error.cause !== error && isConnectionError(error.cause);
}

/** Resolves once Postgres answers a query; the pool's connect and query timeouts bound the wait. */
export async function pingDatabase(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}

/** Failures before any statement was sent: no connection was ever made, so nothing was written. */
const NEVER_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * 08001 and 08004: the server could not or would not open a session; 57P03: it is still starting;
 * 57014: the statement was cancelled for running too long, which rolls it back, so nothing was written.
 */
const NEVER_CONNECTED_SQLSTATE = /^(08001|08004|57P03|57014)$/;

/**
 * Whether a connection error happened before the statement reached Postgres (so retrying cannot
 * write twice), as opposed to a connection that broke while the statement ran.
 */
export function failedBeforeSending(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NEVER_CONNECTED_CODES.has(code) || NEVER_CONNECTED_SQLSTATE.test(code)))
    return true;
  if (/timeout exceeded when trying to connect/i.test(error.message)) return true;
  if (error instanceof AggregateError)
    return error.errors.length > 0 && error.errors.every(failedBeforeSending);
  return error.cause !== undefined && error.cause !== error && failedBeforeSending(error.cause);
}
