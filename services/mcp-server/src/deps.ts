/**
 * @module deps
 * Builds the real dependencies (`buildDeps`), from a validated environment (`createDeps`) or from
 * `startLocalServer`'s options: the weather source and the task
 * store, SQLite under DATA_DIR by default or Postgres when DATABASE_URL is set. Preparing
 * DATA_DIR is I/O, so only the entry file (and tests) call this. The store itself opens on first
 * use or on `openTasks()`, which `index.ts` calls once it is serving.
 */
import fs from 'node:fs';
import { EnvError, type ServerEnv } from './env.js';
import type { Readiness } from './http/app.js';
import type { Logger } from './logger.js';
import { redactDatabaseUrl, TaskMigrationError } from './tasks/database-url.js';
import { announceTaskChanges, createTaskEvents } from './tasks/events.js';
import { type LazyTaskStore, lazyTaskStore } from './tasks/lazy-store.js';
import { createPgNotifyRelay } from './tasks/pg-notify-relay.js';
import type { PostgresTaskStore } from './tasks/postgres-store.js';
import { openTaskStore } from './tasks/sqlite-store.js';
import { type TaskStore, TaskStoreUnavailableError } from './tasks/store.js';
import type { DatabaseTarget, ServerTelemetry } from './telemetry/types.js';
import type { ToolDeps } from './tools/deps.js';
import { createOfflineWeather } from './weather/offline.js';
import { createOpenMeteoWeather } from './weather/open-meteo.js';

export interface ServerDeps extends ToolDeps {
  /**
   * Opens the task store now unless a task call has already. Rejects with an `EnvError` that
   * names DATA_DIR or DATABASE_URL (password redacted) and says what to do: start-up stops on it.
   * Postgres merely unreachable is not such an error: it logs one warning and resolves, and the
   * next task call or readiness check tries again, so the server comes up before its database.
   */
  openTasks(): Promise<void>;
  /** Whether the task store answers right now, for `GET /health/ready`. Never rejects. */
  checkReady(): Promise<Readiness>;
}

/** What a task backend gives `createDeps`: the lazily opened store and its readiness probe. */
interface TaskBackend {
  store: LazyTaskStore;
  ping(): Promise<void>;
  /**
   * What start-up reports when opening failed: an error that says which setting to fix, or
   * `undefined` when the failure is passing (Postgres unreachable), logged here, and start-up goes on.
   */
  openError(error: unknown): unknown;
}

/**
 * What the dependencies are built from, already decided: `createDeps` reads it from the
 * environment, `startLocalServer` (demo, bench, HTTP tests) passes it directly, so both get the
 * same weather, task store and task events, wired the same way.
 */
export interface DepsConfig {
  logger: Logger;
  /** The clock the weather and the task store share; tests fix it. */
  now?: () => Date;
  /** SQLite in this folder, unless `databaseUrl` is set. */
  dataDir: string;
  /** A Postgres database for the tasks, with replicas kept in step over LISTEN/NOTIFY. */
  databaseUrl?: string;
  /** Open-Meteo's endpoints and timeout; without them the offline weather answers. */
  openMeteo?: { geocodingUrl: string; forecastUrl: string; timeoutMs: number };
  /**
   * When set (only when OTEL_EXPORTER_OTLP_ENDPOINT is), every task statement and every weather
   * request is a child span of the tool call that made it.
   */
  telemetry?: ServerTelemetry;
}

/** The dependencies `index.ts` serves with, from a validated environment. */
export function createDeps(env: ServerEnv, logger: Logger, telemetry?: ServerTelemetry): ServerDeps {
  return buildDeps({
    logger,
    dataDir: env.DATA_DIR,
    ...(env.DATABASE_URL && { databaseUrl: env.DATABASE_URL }),
    ...(env.WEATHER_PROVIDER === 'open-meteo' && {
      openMeteo: {
        geocodingUrl: env.OPEN_METEO_GEOCODING_URL,
        forecastUrl: env.OPEN_METEO_FORECAST_URL,
        timeoutMs: env.WEATHER_TIMEOUT_MS,
      },
    }),
    ...(telemetry && { telemetry }),
  });
}

