/**
 * @module tasks/runtime
 * Runs tool calls as MCP Tasks that outlive their request, their process and their replica.
 *
 * The catalogue hands the runtime the work of every tool that can run as a task (`works`, and
 * `setWorks` after a reload), built from its tool list. A call that becomes a task
 * is stored first (`create`: the `RunStore` row is durable before the client hears its id), then
 * queued; whichever process the `TaskQueue` gives it to runs the work. The work records each
 * finished piece with `step(key, fn)`, so a run resumed elsewhere replays what was done and goes
 * on from there. It asks the client for input with `input(key, request)`, which parks the run as
 * `input_required` until `tasks/update` brings the answers. A cancel (from any replica) aborts the
 * work's signal within `CANCEL_CHECK_MS`, and no step is recorded after it.
 *
 * Long work runs in slices of `sliceMs`: at the first step past it the run goes back to the
 * queue and continues from its steps, so a queue that expires jobs it thinks stuck (pg-boss) never
 * takes one that is alive; a slice also ends at the next step when the queue asks it to yield its
 * slot to another owner. The queue shares its slots between owners, and each owner may have at
 * most `maxActivePerOwner` tasks working or waiting for input: one more is refused with
 * {@link TooManyActiveTasksError}, so nobody piles up work faster than it can run.
 * Test: `dev/host-integration/src/task-runtime.test.ts`, over the task store's real SQLite runs
 * (the host may not import the store: ADR 016).
 */

import type { TaskError, TaskQueue, TaskRecord, TaskStorage } from '@mcp-workshop/shared/tasks-port';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.js';

/** What a task's work gets besides its arguments. */
export interface TaskRunContext {
  /** The run's id, which is also the task id on the wire. */
  taskId: string;
  /** Whose task it is (`ownerOf` at creation). */
  owner: string;
  /** What the host stored about the caller at creation (scopes, client id), never a token. */
  caller: Record<string, unknown>;
  /** Aborted when the task is cancelled, the process stops, or the run parks or yields its slice. */
  signal: AbortSignal;
  /**
   * Runs `work` once for the life of the task: its (JSON) value is recorded under `key`, and a run
   * resumed after a crash gets the recorded value back without running `work` again. Keys must be
   * unique within a run, and the same on every attempt (e.g. `section-3`).
   */
  step<T>(key: string, work: () => T | Promise<T>): Promise<T>;
  /**
   * Asks the client: the task goes `input_required` with `request` (an `InputRequest`, e.g.
   * `{ method: 'elicitation/create', params }`) under `key`, and this resolves with the client's
   * answer once `tasks/update` brings it (on whichever attempt that is). Ask several at once with
   * `Promise.all`: they are all open together.
   */
  input(key: string, request: Record<string, unknown>): Promise<unknown>;
  /** Sets the task's `statusMessage` (e.g. "Section 3 of 5"). Best effort: never throws. */
  setStatusMessage(message: string): Promise<void>;
}

/** A tool's work as a task; it resolves with the exact `CallToolResult` the client gets. */
export type TaskWork = (
  args: Record<string, unknown>,
  context: TaskRunContext,
) => Promise<Record<string, unknown>>;

export interface TaskRuntimeOptions {
  runs: TaskStorage;
  queue: TaskQueue;
  logger: Logger;
  /** How long a finished task stays gettable. */
  ttlMs?: number;
  /** The poll interval the server suggests to clients. */
  pollIntervalMs?: number;
  /** A run gives its slot back to the queue after this long (at its next step). */
  sliceMs?: number;
  /** The work of each tool that can run as a task, by tool name (`taskWorksOf` builds it from a catalogue). */
  works?: ReadonlyMap<string, TaskWork>;
  /** Tasks one owner may have `working` or `input_required` at once; defaults to {@link DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER}. */
  maxActivePerOwner?: number;
  /**
   * Where the storage announces that a task changed (its id and owner), from this process or, with
   * a shared database, from any replica; returns how to stop listening. Absent, nobody hears of
   * changes and listen streams get no task status notifications.
   */
  changes?: (listener: (id: string, owner: string) => void) => () => void;
}

export interface NewTask {
  owner: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: Record<string, unknown>;
}

