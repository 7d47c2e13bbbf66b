/**
 * @module index
 * What a server takes from the task store: the interface and its limits, the two ways to open it
 * (`openStoreBackend` for a running server, `openTodoStore` for a bare SQLite store in tests and tools),
 * and the events every write is announced on; and the same for MCP tasks' runs (`RunStore` and
 * the queues; their record and queue types are `@mcp-workshop/shared/tasks-port`'s). Postgres
 * modules stay out of this entry, so a server without a database URL never loads `pg`, kysely or
 * pg-boss.
 */
export type { StoreBackend, StoreBackendOptions, StoreReadiness } from './backend.js';
export { NOT_READY_MESSAGE, openStoreBackend } from './backend.js';
export { POSTGRES_PROTOCOL, redactDatabaseUrl, StoreMigrationError } from './database-url.js';
export type { TodoEventMap, TodoEvents } from './events.js';
export { announceTodoChanges, createTodoEvents, EVERY_OWNER } from './events.js';
export type { LazyTodoStore } from './lazy-store.js';
export { lazyTodoStore } from './lazy-store.js';
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
export type { RunStore } from './runs/types.js';
export { lockPathFor, StoreBusyError } from './sqlite-lock.js';
export type { TodoStoreOptions } from './sqlite-store.js';
export { openTodoStore, TASKS_DB_FILE } from './sqlite-store.js';
export type { Todo, TodoPage, TodoPageRequest, TodoStatusFilter, TodoStore } from './store.js';
export {
  isTodoId,
  MAX_OWNER_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_TODOS,
  SHARED_OWNER,
  TodoAddUncertainError,
  TodoStoreUnavailableError,
} from './store.js';
export type { DatabaseTarget } from './traced-store.js';
