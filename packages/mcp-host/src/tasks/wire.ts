/**
 * @module tasks/wire
 * The Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) on the 2026-07-28 wire: its
 * identifier, the params of `tasks/get`, `tasks/update` and `tasks/cancel`, and the two shapes a
 * client sees: the `CreateTaskResult` a `tools/call` answers with, and the task `tasks/get` returns.
 * SDK 2.4.0 has no Tasks runtime (typescript-sdk#2189), so these are written here; `doc/upstream/`
 * says what the SDK should offer instead.
 */

import type { TaskRecord } from '@mcp-workshop/shared/tasks-port';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * A task id is ours (22 characters of base64url); anything much longer names no task and is not
 * worth a query. Generous, so an id format change later never turns valid ids into errors.
 */
const MAX_TASK_ID_LENGTH = 256;
/** One round of answers; the tools that ask hold a handful of questions at most. */
const MAX_INPUT_RESPONSES = 64;

const taskId = z.string().min(1).max(MAX_TASK_ID_LENGTH);

// Unknown params are ignored (`looseObject`): SEP-2322 says servers SHOULD ignore what they do not know.
export const getTaskParams = z.looseObject({ taskId });
export const cancelTaskParams = z.looseObject({ taskId });
// `inputResponses` is not in these params: the SDK lifts it out of every 2026-07-28 request into
// `ctx.mcpReq.inputResponses` (SEP-2322), and `answersOf` checks it there.
export const updateTaskParams = z.looseObject({ taskId });

const inputResponses = z
  .record(z.string().max(MAX_TASK_ID_LENGTH), z.unknown())
  .refine((responses) => Object.keys(responses).length <= MAX_INPUT_RESPONSES, {
    message: `at most ${MAX_INPUT_RESPONSES} input responses per update`,
  });

/** The answers a `tasks/update` brings; an update without any is a valid (empty) one. */
export function answersOf(responses: unknown): Record<string, unknown> {
  if (responses === undefined || responses === null) return {};
  const parsed = inputResponses.safeParse(responses);
  if (!parsed.success) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid inputResponses: ${parsed.error.issues[0]?.message ?? 'not a map of answers'}.`,
    );
  }
  return parsed.data;
}

/** The fields every task shape shares (`Task` in SEP-2663), in wire names. */
function taskFields(run: TaskRecord) {
  return {
    taskId: run.id,
    status: run.status,
    ...(run.statusMessage !== null && { statusMessage: run.statusMessage }),
    createdAt: run.createdAt,
    lastUpdatedAt: run.lastUpdatedAt,
    ttlMs: run.ttlMs,
    pollIntervalMs: run.pollIntervalMs,
  };
}

/** What `tools/call` answers when it made a task: never `requestState`, never the old `ttl`/`pollInterval`. */
export function createTaskResult(run: TaskRecord) {
  return { resultType: 'task' as const, ...taskFields(run) };
}

/**
 * The task as `tasks/get` answers it (with `resultType: 'complete'` beside it) and as a
 * `notifications/tasks` carries it: the task, plus what its status calls for: the questions still
 * open, the exact tool result, or the JSON-RPC error.
 */
export function detailedTask(run: TaskRecord) {
  return {
    ...taskFields(run),
    ...(run.status === 'input_required' && run.inputRequests && { inputRequests: run.inputRequests }),
    ...(run.status === 'completed' && run.result && { result: run.result }),
    ...(run.status === 'failed' && run.error && { error: run.error }),
  };
}

/** Whether the request's own capabilities (2026-07-28 envelope) declare the Tasks extension. */
export function declaresTasks(meta: Record<string, unknown> | undefined): boolean {
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const extensions = capabilities?.extensions as Record<string, unknown> | undefined;
  return extensions?.[TASKS_EXTENSION] !== undefined && extensions[TASKS_EXTENSION] !== null;
}

/** -32021 naming the extension, for `tasks/*` from a client that did not declare it, or a task-only tool. */
export function tasksRequired(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare.`,
  );
}
