/**
 * @module pg-notify-sender
 * The sending half of `pg-notify-relay.ts`: queues each task notice and sends the queue in
 * batches (`pg_notify` over `unnest`, one round trip per {@link SEND_BATCH}) on a pool of one
 * connection, so notices leave in write order. While Postgres is away it retries with backoff;
 * the queue is bounded, and what overflows it becomes one `missed` notice (every owner's list may
 * have changed) so no client misses a change.
 * Test: `pg-notify-relay.test.ts`.
 */
import type pg from 'pg';
import type { Logger } from './logger.js';
import { backoffMs, CONNECT_TIMEOUT_MS, loadPg, QUERY_TIMEOUT_MS } from './pg-driver.js';
import { encodeStoreNotice, type StoreNotice } from './pg-notify-payload.js';

/** Writes waiting to be sent while Postgres is slow or away; past this they fold into one `missed`. */
const MAX_QUEUED_SENDS = 1_000;
/** Notices per `pg_notify` round trip: one statement, so a burst costs a few queries, not a thousand. */
const SEND_BATCH = 100;
/** How long `stop()` waits for queued notices to go out before it closes the connection anyway. */
const STOP_DRAIN_MS = 1_000;

export interface Sender {
  enqueue(notice: StoreNotice): void;
  /** Sends what is queued (bounded wait, none while Postgres is away), then ends the pool. */
  stop(): Promise<void>;
}

/** Sends queued notices in batches over a one-connection pool, so they go out in write order. */
export function createSender(options: { connectionString: string; channel: string; logger: Logger }): Sender {
  const { channel, logger } = options;
  let pool: pg.Pool | undefined;
  const openPool = async (): Promise<pg.Pool> => {
    if (pool) return pool;
    const { Pool } = await loadPg();
    // stop() may have run while the driver loaded: a pool made now would never be ended.
    if (stopped) throw new Error('The task notification relay is stopped.');
    pool = new Pool({
      connectionString: options.connectionString,
      max: 1,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 10_000,
    });
    // An idle connection cut by a restart is reported here; the next query opens a new one.
    pool.on('error', (error) => logger.debug({ err: error }, 'idle NOTIFY connection closed'));
    return pool;
  };
  const queue: string[] = [];
  let overflowed = false;
  let sending: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let failures = 0;
  let stopped = false;

  const drain = async () => {
    while (queue.length > 0 || overflowed) {
      if (overflowed && queue.length < MAX_QUEUED_SENDS) {
        // What was dropped, and whose, is unknown to listeners: one `missed` makes them all refetch.
        queue.push(encodeStoreNotice({ kind: 'missed' }));
        overflowed = false;
      }
      const batch = queue.slice(0, SEND_BATCH);
      try {
        await (await openPool()).query(
          'SELECT pg_notify($1, payload) FROM unnest($2::text[]) WITH ORDINALITY AS t(payload, n) ORDER BY n',
          [channel, batch],
        );
        queue.splice(0, batch.length);
        failures = 0;
      } catch (error) {
        if (stopped) return;
        failures += 1;
        logger.warn(
          { err: error, queued: queue.length, failures },
          'could not send task notifications; retrying',
        );
        const delay = backoffMs(failures);
        await new Promise<void>((resolve) => {
          wake = resolve;
          retryTimer = setTimeout(resolve, delay);
        });
        retryTimer = undefined;
        wake = undefined;
        if (stopped) return;
      }
    }
  };
  const kick = () => {
    sending ??= drain().finally(() => {
      sending = undefined;
      if (!stopped && (queue.length > 0 || overflowed)) kick();
    });
  };

  return {
    enqueue(notice: StoreNotice) {
      if (stopped) return;
      if (queue.length >= MAX_QUEUED_SENDS) overflowed = true;
      else queue.push(encodeStoreNotice(notice));
      kick();
    },
    async stop() {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_DRAIN_MS);
      });
      // Worth waiting for only while sends succeed: with Postgres away, the wait would buy nothing.
      if (failures === 0) await Promise.race([sending ?? Promise.resolve(), deadline]);
      clearTimeout(timer);
      stopped = true;
      // A drain waiting out a retry wakes up, sees `stopped` and returns.
      clearTimeout(retryTimer);
      wake?.();
      queue.length = 0;
      await pool?.end().catch(() => {});
    },
  };
}
