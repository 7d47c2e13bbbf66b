/**
 * @module backend
 * `openStoreBackend()` puts a task list together from settings already decided: SQLite in a folder
 * by default, or Postgres with the LISTEN/NOTIFY relay that keeps every replica's notifications in
 * step. It hands back the store (opened on first use or on `open()`), the events every write is
 * announced on, a readiness check, and the MCP tasks' storage and queue beside them
 * (`runs/backend-runs.ts`). Preparing the folder is I/O, so only entry files and tests call this.
 * Test: `backend.test.ts`.
 */
import fs from 'node:fs';
import { EnvError } from '@mcp-workshop/shared';
import type { TaskQueue } from '@mcp-workshop/shared/tasks-port';
import type { Tracer } from '@opentelemetry/api';
import { redactDatabaseUrl, StoreMigrationError } from './database-url.js';
import { announceTodoChanges, createTodoEvents, type TodoEvents } from './events.js';
import { type LazyTodoStore, lazyTodoStore } from './lazy-store.js';
import type { Logger } from './logger.js';
import { createPgNotifyRelay } from './pg-notify-relay.js';
import type { PostgresTodoStore } from './postgres-store.js';
import { announceRunChanges } from './runs/announce.js';
import { openRunBackend, type RunQueueOptions } from './runs/backend-runs.js';
import type { RunStore } from './runs/types.js';
import { STALE_LOCK_MS, StoreBusyError } from './sqlite-lock.js';
import { openTodoStore } from './sqlite-store.js';
import { type TodoStore, TodoStoreUnavailableError } from './store.js';
import type { DatabaseTarget } from './traced-store.js';

export interface StoreBackendOptions {
  logger: Logger;
  /** The clock the store stamps tasks with; tests fix it. */
  now?: () => Date;
  /** SQLite in this folder, unless `databaseUrl` is set. */
  dataDir: string;
  /** A Postgres database, with replicas kept in step over LISTEN/NOTIFY. */
  databaseUrl?: string;
  /** With telemetry on: every statement becomes a child span of the call that made it. */
  tracer?: Tracer;
}

/** What the readiness check found, in the words `GET /health/ready` shows. */
export interface StoreReadiness {
  ready: boolean;
  checks: {
    database: 'ok' | 'unreachable';
    /**
     * With Postgres, whether this replica's LISTEN connection is up. Reported, not judged: a replica
     * that is reconnecting still answers correctly, and its clients get list_changed once it is back.
     */
    notifications?: 'listening' | 'reconnecting';
  };
  message?: string;
}

export interface StoreBackend {
  /** The store; every write is announced on `events`. Closing it closes the relay too. */
  todos: TodoStore;
  /** Task writes and MCP task changes (`runChanged`), from this replica or (with Postgres) from any. */
  events: TodoEvents;
  /**
   * Opens the store now unless a call has already. Rejects with an `EnvError` that
   * names the setting to fix (password redacted). Postgres merely unreachable is not such an error,
   * nor a SQLite file still locked by a process that crashed a moment ago:
   * it logs one warning and resolves, and the next call or readiness check tries again, so a server
   * comes up before its database.
   */
  open(): Promise<void>;
  /** Whether the store answers right now. Never rejects. */
  checkReady(): Promise<StoreReadiness>;
  /**
   * MCP tasks' storage ("runs"), in the same database, opened on first use; each change a client
   * could see is announced on `events` as `runChanged`. Shut down in this
   * order: the queue's `stop()`, then `runs.close()`, then `tasks.close()`.
   */
  runs: RunStore;
  /**
   * A new queue over `runs`, one per process: in-process with SQLite (one process owns the file),
   * pg-boss with Postgres (replicas take over each other's runs), loaded on its `start`.
   */
  runQueue(options?: RunQueueOptions): TaskQueue;
  /**
   * Calls `listener` with each changed run's id and owner (`runChanged` on `events`), from this
   * process or, with Postgres, any replica; returns how to stop. The shape of the host's
   * `TaskRuntimeOptions.changes`.
   */
  watchRuns(listener: (id: string, owner: string) => void): () => void;
}

export const NOT_READY_MESSAGE =
  'The task database is unreachable; task tools fail until it is back. Other tools work.';

/** How one kind of database opens, answers a ping, and judges a failure to open. */
interface Opener {
  store: LazyTodoStore;
  ping(): Promise<void>;
  /** The error start-up stops on, or `undefined` when the failure passes (logged here). */
  openError(error: unknown): unknown;
}

