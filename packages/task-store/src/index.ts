/**
 * @module index
 * What a server takes from the task store: the interface and its limits, the two ways to open it
 * (`openTaskBackend` for a running server, `openTaskStore` for a bare SQLite store in tests and tools),
 * and the events every write is announced on. Postgres modules stay out of this entry, so a server
 * without a database URL never loads `pg` or kysely.
 */
export type { TaskBackend, TaskBackendOptions, TaskReadiness } from './backend.js';
export { NOT_READY_MESSAGE, openTaskBackend } from './backend.js';
export { POSTGRES_PROTOCOL, redactDatabaseUrl, TaskMigrationError } from './database-url.js';
export type { TaskEventMap, TaskEvents } from './events.js';
export { announceTaskChanges, createTaskEvents, EVERY_OWNER } from './events.js';
export type { LazyTaskStore } from './lazy-store.js';
export { lazyTaskStore } from './lazy-store.js';
export type { Logger } from './logger.js';
export { lockPathFor, TaskStoreBusyError } from './sqlite-lock.js';
export type { TaskStoreOptions } from './sqlite-store.js';
export { openTaskStore, TASKS_DB_FILE } from './sqlite-store.js';
export type { Task, TaskStatusFilter, TaskStore } from './store.js';
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
