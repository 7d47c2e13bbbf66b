/**
 * @module deps
 * Builds the real dependencies from a validated environment: the weather source and the task
 * database. Preparing DATA_DIR is I/O, so only the entry file (and tests) call this. The database
 * itself opens on first use or on `openTasks()`, which `index.ts` calls once it is serving.
 */
import fs from 'node:fs';
import { EnvError, type ServerEnv } from './env.js';
import type { Logger } from './logger.js';
import { announceTaskChanges, createTaskEvents } from './tasks/events.js';
import { lazyTaskStore } from './tasks/lazy-store.js';
import { openTaskStore } from './tasks/sqlite-store.js';
import type { ToolDeps } from './tools/deps.js';
import { createOfflineWeather } from './weather/offline.js';
import { createOpenMeteoWeather } from './weather/open-meteo.js';

export interface ServerDeps extends ToolDeps {
  /** Opens the task database now unless a task call has already; throws what opening throws. */
  openTasks(): void;
}

export function createDeps(env: ServerEnv, logger: Logger): ServerDeps {
  const now = () => new Date();
  const weather =
    env.WEATHER_PROVIDER === 'open-meteo'
      ? createOpenMeteoWeather({
          geocodingUrl: env.OPEN_METEO_GEOCODING_URL,
          forecastUrl: env.OPEN_METEO_FORECAST_URL,
          timeoutMs: env.WEATHER_TIMEOUT_MS,
        })
      : createOfflineWeather(now);
  // Checked now, cheaply, so a bad DATA_DIR still stops start-up before anything is served.
  prepareDataDir(env.DATA_DIR);
  const store = lazyTaskStore(() => openTaskStore({ dataDir: env.DATA_DIR, logger, now }));
  const taskEvents = createTaskEvents();
  const tasks = announceTaskChanges(store, taskEvents);
  return { weather, tasks, taskEvents, now, logger, openTasks: () => store.open() };
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
