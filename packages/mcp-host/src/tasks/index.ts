/**
 * @module tasks
 * `@mcp-workshop/mcp-host/tasks`: MCP Tasks (SEP-2663) for any catalogue. A server entry opens a
 * runtime over the task store's runs and queue (`createTaskRuntime`), each server instance gets the
 * methods (`installTaskMethods`), and a tool's `tools/call` handler asks `callAsTask` first.
 */

export type {
  NewTaskRecord,
  TaskError,
  TaskQueue,
  TaskRecord,
  TaskRecordUpdate,
  TaskStatus,
  TaskStep,
  TaskStorage,
} from '@mcp-workshop/shared/tasks-port';
export type { TaskSupport } from './methods.js';
export { callAsTask, installTaskMethods, tooManyTasksMessage } from './methods.js';
export type { NewTask, TaskRunContext, TaskRuntime, TaskRuntimeOptions, TaskWork } from './runtime.js';
export {
  CANCEL_CHECK_MS,
  createTaskRuntime,
  DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_SLICE_MS,
  DEFAULT_TASK_TTL_MS,
  TooManyActiveTasksError,
} from './runtime.js';
export { createTaskResult, declaresTasks, detailedTask, TASKS_EXTENSION, tasksRequired } from './wire.js';