export function openStoreBackend(options: StoreBackendOptions): StoreBackend {
  const { logger, dataDir, databaseUrl, tracer, now = () => new Date() } = options;
  const trace =
    (target: DatabaseTarget): StoreTracing =>
    async (store) => {
      if (!tracer) return store;
      // Loaded only with telemetry on, so a server without it never loads OpenTelemetry.
      const { traceTodoStore } = await import('./traced-store.js');
      return traceTodoStore(store, target, tracer);
    };
  const opener = databaseUrl
    ? postgresOpener(databaseUrl, logger, now, trace(postgresTarget(databaseUrl)))
    : sqliteOpener(dataDir, logger, now, trace({ system: 'sqlite' }));
  // With Postgres, writes go out over NOTIFY and every replica, this one too, hears them back over
  // LISTEN: local listeners are fed once, from one source, in the order all replicas see.
  const relay = databaseUrl ? createPgNotifyRelay({ connectionString: databaseUrl, logger }) : undefined;
  void relay?.start();
  const events = relay?.events ?? createTodoEvents();
  const announced = announceTodoChanges(opener.store, relay?.outbox ?? events);
  const todos = relay ? { ...announced, close: () => relay.stop().then(() => announced.close()) } : announced;
  const runBackend = openRunBackend({ logger, now, dataDir, ...(databaseUrl && { databaseUrl }) });
  // The queue reads runs; only the changes a client could see (through the runtime) are announced.
  const runs = announceRunChanges(runBackend.runs, relay?.outbox ?? events);
  const { runQueue } = runBackend;
  return {
    todos,
    events,
    runs,
    runQueue,
    watchRuns(listener) {
      events.on('runChanged', listener);
      return () => events.off('runChanged', listener);
    },
    async open() {
      try {
        await opener.store.open();
      } catch (error) {
        const fatal = opener.openError(error);
        if (fatal !== undefined) throw fatal;
      }
    },
    async checkReady() {
      const notifications = relay && (relay.isListening() ? 'listening' : 'reconnecting');
      try {
        await opener.ping();
        return { ready: true, checks: { database: 'ok', ...(notifications && { notifications }) } };
      } catch (error) {
        logger.debug({ err: error }, 'readiness check: the task database does not answer');
        return {
          ready: false,
          checks: { database: 'unreachable', ...(notifications && { notifications }) },
          message: NOT_READY_MESSAGE,
        };
      }
    },
  };
}

/** Wraps an opened store in statement spans when telemetry is on; otherwise hands it back as it is. */
type StoreTracing = <S extends TodoStore>(store: S) => Promise<S>;

/** Host, port and database name for `server.*` and `db.namespace`; the URL was validated by the caller. */
function postgresTarget(databaseUrl: string): DatabaseTarget {
  const url = new URL(databaseUrl);
  return {
    system: 'postgresql',
    address: url.hostname,
    ...(url.port && { port: Number(url.port) }),
    ...(url.pathname.length > 1 && { database: decodeURIComponent(url.pathname.slice(1)) }),
  };
}

function sqliteOpener(dataDir: string, logger: Logger, now: () => Date, trace: StoreTracing): Opener {
  // Checked now, cheaply, so a bad folder still stops start-up before anything is served.
  prepareDataDir(dataDir);
  const store = lazyTodoStore(() => trace(openTodoStore({ dataDir, logger, now })));
  return {
    store,
    // An embedded file has no connection to lose: once it opens, it is ready.
    ping: () => store.open(),
    openError(error) {
      // A writer killed mid-statement leaves its lock for STALE_LOCK_MS (sqlite-lock.ts), so a
      // server restarted at once finds it: not a setting to fix, and gone a few seconds later.
      if (error instanceof StoreBusyError) {
        logger.warn(
          { err: error, staleAfterMs: STALE_LOCK_MS },
          'The task database is locked, probably by a server that just crashed; serving anyway. ' +
            'The next task call or readiness check tries again.',
        );
        return undefined;
      }
      // SQLite's own errors already name the file.
      return error;
    },
  };
}

/**
 * Postgres is loaded on first use, so a server without a database URL never loads `pg` or kysely.
 * Each open attempt gets a fresh pool, because a failed attempt ends the one it had.
 */
function postgresOpener(databaseUrl: string, logger: Logger, now: () => Date, trace: StoreTracing): Opener {
  let opened: PostgresTodoStore | undefined;
  const store = lazyTodoStore(async () => {
    const [{ createStorePool }, { openPostgresTodoStore }] = await Promise.all([
      import('./postgres-pool.js'),
      import('./postgres-store.js'),
    ]);
    opened = await openPostgresTodoStore({
      pool: createStorePool({ connectionString: databaseUrl, logger }),
      logger,
      now,
    });
    return trace(opened);
  });
  const shown = redactDatabaseUrl(databaseUrl);
  return {
    store,
    async ping() {
      await store.open();
      await opened?.ping();
    },
    openError(error) {
      const reason = causeOf(error);
      if (error instanceof TodoStoreUnavailableError) {
        // Not a wrong setting: Postgres may simply start after this server (compose, a restart).
        logger.warn(
          { database: shown, reason },
          'Postgres cannot be reached; serving anyway, with /health/ready at 503 until it answers. ' +
            'The next task call or readiness check tries again.',
        );
        return undefined;
      }
      const message =
        error instanceof StoreMigrationError
          ? error.message
          : `DATABASE_URL=${shown}: the task database could not be opened (${reason}).`;
      return new EnvError(message, { cause: error });
    },
  };
}

/** The driver's own words for a failure ("connect ECONNREFUSED 127.0.0.1:5432"), never the URL. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  return cause.message || (typeof code === 'string' ? code : cause.name);
}

/** Creates the folder if needed and checks that this process can write there. */
function prepareDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EnvError(
      `DATA_DIR=${JSON.stringify(dataDir)}: the task database cannot be stored there (${reason}). ` +
        'Point DATA_DIR at a folder this user can write to, or unset it to use the default.',
      { cause: error },
    );
  }
}
