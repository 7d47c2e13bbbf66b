/**
 * @module tools/deps
 * Everything a tool may touch outside its own arguments. Tools get these passed in instead of
 * importing singletons, so a test can hand them a temporary database or a fake clock.
 */
import type { Logger } from '../logger.js';
import type { TaskEvents } from '../tasks/events.js';
import type { TaskStore } from '../tasks/store.js';
import type { WeatherProvider } from '../weather/provider.js';

export interface ToolDeps {
  weather: WeatherProvider;
  tasks: TaskStore;
  /** Announces task writes, for resource notifications. */
  taskEvents: TaskEvents;
  /** The current time; tests pass a fixed one. */
  now: () => Date;
  logger: Logger;
}