export interface TaskRuntime {
  /**
   * Replaces every tool's work, after a reload: runs started from now on (and runs resumed at
   * their next slice) run the new code; a run whose tool is gone fails at once, saying so.
   */
  setWorks(works: ReadonlyMap<string, TaskWork>): void;
  /** Whether `tool` can run as a task. */
  canRun(tool: string): boolean;
  /**
   * Stores the task and queues it; the run is durable when this resolves. Rejects with a
   * {@link TooManyActiveTasksError}, storing nothing, when the owner already has its most.
   */
  create(task: NewTask): Promise<TaskRecord>;
  get(owner: string, id: string): Promise<TaskRecord | undefined>;
  /** Records answers; a run with no question left is queued again. */
  answer(owner: string, id: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined>;
  cancel(owner: string, id: string): Promise<TaskRecord | undefined>;
  /** Hears of every change to a task, here or on another replica (`TaskRuntimeOptions.changes`). */
  onChange(listener: (id: string, owner: string) => void): () => void;
  /** Starts working: resumes unfinished runs and deletes expired ones now and then. */
  start(): Promise<void>;
  /** Stops working; runs in progress stay `working` and resume on the next start (or another replica). */
  stop(): Promise<void>;
}

/** An hour: long enough to come back to a report after lunch, short enough that rows do not pile up. */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 500;
export const DEFAULT_SLICE_MS = 10_000;
/**
 * Twice the slots one process runs tasks in (`RUN_CONCURRENCY`, 4): a user's few reports at once
 * all fit, and one user's pile is never more than two rounds of one process's work.
 */
export const DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER = 8;
/** How often a running task checks whether someone cancelled it (on any replica). */
export const CANCEL_CHECK_MS = 500;
const EXPIRY_SWEEP_MS = 60_000;
const INTERNAL_ERROR = -32603;

/** An owner asked for one task more than it may have working or waiting for input at once. */
export class TooManyActiveTasksError extends Error {
  constructor(
    /** The owner's cap, for the words the client gets. */
    readonly limit: number,
  ) {
    super(`The owner already has ${limit} active tasks, the most it may have.`);
    this.name = new.target.name;
  }
}

/** Why an attempt stopped early; never reaches the work's caller as a failure. */
class Interrupt extends Error {
  constructor(readonly reason: 'parked' | 'slice' | 'stopped') {
    super(`task run interrupted: ${reason}`);
  }
}

export function createTaskRuntime(options: TaskRuntimeOptions): TaskRuntime {
  const { runs, queue, logger } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const maxActivePerOwner = options.maxActivePerOwner ?? DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER;
  let works: ReadonlyMap<string, TaskWork> = new Map(options.works ?? []);
  /** Runs in progress in this process, to stop a cancelled one at once. */
  const running = new Map<string, AbortController>();
  let sweep: NodeJS.Timeout | undefined;

  async function attempt(
    id: string,
    queueSignal: AbortSignal,
    yieldSignal?: AbortSignal,
  ): Promise<'done' | 'continue'> {
    const run = await runs.load(id);
    if (run?.status !== 'working') return 'done';
    const work = works.get(run.tool);
    if (!work) {
      await finish(id, { code: INTERNAL_ERROR, message: `The tool ${run.tool} is no longer served.` });
      return 'done';
    }
    const controller = new AbortController();
    const stopOnQueue = () => controller.abort(new Interrupt('stopped'));
    queueSignal.addEventListener('abort', stopOnQueue, { once: true });
    running.set(id, controller);
    const watch = watchForCancel(id, controller);
    try {
      const sliceEnds = Date.now() + sliceMs;
      // The slice ends early, at the next step, when the queue wants the slot for another owner.
      const sliceOver = () => Date.now() > sliceEnds || yieldSignal?.aborted === true;
      const result = await runWork(run, work, controller, sliceOver);
      if (result === 'continue' || result === 'done') return result;
      await runs.update(id, { status: 'completed', statusMessage: null, result });
      return 'done';
    } catch (error) {
      const reason = error instanceof Interrupt ? error.reason : controller.signal.reason?.reason;
      if (reason === 'slice') return 'continue';
      if (reason === 'parked' || reason === 'stopped' || controller.signal.aborted) return 'done';
      await finish(id, toRunError(error, id));
      return 'done';
    } finally {
      clearInterval(watch);
      running.delete(id);
      queueSignal.removeEventListener('abort', stopOnQueue);
    }
  }

  /** Runs the work with its context; 'continue'/'done' when it stopped early without a result. */
  async function runWork(
    run: TaskRecord,
    work: TaskWork,
    controller: AbortController,
    sliceOver: () => boolean,
  ): Promise<Record<string, unknown> | 'continue' | 'done'> {
    const recorded = new Map((await runs.steps(run.id)).map((step) => [step.key, step.value]));
    const open = new Map<string, Record<string, unknown>>();
    let parking: Promise<void> | undefined;
    // While a resumed run replays its recorded steps, status messages wait: a report resumed at
    // section 4 must not show "Section 1" again. The last one is written when new work starts.
    let replaying = recorded.size > 0;
    let heldMessage: string | undefined;
    const writeMessage = async (message: string) => {
      try {
        if (!controller.signal.aborted)
          await runs.update(run.id, { status: 'working', statusMessage: message });
      } catch (error) {
        logger.warn({ err: error, taskId: run.id }, 'could not set a task status message');
      }
    };
    const interrupted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    interrupted.catch(() => {});

    const park = () => {
      // One turn of the event loop lets every question asked together (Promise.all) join the round.
      parking ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        if (controller.signal.aborted) return;
        const stored = await runs.update(run.id, {
          status: 'input_required',
          inputRequests: Object.fromEntries(open),
        });
        controller.abort(new Interrupt(stored ? 'parked' : 'stopped'));
      });
    };

