/**
 * @module mcp/task-wait
 * Follows a task to its end (MCP Tasks, SEP-2663): polls `tasks/get` at the server's suggested
 * interval, within bounds, until the task is completed, failed or cancelled, and hands back the
 * exact `CallToolResult`, or a failure the model reads like any other. A cancelled question sends
 * `tasks/cancel`, and so does giving up: no task is left running for nobody. The requests go
 * through an ext-tasks session (`task-session.ts`). Test: `task-wait.test.ts`.
 */
import type { CallToolResult } from '@mcp-workshop/shared';
import { type Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import {
  JsonRpcResponseError,
  type TaskController,
  type TaskView,
} from '@modelcontextprotocol/ext-tasks/client';
import { ProtocolDecodeError, taskId as toTaskId } from '@modelcontextprotocol/ext-tasks/core';
import { CreateTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { CallFailure, TaskInfo, TaskStatus } from '../types.js';
import { describeCause, sleep } from './retry.js';
import { openTaskSession } from './task-session.js';

/** A server that suggests polling every few ms must not make the agent hammer it. */
export const MIN_TASK_POLL_MS = 100;
/** A server that suggests an hour must not leave the person waiting long after the task is done. */
export const MAX_TASK_POLL_MS = 5_000;
/** When the server suggests nothing. */
export const DEFAULT_TASK_POLL_MS = 1_000;
/**
 * The longest the agent follows one task, like the hard cap on a call (`MAX_CALL_TOTAL_MS`): a task
 * that stays `working` must not hold the conversation forever. A shorter `ttlMs` bounds it too,
 * since the server may forget the task after that.
 */
export const MAX_TASK_WAIT_MS = 10 * 60_000;
/** `tasks/cancel` is sent on the way out (a cancelled question, giving up); it must not hold that up. */
export const TASK_CANCEL_TIMEOUT_MS = 5_000;

export interface TaskWaitOptions {
  /** The server's name, for the session's identity. */
  server: string;
  /** The limit on each `tasks/get` answer (the call's own timeout). */
  timeoutMs: number;
  /** The question's signal: aborted, the task is cancelled. */
  signal?: AbortSignal;
  onTask?: (task: TaskInfo) => void;
  /** Defaults to {@link MAX_TASK_WAIT_MS}. */
  maxWaitMs?: number;
}

/** How the task ended for the caller; `task` is absent only when the answer named no task at all. */
export type TaskWaitOutcome = { task?: TaskInfo } & ({ result: CallToolResult } | { failure: CallFailure });

const FINAL: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** Follows the task a `tools/call` answered with (`created`, as the server sent it). */
export async function waitForTask(
  client: Client,
  created: unknown,
  options: TaskWaitOptions,
): Promise<TaskWaitOutcome> {
  const parsed = CreateTaskResultV2Schema.safeParse(created);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'task'}: ${issue.message}`,
    );
    return {
      failure: {
        kind: 'transport',
        message: `The server answered with a task the agent cannot follow (${problems.join('; ')}). Nothing is known of its result.`,
      },
    };
  }
  const started = performance.now();
  const task: TaskInfo = { id: parsed.data.taskId, statuses: [], elapsedMs: 0, polls: 0 };
  const report = (status: TaskStatus, message: string | undefined) => {
    const changed = task.statuses.at(-1) !== status || message !== task.statusMessage;
    if (task.statuses.at(-1) !== status) task.statuses.push(status);
    // The server's current words: a task that says nothing now (a finished one, say) has none.
    if (message === undefined) delete task.statusMessage;
    else task.statusMessage = message;
    task.elapsedMs = Math.round(performance.now() - started);
    if (changed) options.onTask?.({ ...task, statuses: [...task.statuses] });
  };
  report(parsed.data.status, parsed.data.statusMessage);

  const session = openTaskSession(client, options.server);
  const controller = session.task(toTaskId(task.id), { requestTimeoutMs: options.timeoutMs });
  const giveUp = async (reason: NonNullable<TaskInfo['cancel']>['reason'], failure: CallFailure) => {
    task.cancel = { reason, acknowledged: await cancel(controller) };
    return { task, failure };
  };
  try {
    const ttl = parsed.data.ttlMs ?? Number.POSITIVE_INFINITY;
    const most = options.maxWaitMs ?? MAX_TASK_WAIT_MS;
    const deadline = started + Math.min(most, ttl);
    const bound = ttl < most ? `its ttlMs (${ttl} ms)` : `the agent's limit of ${most} ms`;
    let pollMs = pollInterval(parsed.data.pollIntervalMs);
    // A task can be created already final; its result still needs one tasks/get.
    let nextWait = FINAL.includes(parsed.data.status) ? 0 : pollMs;
    for (;;) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        return await giveUp('timeout', {
          kind: 'timeout',
          message: `The task was still ${task.statuses.at(-1)} after ${Math.round(performance.now() - started)} ms, past ${bound}; the agent cancelled it.`,
        });
      }
      await sleep(Math.min(nextWait, remaining), options.signal);
      if (performance.now() >= deadline) continue;
      const view = await controller.snapshot(options.signal);
      task.polls++;
      report(view.status, view.statusMessage);
      if (FINAL.includes(view.status)) return { task, ...ending(view) };
      if (view.status === 'input_required') {
        return await giveUp('error', {
          kind: 'transport',
          message:
            'The task asks for input (input_required), which this agent cannot give a task yet; the agent cancelled it.',
        });
      }
      pollMs = pollInterval(view.suggestedPollIntervalMs ?? pollMs);
      nextWait = pollMs;
    }
  } catch (error) {
    if (options.signal?.aborted) {
      return await giveUp('aborted', {
        kind: 'aborted',
        message: 'The call was cancelled before its task ended.',
      });
    }
    // Awaited here, so the cancel goes out before `finally` closes the session.
    return await giveUp('error', followFailure(error, options.timeoutMs));
  } finally {
    task.elapsedMs = Math.round(performance.now() - started);
    await session.close();
  }
}

