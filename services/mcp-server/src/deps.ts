/**
 * @module deps
 * Builds the real dependencies from a validated environment: the weather source and the task
 * database. Opening the database is I/O, so only the entry file (and tests) call this.
 */
import type { ServerEnv } from './env.js';
import type { Logger } from './logger.js';
import { announceTaskChanges, createTaskEvents } from './tasks/events.js';
import { openTaskStore } from './tasks/sqlite-store.js';
import type { ToolDeps } from './tools/deps.js';
import { createOfflineWeather } from './weather/offline.js';
import { createOpenMeteoWeather } from './weather/open-meteo.js';

export function createDeps(env: ServerEnv, logger: Logger): ToolDeps {
  const now = () => new Date();
  const weather =
    env.WEATHER_PROVIDER === 'open-meteo'
      ? createOpenMeteoWeather({
          geocodingUrl: env.OPEN_METEO_GEOCODING_URL,
          forecastUrl: env.OPEN_METEO_FORECAST_URL,
          timeoutMs: env.WEATHER_TIMEOUT_MS,
        })
      : createOfflineWeather(now);
  const taskEvents = createTaskEvents();
  const tasks = announceTaskChanges(openTaskStore({ dataDir: env.DATA_DIR, logger, now }), taskEvents);
  return { weather, tasks, taskEvents, now, logger };
}