    const context: TaskRunContext = {
      taskId: run.id,
      owner: run.owner,
      caller: run.caller,
      signal: controller.signal,
      async step<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
        if (recorded.has(key)) return recorded.get(key) as T;
        if (replaying) {
          replaying = false;
          if (heldMessage !== undefined) await writeMessage(heldMessage);
        }
        if (controller.signal.aborted) throw controller.signal.reason;
        if (sliceOver()) {
          controller.abort(new Interrupt('slice'));
          throw controller.signal.reason;
        }
        const value = await Promise.race([fn(), interrupted]);
        // Stored as JSON, and handed back the way a resumed run will see it.
        const json = value === undefined ? null : JSON.parse(JSON.stringify(value));
        if (!(await runs.saveStep(run.id, key, json))) {
          controller.abort(new Interrupt('stopped'));
          throw controller.signal.reason;
        }
        recorded.set(key, json);
        return json as T;
      },
      input(key, request) {
        const answer = recorded.get(`input:${key}`);
        if (answer !== undefined) return Promise.resolve(answer);
        open.set(key, request);
        park();
        return interrupted;
      },
      async setStatusMessage(message) {
        if (replaying) heldMessage = message;
        else await writeMessage(message);
      },
    };
    const result = await Promise.race([work(run.arguments, context), interrupted]);
    await parking;
    if (controller.signal.aborted) throw controller.signal.reason;
    return result;
  }

  /** Polls the run's status while it works, so a cancel on another replica stops it here too. */
  function watchForCancel(id: string, controller: AbortController): NodeJS.Timeout {
    const timer = setInterval(() => {
      runs.load(id).then(
        (run) => {
          if (run?.status !== 'working' && !controller.signal.aborted) {
            controller.abort(new Interrupt('stopped'));
          }
        },
        (error) => logger.warn({ err: error, taskId: id }, 'could not check a task for cancellation'),
      );
    }, CANCEL_CHECK_MS);
    timer.unref();
    return timer;
  }

  async function finish(id: string, error: TaskError): Promise<void> {
    await runs.update(id, { status: 'failed', statusMessage: null, error });
  }

  function toRunError(error: unknown, taskId: string): TaskError {
    if (error instanceof ProtocolError) {
      return {
        code: error.code,
        message: error.message,
        ...(error.data !== undefined && { data: error.data }),
      };
    }
    // A bug in the work: logged with the id, and the client gets no stack.
    logger.error({ err: error, taskId }, 'a task failed with an unexpected error');
    return { code: INTERNAL_ERROR, message: 'The task failed with an internal error.' };
  }

  return {
    setWorks(next) {
      works = new Map(next);
    },
    canRun: (tool) => works.has(tool),
    async create(task) {
      const run = await runs.createWithin({ ...task, ttlMs, pollIntervalMs }, maxActivePerOwner);
      if (!run) throw new TooManyActiveTasksError(maxActivePerOwner);
      await queue.enqueue(run.id, run.owner);
      return run;
    },
    get: (owner, id) => runs.get(owner, id),
    async answer(owner, id, responses) {
      const before = await runs.get(owner, id);
      const run = await runs.answer(owner, id, responses);
      if (before?.status === 'input_required' && run?.status === 'working') await queue.enqueue(id, owner);
      return run;
    },
    async cancel(owner, id) {
      const run = await runs.cancel(owner, id);
      if (run?.status === 'cancelled') running.get(id)?.abort(new Interrupt('stopped'));
      return run;
    },
    onChange: (listener) => options.changes?.(listener) ?? (() => {}),
    async start() {
      await queue.start(attempt);
      const removeExpired = () =>
        runs.deleteExpired().catch((error) => logger.warn({ err: error }, 'could not delete expired tasks'));
      void removeExpired();
      sweep = setInterval(removeExpired, EXPIRY_SWEEP_MS);
      sweep.unref();
    },
    async stop() {
      clearInterval(sweep);
      await queue.stop();
    },
  };
}
