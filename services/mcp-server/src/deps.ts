/**
 * @module deps
 * What this catalogue's tools, prompts and resources may touch (`ToolDeps`), the settings it reads
 * besides the host's (`env`), its OAuth scopes, and how the dependencies are built (`createServices`):
 * the weather source, and the to-do list with its MCP Tasks (`@mcp-workshop/task-store`), in SQLite
 * under DATA_DIR by default or Postgres when DATABASE_URL is set. Tools get these passed in instead
 * of importing singletons, so a test can hand them a temporary database or a fixed clock.
 * `defineTool` here is the kit's, bound to `ToolDeps`: every tool file imports it from this file.
 */
import { fileURLToPath } from 'node:url';
import {
  type CatalogueContext,
  type CatalogueServices,
  type DefinedTool,
  toolKit,
} from '@mcp-workshop/mcp-host/kit';
import type { Logger } from '@mcp-workshop/mcp-host/logger';
import type { RunEnv } from '@mcp-workshop/mcp-host/run';
import {
  openStoreBackend,
  POSTGRES_PROTOCOL,
  redactDatabaseUrl,
  type TodoEvents,
  type TodoStore,
} from '@mcp-workshop/task-store';
import { z } from 'zod';
import { publishTodoChanges } from './resources/publish.js';
import { createWorkshopSkills } from './skills/catalogue.js';
import { createOfflineWeather } from './weather/offline.js';
import { createOpenMeteoWeather, DEFAULT_FORECAST_URL, DEFAULT_GEOCODING_URL } from './weather/open-meteo.js';
import type { WeatherProvider } from './weather/provider.js';

export interface ToolDeps {
  weather: WeatherProvider;
  todos: TodoStore;
  /** Announces to-do writes, for resource notifications. */
  todoEvents: TodoEvents;
  /** The current time; tests pass a fixed one. */
  now: () => Date;
  logger: Logger;
}

/** A tool of this catalogue, as `tools/index.ts` lists it. */
export type WorkshopTool = DefinedTool<ToolDeps>;

/** `defineTool` for this catalogue: a tool's `run` gets these deps as `context.deps`. */
export const { defineTool } = toolKit<ToolDeps>();

export const TASKS_READ = 'tasks:read';
export const TASKS_WRITE = 'tasks:write';
/** Every scope this server understands, as published in its protected-resource metadata. */
export const SCOPES_SUPPORTED: readonly string[] = [TASKS_READ, TASKS_WRITE];

/** Where the to-do database lives unless DATA_DIR says otherwise: next to this package, not the caller's cwd. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data', import.meta.url));

/** The catalogue's own settings; the host's (HOST, PORT, the limits, sign-in…) come with every catalogue. */
export const env = {
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: z
    .url({
      protocol: POSTGRES_PROTOCOL,
      error: 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@127.0.0.1:5432/tasks',
    })
    .optional()
    .describe(
      'Postgres for the to-do list and MCP Tasks, shared by every replica; unset keeps them in SQLite under DATA_DIR.',
    ),
  WEATHER_PROVIDER: z.enum(['offline', 'open-meteo']).default('offline'),
  OPEN_METEO_GEOCODING_URL: z.url().default(DEFAULT_GEOCODING_URL),
  OPEN_METEO_FORECAST_URL: z.url().default(DEFAULT_FORECAST_URL),
  WEATHER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
};

export type WorkshopEnv = RunEnv<typeof env>;

/** Built once per process, kept across `pnpm dev` reloads; the host opens, starts and closes it. */
export function createServices(context: CatalogueContext<WorkshopEnv>): CatalogueServices<ToolDeps> {
  const { env: settings, logger, telemetry } = context;
  const now = context.now ?? (() => new Date());
  const weather =
    settings.WEATHER_PROVIDER === 'open-meteo'
      ? createOpenMeteoWeather({
          geocodingUrl: settings.OPEN_METEO_GEOCODING_URL,
          forecastUrl: settings.OPEN_METEO_FORECAST_URL,
          timeoutMs: settings.WEATHER_TIMEOUT_MS,
          ...(telemetry && { fetch: telemetry.fetch }),
        })
      : createOfflineWeather(now);
  // Opens on first use or on `open()`; preparing DATA_DIR is I/O, so nothing happens until then.
  const backend = openStoreBackend({
    logger,
    now,
    dataDir: settings.DATA_DIR,
    ...(settings.DATABASE_URL && { databaseUrl: settings.DATABASE_URL }),
    ...(telemetry && { tracer: telemetry.tracer }),
  });
  const skills = createWorkshopSkills({
    onWarning: ({ path, message }) => logger.warn({ path }, `skills: ${message}`),
  });
  let skillsLoaded = false;
  return {
    deps: { weather, todos: backend.todos, todoEvents: backend.events, now, logger },
    // Read before the first server; on a later call (`pnpm dev` saw a skill change) read again in place.
    async load() {
      if (skillsLoaded) await skills.reload();
      else await skills.load();
      skillsLoaded = true;
    },
    open: () => backend.open(),
    checkReady: () => backend.checkReady(),
    tasks: { storage: backend.runs, queue: backend.runQueue(), changes: backend.watchRuns },
    publishEvents: (bus) => publishTodoChanges(backend.events, bus),
    attach: (server) => skills.attach(server),
    describe: (): Record<string, string> =>
      settings.DATABASE_URL
        ? { database: redactDatabaseUrl(settings.DATABASE_URL) }
        : { dataDir: settings.DATA_DIR },
    async close() {
      // The host stopped the MCP Tasks first; a run in progress stays `working` and resumes next start.
      await backend.runs.close();
      await backend.todos.close();
    },
  };
}
