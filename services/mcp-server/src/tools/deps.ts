/**
 * @module tools/deps
 * Everything a tool may touch outside its own arguments. Tools get these passed in instead of
 * importing singletons, so a test can hand them a temporary database or a fake clock.
 */
import type { Logger } from '@mcp-workshop/mcp-host/logger';
import type { TaskRuntime } from '@mcp-workshop/mcp-host/tasks';
import type { TaskEvents, TaskStore } from '@mcp-workshop/task-store';
import type { WeatherProvider } from '../weather/provider.js';

export interface ToolDeps {
  weather: WeatherProvider;
  tasks: TaskStore;
  /** Announces task writes, for resource notifications. */
  taskEvents: TaskEvents;
  /** The current time; tests pass a fixed one. */
  now: () => Date;
  logger: Logger;
  /**
   * Runs tools that declare `task` as MCP Tasks (`@mcp-workshop/mcp-host/tasks`), stored with the
   * task list so they survive a restart. Absent (stdio, some tests): such tools answer at once.
   */
  runs?: TaskRuntime;
}