/** The one place the weather, the task store and the task events are put together. */
export function buildDeps(config: DepsConfig): ServerDeps {
  const { logger, dataDir, databaseUrl, openMeteo, telemetry, now = () => new Date() } = config;
  const weather = openMeteo
    ? createOpenMeteoWeather({ ...openMeteo, ...(telemetry && { fetch: telemetry.fetch }) })
    : createOfflineWeather(now);
  const backend = databaseUrl
    ? postgresBackend(databaseUrl, logger, now, traced(telemetry, postgresTarget(databaseUrl)))
    : sqliteBackend(dataDir, logger, now, traced(telemetry, { system: 'sqlite' }));
  // With Postgres, writes go out over NOTIFY and every replica, this one too, hears them back over
  // LISTEN: local listeners are fed once, from one source, in the order all replicas see.
  const relay = databaseUrl ? createPgNotifyRelay({ connectionString: databaseUrl, logger }) : undefined;
  void relay?.start();
  const taskEvents = relay?.events ?? createTaskEvents();
  const announced = announceTaskChanges(backend.store, relay?.outbox ?? taskEvents);
  const tasks = relay ? { ...announced, close: () => relay.stop().then(() => announced.close()) } : announced;
  return {
    weather,
    tasks,
    taskEvents,
    now,
    logger,
    async openTasks() {
      try {
        await backend.store.open();
      } catch (error) {
        const fatal = backend.openError(error);
        if (fatal !== undefined) throw fatal;
      }
    },
    async checkReady() {
      const notifications = relay && (relay.isListening() ? 'listening' : 'reconnecting');
      try {
        await backend.ping();
        return { ready: true, database: 'ok', ...(notifications && { notifications }) };
      } catch (error) {
        logger.debug({ err: error }, 'readiness check: the task database does not answer');
        return { ready: false, database: 'unreachable', ...(notifications && { notifications }) };
      }
    },
  };
}

/** Wraps an opened store in statement spans when telemetry is on; otherwise hands it back as it is. */
type StoreTracing = <S extends TaskStore>(store: S) => S;

function traced(telemetry: ServerTelemetry | undefined, target: DatabaseTarget): StoreTracing {
  return (store) => (telemetry ? telemetry.traceTaskStore(store, target) : store);
}

/** Host, port and database name for `server.*` and `db.namespace`; the URL was validated in env.ts. */
function postgresTarget(databaseUrl: string): DatabaseTarget {
  const url = new URL(databaseUrl);
  return {
    system: 'postgresql',
    address: url.hostname,
    ...(url.port && { port: Number(url.port) }),
    ...(url.pathname.length > 1 && { database: decodeURIComponent(url.pathname.slice(1)) }),
  };
}

function sqliteBackend(dataDir: string, logger: Logger, now: () => Date, trace: StoreTracing): TaskBackend {
  // Checked now, cheaply, so a bad DATA_DIR still stops start-up before anything is served.
  prepareDataDir(dataDir);
  const store = lazyTaskStore(() => trace(openTaskStore({ dataDir, logger, now })));
  return {
    store,
    // An embedded file has no connection to lose: once it opens, it is ready.
    ping: () => store.open(),
    // As before there was Postgres: SQLite's own errors already name the file.
    openError: (error) => error,
  };
}

/**
 * Postgres is loaded on first use, so a server without DATABASE_URL never loads `pg` or kysely.
 * Each open attempt gets a fresh pool, because a failed attempt ends the one it had.
 */
function postgresBackend(
  databaseUrl: string,
  logger: Logger,
  now: () => Date,
  trace: StoreTracing,
): TaskBackend {
  let opened: PostgresTaskStore | undefined;
  const store = lazyTaskStore(async () => {
    const [{ createTaskPool }, { openPostgresTaskStore }] = await Promise.all([
      import('./tasks/postgres-pool.js'),
      import('./tasks/postgres-store.js'),
    ]);
    opened = await openPostgresTaskStore({
      pool: createTaskPool({ connectionString: databaseUrl, logger }),
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
      if (error instanceof TaskStoreUnavailableError) {
        // Not a wrong setting: Postgres may simply start after this server (compose, a restart).
        logger.warn(
          { database: shown, reason },
          'Postgres cannot be reached; serving anyway, with /health/ready at 503 until it answers. ' +
            'The next task call or readiness check tries again.',
        );
        return undefined;
      }
      const message =
        error instanceof TaskMigrationError
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

/** Creates DATA_DIR if needed and checks that the server can write there. */
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
