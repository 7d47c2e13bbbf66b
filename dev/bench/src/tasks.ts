/**
 * @module tasks
 * MCP Tasks (SEP-2663) on the built server: how soon after a task is created a client polling
 * `tasks/get` sees it `completed`. Each task is a `generate_report` of one section with no
 * simulated work, so what is timed is the Tasks machinery (store, queue, run, poll), not the tool.
 * Half the tasks are polled back-to-back (the soonest a client can see the end), half at the
 * `pollIntervalMs` the server suggests (what a client following the hint sees). One task at a
 * time: the figures are the machinery's, not a queue's. Partner test: tasks.test.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MODERN_VERSION, modernMeta, POST_HEADERS, readAnswer, TASKS_CAPABILITIES } from './rpc.js';
import { freePort, spawnServer, stopChild, waitHealthy } from './targets.js';

/** One section from the built-in dataset, no delay: the cheapest work that still goes through a task. */
export const TASK_CALL = { name: 'generate_report', arguments: { topic: 'cities', steps: 1, delayMs: 0 } };
/** Unmeasured tasks first: they pay for opening SQLite (lazily, on the first task call) and for the JIT. */
export const TASK_WARM_UP = 3;
/** A one-section task not completed after this is stuck, not slow: it is counted, and the run goes on. */
const TASK_TIMEOUT_MS = 10_000;
/** Back-to-back polls of one task; the time bound usually ends a stuck task first, this bounds it regardless. */
const MAX_POLLS = 20_000;
/** One request (`tools/call` or `tasks/get`): a server that stops answering fails the bench, not hangs it. */
const REQUEST_TIMEOUT_MS = 10_000;
const READY_TIMEOUT_MS = 20_000;
/** Statuses a task never leaves; `input_required` is not one of them (this tool never asks). */
const SETTLED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export type PollMode = 'tight' | 'hinted';

export interface TaskSample {
  /** The `tools/call` round trip: the request sent to its CreateTaskResult read. */
  createMs: number;
  /** From the CreateTaskResult's arrival to the arrival of the first `tasks/get` saying `completed`. */
  visibleMs: number;
  /** `tasks/get` requests it took. */
  polls: number;
}

export interface TasksReport {
  /** Measured tasks per way of polling, after `TASK_WARM_UP` unmeasured ones. */
  tasks: number;
  /** What the server suggested in its CreateTaskResult; the hinted polls wait this long before each. */
  pollIntervalMs: number;
  tight: TaskSample[];
  hinted: TaskSample[];
  /** Every task (warm-up included) that did not complete with a successful result, and what it did instead. */
  incomplete: string[];
}

/** What one `tasks/get` says: the status, and once `completed` the tool's result. */
export interface TaskState {
  status: string;
  result?: { isError?: boolean };
}

export interface PollBounds {
  /** Wait before each poll; 0 polls back-to-back. */
  intervalMs: number;
  timeoutMs: number;
  maxPolls: number;
  /** The clock the polling reads and waits on; the real one unless a test hands in its own. */
  clock?: PollClock;
}

export interface PollClock {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const REAL_CLOCK: PollClock = { now: () => performance.now(), sleep };

export interface PollOutcome {
  /** The last state seen; undefined only when no poll was made. */
  state: TaskState | undefined;
  polls: number;
  /** The clock's `now()` (`performance.now()`) when the answer that ended the polling arrived. */
  at: number;
  settled: boolean;
}

/** Polls `get` until the task settles, within `bounds`; the caller judges the outcome. */
export async function pollUntilSettled(
  get: () => Promise<TaskState>,
  bounds: PollBounds,
): Promise<PollOutcome> {
  const clock = bounds.clock ?? REAL_CLOCK;
  const deadline = clock.now() + bounds.timeoutMs;
  let state: TaskState | undefined;
  let polls = 0;
  while (polls < bounds.maxPolls && clock.now() < deadline) {
    if (bounds.intervalMs > 0) await clock.sleep(bounds.intervalMs);
    state = await get();
    polls++;
    const at = clock.now();
    if (SETTLED.has(state.status)) return { state, polls, at, settled: true };
  }
  return { state, polls, at: clock.now(), settled: false };
}

/** Nearest-rank percentile (`p` from 0 to 100): always one of the measured values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

/** One 2026-07-28 request declaring the Tasks extension; resolves to its JSON-RPC result. */
async function request(
  url: string,
  method: string,
  name: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...POST_HEADERS,
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: modernMeta(TASKS_CAPABILITIES) },
    }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  const answer = readAnswer(text);
  if (!response.ok || !answer?.result)
    throw new Error(`${method} answered ${response.status}: ${text.slice(0, 300)}`);
  return answer.result;
}

