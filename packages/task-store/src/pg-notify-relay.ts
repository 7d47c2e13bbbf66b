/**
 * @module pg-notify-relay
 * Task events across replicas over Postgres `LISTEN/NOTIFY`. A replica announces a write by
 * emitting on `relay.outbox` (hand it to `announceTodoChanges`), which sends `pg_notify`; every
 * replica, the writer included, LISTENs on one dedicated connection and re-emits on `relay.events`,
 * the `TodoEvents` both eras already read: `publish.ts` feeds 2026-07-28 `subscriptions/listen`
 * streams from it, `subscriptions.ts` feeds 2025 sessions. Local events come only from LISTEN, so
 * a write is announced once, in the same order everywhere. Each notice names the task's owner, so
 * every replica delivers it only to that owner's listeners.
 *
 * Why not a Postgres-backed `ServerEventBus`: that bus only reaches 2026-07-28 listen streams, so
 * 2025 sessions would still need this relay, and two channels could disagree. Relaying the task
 * events themselves keeps one source for both eras and needs no change in the HTTP layer.
 * Halves: `pg-notify-inbound.ts` (coalescing) and `pg-notify-sender.ts` (batched NOTIFY); the
 * wire format is `pg-notify-payload.ts`. Test: `pg-notify-relay.test.ts`; across two apps:
 * dev/host-integration's `http/replica-notifications.http.test.ts`.
 */
import type pg from 'pg';
import { createTodoEvents, EVERY_OWNER, type TodoEvents } from './events.js';
import type { Logger } from './logger.js';
import { backoffMs, CONNECT_TIMEOUT_MS, loadPg, QUERY_TIMEOUT_MS } from './pg-driver.js';
import { createInbound } from './pg-notify-inbound.js';
import { createSender } from './pg-notify-sender.js';
import type { Todo } from './store.js';

export const DEFAULT_STORE_CHANNEL = 'mcp_task_events';

/**
 * A LISTEN connection cut without a FIN or RST (a dead host, a dropped NAT entry) looks healthy
 * forever: a cheap query this often, answered within the query timeout, proves it is alive.
 */
const HEARTBEAT_MS = 30_000;

export interface PgNotifyRelayOptions {
  connectionString: string;
  logger: Logger;
  /** A plain lower-case identifier; every replica of one deployment must use the same. */
  channel?: string;
  /** Where LISTENed events are emitted; a new emitter when absent. */
  events?: TodoEvents;
}

export interface PgNotifyRelay {
  /** Task events from every replica, this one included, as LISTEN delivers them. */
  readonly events: TodoEvents;
  /** Emit a write here to announce it to every replica (it is never emitted locally first). */
  readonly outbox: TodoEvents;
  /** Starts listening; resolves once LISTEN is active (it keeps retrying until then) or on `stop()`. */
  start(): Promise<void>;
  /** Whether the LISTEN connection is up right now. */
  isListening(): boolean;
  /** Sends what is queued (bounded wait), closes both connections and clears every timer. */
  stop(): Promise<void>;
}

export function createPgNotifyRelay(options: PgNotifyRelayOptions): PgNotifyRelay {
  const { connectionString, logger } = options;
  const channel = options.channel ?? DEFAULT_STORE_CHANNEL;
  // LISTEN takes no bind parameter, so the name goes into SQL text: only plain identifiers.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) {
    throw new Error(`Notification channel ${JSON.stringify(channel)} is not a plain lower-case identifier.`);
  }
  const events = options.events ?? createTodoEvents();
  const outbox = createTodoEvents();
  const inbound = createInbound(events, logger);
  const sender = createSender({ connectionString, channel, logger });
  // The owner travels with every notice, so each replica tells only that owner's clients.
  outbox.on('updated', (task: Todo, owner: string) =>
    sender.enqueue({ kind: 'updated', owner, ...withoutTitle(task) }),
  );
  outbox.on('runChanged', (id: string, owner: string) => sender.enqueue({ kind: 'runChanged', owner, id }));
  outbox.on('listChanged', (owner: string | typeof EVERY_OWNER) =>
    sender.enqueue(owner === EVERY_OWNER ? { kind: 'missed' } : { kind: 'listChanged', owner }),
  );

  let stopped = false;
  let client: pg.Client | undefined;
  let everListened = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let started: Promise<void> | undefined;
  let resolveStarted: () => void = () => {};

  const drop = (dropped: pg.Client, error?: Error) => {
    if (dropped !== client) return;
    client = undefined;
    clearInterval(heartbeat);
    dropped.removeAllListeners('notification');
    dropped.end().catch(() => {});
    if (stopped) return;
    logger.warn({ err: error, channel }, 'LISTEN connection lost; reconnecting');
    scheduleConnect();
  };

  const connect = async () => {
    reconnectTimer = undefined;
    let Client: typeof pg.Client;
    try {
      ({ Client } = await loadPg());
    } catch (error) {
      // Not a connection problem, and retrying cannot fix it: say so once and stay quiet.
      logger.error({ err: error }, 'could not load the pg driver: no task events will be received');
      resolveStarted();
      return;
    }
    if (stopped) return;
    const next = new Client({
      connectionString,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    // Registered before connect: an 'error' without a listener would crash the process.
    next.on('error', (error) => drop(next, error));
    next.on('end', () => drop(next));
    next.on('notification', (message) => {
      if (message.channel === channel) inbound.receive(message.payload);
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      if (client === next) client = undefined;
      next.end().catch(() => {});
      if (stopped) return;
      failures += 1;
      logger.warn({ err: error, channel, failures }, 'could not LISTEN for task events; retrying');
      scheduleConnect();
      return;
    }
    if (stopped || client !== next) return;
    // Whatever was written while no one listened is unknown: clients must refetch.
    if (everListened || failures > 0) inbound.missed();
    if (everListened) logger.info({ channel }, 'LISTEN connection restored');
    everListened = true;
    failures = 0;
    heartbeat = setInterval(() => {
      next.query('SELECT 1').catch((error: Error) => drop(next, error));
    }, HEARTBEAT_MS);
    resolveStarted();
  };

  const scheduleConnect = () => {
    if (stopped || reconnectTimer) return;
    const ceiling = backoffMs(failures);
    // Jitter, so replicas that lost Postgres together do not all come back in the same millisecond.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    reconnectTimer = setTimeout(() => void connect(), delay);
  };

  return {
    events,
    outbox,
    start() {
      if (!started) {
        started = new Promise<void>((resolve) => {
          resolveStarted = resolve;
        });
        void connect();
      }
      return started;
    },
    isListening: () => everListened && client !== undefined && !stopped,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(reconnectTimer);
      clearInterval(heartbeat);
      resolveStarted();
      inbound.stop();
      const listening = client;
      client = undefined;
      await Promise.all([listening?.end().catch(() => {}), sender.stop()]);
    },
  };
}

function withoutTitle(task: Todo) {
  return { id: task.id, done: task.done, createdAt: task.createdAt, completedAt: task.completedAt };
}
