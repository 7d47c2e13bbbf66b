/**
 * @module index
 * What a server takes from the task store: the interface and its limits, the two ways to open it
 * (`openTaskBackend` for a running server, `openTaskStore` for a bare SQLite store in tests and tools),
 * and the events every write is announced on; and the same for MCP tasks' runs (`RunStore`,
 * `RunQueue`). Postgres modules stay out of this entry, so a server without a database URL never
 * loads `pg`, kysely or pg-boss.
 */
export type { TaskBackend, TaskBackendOptions, TaskReadiness } from './backend.js';
export { NOT_READY_MESSAGE, openTaskBackend } from './backend.js';
export { POSTGRES_PROTOCOL, redactDatabaseUrl, TaskMigrationError } from './database-url.js';
export type { TaskEventMap, TaskEvents } from './events.js';
export { announceTaskChanges, createTaskEvents, EVERY_OWNER } from './events.js';
export type { LazyTaskStore } from './lazy-store.js';
export { lazyTaskStore } from './lazy-store.js';
export type { Logger } from './logger.js';
export { announceRunChanges } from './runs/announce.js';
export type { RunBackend, RunQueueOptions } from './runs/backend-runs.js';
export { RUN_POOL_MAX } from './runs/backend-runs.js';
export type { RunHandler } from './runs/hand-off.js';
export {
  GAVE_UP_ERROR,
  RUN_CONCURRENCY,
  RUN_RETRY_LIMIT,
  RunHandOffError,
  STOP_GRACE_MS,
} from './runs/hand-off.js';
export type { InProcessRunQueueOptions } from './runs/in-process-queue.js';
export { createInProcessRunQueue, RUN_RETRY_DELAY_MS } from './runs/in-process-queue.js';
export { lazyRunQueue, lazyRunStore } from './runs/lazy.js';
export {
  INPUT_STEP_PREFIX,
  isRunId,
  MAX_RUN_JSON_BYTES,
  MAX_RUN_POLL_INTERVAL_MS,
  MAX_RUN_STATUS_MESSAGE_LENGTH,
  MAX_RUN_STEP_KEY_LENGTH,
  MAX_RUN_STEPS,
  MAX_RUN_STEPS_BYTES,
  MAX_RUN_TOOL_LENGTH,
  MAX_RUN_TTL_MS,
} from './runs/limits.js';
export type { SqliteRunStoreOptions } from './runs/sqlite-run-store.js';
export { openSqliteRunStore } from './runs/sqlite-run-store.js';
export type {
  NewRun,
  Run,
  RunError,
  RunQueue,
  RunStatus,
  RunStep,
  RunStore,
  RunUpdate,
} from './runs/types.js';
export { TERMINAL_RUN_STATUSES } from './runs/types.js';
export { lockPathFor, TaskStoreBusyError } from './sqlite-lock.js';
export type { TaskStoreOptions } from './sqlite-store.js';
export { openTaskStore, TASKS_DB_FILE } from './sqlite-store.js';
export type { Task, TaskPage, TaskPageRequest, TaskStatusFilter, TaskStore } from './store.js';
export {
  isTaskId,
  MAX_OWNER_LENGTH,
  MAX_TASKS,
  MAX_TITLE_LENGTH,
  SHARED_OWNER,
  TaskAddUncertainError,
  TaskStoreUnavailableError,
} from './store.js';
export type { DatabaseTarget } from './traced-store.js';