interface TimedTask {
  pollIntervalMs: number;
  sample?: TaskSample;
  /** Set when the task did not complete with a successful result. */
  problem?: string;
}

/** Creates one task and polls it `mode`'s way until it settles. */
async function timeTask(url: string, mode: PollMode): Promise<TimedTask> {
  const sent = performance.now();
  const created = await request(url, 'tools/call', TASK_CALL.name, TASK_CALL);
  const createdAt = performance.now();
  const { taskId, pollIntervalMs } = created;
  // Not a task at all is a broken server (or an SDK without patch 06), not a slow one: stop here.
  if (created.resultType !== 'task' || typeof taskId !== 'string' || typeof pollIntervalMs !== 'number') {
    throw new Error(
      `${TASK_CALL.name} did not answer with a task (resultType "task", taskId, pollIntervalMs): ` +
        JSON.stringify(created).slice(0, 300),
    );
  }
  const outcome = await pollUntilSettled(
    async () => (await request(url, 'tasks/get', taskId, { taskId })) as unknown as TaskState,
    { intervalMs: mode === 'hinted' ? pollIntervalMs : 0, timeoutMs: TASK_TIMEOUT_MS, maxPolls: MAX_POLLS },
  );
  const status = outcome.state?.status ?? 'never polled';
  if (!outcome.settled) {
    return { pollIntervalMs, problem: `${taskId} still ${status} after ${outcome.polls} polls` };
  }
  if (status !== 'completed') return { pollIntervalMs, problem: `${taskId} ended ${status}` };
  if (outcome.state?.result?.isError === true) {
    return { pollIntervalMs, problem: `${taskId} completed with an isError result` };
  }
  return {
    pollIntervalMs,
    sample: { createMs: createdAt - sent, visibleMs: outcome.at - createdAt, polls: outcome.polls },
  };
}

/** The built server as its own process, with a fresh DATA_DIR; resolves once `/health` answers. */
async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  // spawnServer gives it a DATA_DIR of its own under the OS temp folder: SQLite on disk, as shipped.
  const spawned = spawnServer('ours', port, { LOG_LEVEL: 'warn' });
  const stop = async () => {
    await stopChild(spawned.child);
    spawned.cleanup();
  };
  try {
    await waitHealthy(
      `http://127.0.0.1:${port}/health`,
      'the server',
      () => spawned.child.exitCode !== null,
      spawned.stderr,
      { timeoutMs: READY_TIMEOUT_MS },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

export async function measureTasks(tasks: number): Promise<TasksReport> {
  process.stderr.write(
    `tasks: ${TASK_WARM_UP} warm-up, then ${tasks} polled back-to-back and ${tasks} at the suggested interval\n`,
  );
  const server = await startServer();
  try {
    const report: TasksReport = { tasks, pollIntervalMs: Number.NaN, tight: [], hinted: [], incomplete: [] };
    const run = async (mode: PollMode, measured: boolean) => {
      const timed = await timeTask(server.url, mode);
      report.pollIntervalMs = timed.pollIntervalMs;
      if (timed.problem) report.incomplete.push(timed.problem);
      else if (measured && timed.sample) report[mode].push(timed.sample);
    };
    for (let i = 0; i < TASK_WARM_UP; i++) await run('tight', false);
    // Taking turns, so a change in the machine's load during the run falls on both ways alike.
    for (let i = 0; i < tasks; i++) {
      await run('tight', true);
      await run('hinted', true);
    }
    process.stderr.write('  tasks: done\n');
    return report;
  } finally {
    await server.stop();
  }
}