/** The server's suggestion, kept within {@link MIN_TASK_POLL_MS} and {@link MAX_TASK_POLL_MS}. */
export function pollInterval(suggested: number | undefined): number {
  if (suggested === undefined || !Number.isFinite(suggested)) return DEFAULT_TASK_POLL_MS;
  return Math.min(MAX_TASK_POLL_MS, Math.max(MIN_TASK_POLL_MS, suggested));
}

/** A final task as a result or a failure; the wire schemas already checked the fields it carries. */
function ending(view: TaskView): { result: CallToolResult } | { failure: CallFailure } {
  if (view.status === 'completed') return { result: view.raw.result as unknown as CallToolResult };
  if (view.status === 'failed') {
    const error = view.raw.error as { code: number; message: string };
    return { failure: { kind: 'jsonrpc', code: error.code, message: error.message } };
  }
  return { failure: { kind: 'aborted', message: 'The server cancelled the task before it finished.' } };
}

/** Why following the task failed: the server's error, no answer in time, or an answer that is no task. */
function followFailure(error: unknown, timeoutMs: number): CallFailure {
  if (error instanceof JsonRpcResponseError)
    return { kind: 'jsonrpc', code: error.code, message: error.message };
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return { kind: 'timeout', message: `The server did not answer tasks/get within ${timeoutMs} ms.` };
  }
  const what =
    error instanceof ProtocolDecodeError ? 'an answer to tasks/get that is not a task' : 'an error';
  return {
    kind: 'transport',
    message: `Following the task failed with ${what}: ${describeCause(error)}. The agent cancelled it.`,
  };
}

/** Sends `tasks/cancel`, bounded; true when the server acknowledged it. */
async function cancel(controller: TaskController): Promise<boolean> {
  try {
    await controller.cancel(AbortSignal.timeout(TASK_CANCEL_TIMEOUT_MS));
    return true;
  } catch {
    return false;
  }
}
