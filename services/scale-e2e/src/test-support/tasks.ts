/**
 * @module test-support/tasks
 * MCP Tasks (SEP-2663) on the 2026-07-28 wire, as the scale-out tests need them: a `tools/call`
 * that declares the extension and gets a task back, `tasks/get` and `tasks/cancel` with the task id
 * in Mcp-Name (`mcp.ts` sends them), and a bounded poll that keeps every answer it saw.
 * Partner: `tasks.e2e.test.ts`.
 */
import { TASKS_CAPABILITIES } from '@mcp-workshop/test-infra';
import { type JsonRpcMessage, type Outcome, requestModern, type ToolResult, textOf } from './mcp.js';

/** The envelope key that carries a 2026-07-28 request's own client capabilities. */
const CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** `_meta` for a request whose client declares MCP Tasks (`requestModern`'s last argument). */
export const WITH_TASKS = { [CAPABILITIES_META_KEY]: TASKS_CAPABILITIES };

/** A task as `tasks/get` answers it (the fields these tests read). */
export interface TaskView {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  pollIntervalMs: number;
  /** The tool's CallToolResult, once `completed`. */
  result?: ToolResult;
  error?: { code: number; message: string };
}

/** One answer of a poll: when the test got it, and the task as it was. */
export interface Sighting {
  /** Date.now() when the answer arrived. */
  at: number;
  task: TaskView;
}

/** Calls `tool` as a client that declares MCP Tasks; fails unless the answer is a task. */
export async function createTask(
  url: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<TaskView> {
  const outcome = await requestModern(url, 'tools/call', { name: tool, arguments: args }, WITH_TASKS);
  const result = expectResult(outcome, `tools/call ${tool} as a task`);
  if (result.resultType !== 'task' || typeof result.taskId !== 'string') {
    const text = textOf(result as ToolResult);
    throw new Error(`tools/call ${tool} did not answer with a task: ${text || JSON.stringify(result)}`);
  }
  return result as unknown as TaskView;
}

/** `tasks/get`, as the outcome: a test that kills replicas must tell a refused connection from a wrong answer. */
export async function getTask(url: string, taskId: string): Promise<Outcome<TaskView>> {
  const outcome = await requestModern(url, 'tasks/get', { taskId }, WITH_TASKS);
  if (outcome.kind !== 'ok') return outcome;
  const { result, error } = outcome.value;
  if (!result)
    return { kind: 'unexpected', status: outcome.status, reason: `error ${JSON.stringify(error)}` };
  return { kind: 'ok', status: outcome.status, value: result as unknown as TaskView };
}

/** `tasks/get` that must succeed. */
export async function expectTask(url: string, taskId: string, what: string): Promise<TaskView> {
  const outcome = await getTask(url, taskId);
  if (outcome.kind !== 'ok') throw new Error(`${what}: ${outcome.kind}: ${outcome.reason}`);
  return outcome.value;
}

/** `tasks/cancel`: the raw JSON-RPC answer, for the test to check. */
export function cancelTask(url: string, taskId: string): Promise<Outcome<JsonRpcMessage>> {
  return requestModern(url, 'tasks/cancel', { taskId }, WITH_TASKS);
}

/** The JSON-RPC result of a request that must succeed. */
export function expectResult(outcome: Outcome<JsonRpcMessage>, what: string): Record<string, unknown> {
  if (outcome.kind !== 'ok') throw new Error(`${what}: ${outcome.kind}: ${outcome.reason}`);
  if (!outcome.value.result) throw new Error(`${what}: ${JSON.stringify(outcome.value.error)}`);
  return outcome.value.result;
}

/** k of generate_report's "Section k of n: …", or 0 before the first section (or with no message). */
export function sectionOf(task: TaskView): number {
  return Number(/^Section (\d+) of \d+/.exec(task.statusMessage ?? '')?.[1] ?? 0);
}

export interface PollOptions {
  /** Stops polling once this holds for an answer. */
  until: (task: TaskView) => boolean;
  /** A bound on the whole poll: reaching it fails the test with everything seen so far. */
  timeoutMs: number;
  intervalMs: number;
  /** Whether a retryable outcome (a refused connection, a 502) is noted and polled past. */
  tolerateRetryable?: boolean;
}

/**
 * Polls `tasks/get` until `until` holds, and returns every answer seen. Bounded by `timeoutMs`,
 * and so in count too (at most timeoutMs / intervalMs polls plus one).
 */
export async function pollTask(
  url: string,
  taskId: string,
  { until, timeoutMs, intervalMs, tolerateRetryable = false }: PollOptions,
): Promise<Sighting[]> {
  const sightings: Sighting[] = [];
  const deadline = Date.now() + timeoutMs;
  const maxPolls = Math.ceil(timeoutMs / intervalMs) + 1;
  for (let poll = 0; poll < maxPolls && Date.now() <= deadline; poll += 1) {
    const outcome = await getTask(url, taskId);
    if (outcome.kind === 'ok') {
      sightings.push({ at: Date.now(), task: outcome.value });
      if (until(outcome.value)) return sightings;
    } else if (outcome.kind === 'unexpected' || !tolerateRetryable) {
      throw new Error(`tasks/get ${taskId}: ${outcome.kind}: ${outcome.reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const last = sightings.at(-1)?.task;
  throw new Error(
    `task ${taskId} did not reach the awaited state within ${timeoutMs} ms; last seen ${JSON.stringify(last)}`,
  );
}
