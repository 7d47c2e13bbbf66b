/**
 * @module deps
 * Builds the real dependencies (`buildDeps`), from a validated environment (`createDeps`) or from
 * `startLocalServer`'s options: the weather source and the task list (`@mcp-workshop/task-store`),
 * SQLite under DATA_DIR by default or Postgres when DATABASE_URL is set. Preparing DATA_DIR is I/O,
 * so only the entry file (and tests) call this. The store itself opens on first use or on
 * `openTasks()`, which `index.ts` calls once it is serving. The skills (`skills/catalogue.ts`) are
 * read before serving starts, by whoever serves: `serveHttp`, `main.ts` for stdio, `startLocalServer`.
 */
import type { Readiness } from '@mcp-workshop/mcp-host';
import type { Logger } from '@mcp-workshop/mcp-host/logger';
import { createTaskRuntime, type TaskRuntime } from '@mcp-workshop/mcp-host/tasks';
import type { HostTelemetry } from '@mcp-workshop/mcp-host/telemetry';
import { openTaskBackend } from '@mcp-workshop/task-store';
import type { ServerEnv } from './env.js';
import { createWorkshopSkills, type WorkshopSkills } from './skills/catalogue.js';
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
  /** The skills folder: `load()` it before serving, and every server built afterwards serves it. */
  skills: WorkshopSkills;
  /**
   * MCP Tasks, stored with the task list (runs in the same database): whoever serves `start()`s it
   * once serving, so unfinished tasks resume, and `stop()`s it before closing the stores.
   */
  runs: TaskRuntime;
  /** Stops the tasks, then closes the runs and the task list: what a server does last. */
  close(): Promise<void>;
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
  telemetry?: HostTelemetry;
  /** The folder of skills; defaults to the package's own `skills/`. */
  skillsDir?: string;
  /** MCP Tasks one owner may have working or waiting for input (`MCP_MAX_ACTIVE_TASKS_PER_USER`). */
  maxActiveTasksPerUser?: number;
}

/** The dependencies `index.ts` serves with, from a validated environment. */
export function createDeps(env: ServerEnv, logger: Logger, telemetry?: HostTelemetry): ServerDeps {
  return buildDeps({
    logger,
    dataDir: env.DATA_DIR,
    ...(env.DATABASE_URL && { databaseUrl: env.DATABASE_URL }),
    maxActiveTasksPerUser: env.MCP_MAX_ACTIVE_TASKS_PER_USER,
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
  const {
    logger,
    dataDir,
    databaseUrl,
    openMeteo,
    telemetry,
    skillsDir,
    maxActiveTasksPerUser,
    now = () => new Date(),
  } = config;
  const weather = openMeteo
    ? createOpenMeteoWeather({ ...openMeteo, ...(telemetry && { fetch: telemetry.fetch }) })
    : createOfflineWeather(now);
  const backend = openTaskBackend({
    logger,
    now,
    dataDir,
    ...(databaseUrl && { databaseUrl }),
    ...(telemetry && { tracer: telemetry.tracer }),
  });
  const runs = createTaskRuntime({
    runs: backend.runs,
    queue: backend.runQueue(),
    logger,
    ...(maxActiveTasksPerUser !== undefined && { maxActivePerOwner: maxActiveTasksPerUser }),
    // Each task's changes, from this process or (with Postgres) any replica: listen streams hear them.
    changes: backend.watchRuns,
  });
  return {
    weather,
    tasks: backend.tasks,
    runs,
    async close() {
      // Tasks first: a run in progress stays `working` and resumes at the next start (or on another replica).
      await runs.stop();
      await backend.runs.close();
      await backend.tasks.close();
    },
    taskEvents: backend.events,
    now,
    logger,
    openTasks: () => backend.open(),
    checkReady: () => backend.checkReady(),
    skills: createWorkshopSkills({
      ...(skillsDir && { dir: skillsDir }),
      onWarning: ({ path, message }) => logger.warn({ path }, `skills: ${message}`),
    }),
  };
}
