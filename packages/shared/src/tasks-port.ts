/**
 * @module tasks-port
 * `@mcp-workshop/shared/tasks-port`: the port between the host's MCP Tasks runtime
 * (`@mcp-workshop/mcp-host/tasks`) and the storage and queue that keep them
 * (`@mcp-workshop/task-store`'s runs). An MCP Task (SEP-2663, the `io.modelcontextprotocol/tasks`
 * extension) is a long tool call that outlives its request, its process and its replica. The host
 * and the store may not import each other (ADR 016), so both import these types from here: the
 * store implements them (`RunStore`, the run queues), the host uses them, and the catalogue hands
 * the one to the other, where the compiler checks that they fit. Types only: nothing here runs.
 *
 * A task is a record (who asked, which tool, its arguments, its status and final result) plus its
 * finished steps: a tool that runs as a task records each step's output under a key, and a task
 * resumed after a crash replays the recorded steps instead of doing them again.
 */

/** SEP-2663's statuses. `working ↔ input_required`; the other three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error a task failed with (status `failed` only). */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** A stored task: who asked, which tool with what, where it is, and how it ended. */
export interface TaskRecord {
  /** Unguessable and bearer-grade: 128 random bits, base64url. Chosen by the storage on create. */
  id: string;
  /** The signed-in owner (`ownerOf`), as the task list uses it. Another owner's task is "no such task". */
  owner: string;
  /** The tool this task calls. */
  tool: string;
  /** The tool call's arguments, as the client sent them (JSON). */
  arguments: Record<string, unknown>;
  /**
   * What the host needs to run the tool again after a restart with the caller's rights: e.g. the
   * token's scopes and client id (never the token itself). Opaque JSON to the storage.
   */
  caller: Record<string, unknown>;
  status: TaskStatus;
  statusMessage: string | null;
  /** ISO 8601 (`Date#toISOString()`). */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long after `createdAt` the task may be forgotten; gettable until then. */
  ttlMs: number;
  /** The poll interval the server suggests. */
  pollIntervalMs: number;
  /** The exact `CallToolResult` when `completed` (JSON), else null. */
  result: Record<string, unknown> | null;
  /** When `failed`, else null. */
  error: TaskError | null;
  /**
   * The questions the task waits on while `input_required`, keyed by the ids the server minted
   * (each an `InputRequest`: `{ method, params }`), else null. Answered keys are removed.
   */
  inputRequests: Record<string, unknown> | null;
}

/** What `create` stores; the storage chooses the id and the times, and the task starts `working`. */
export interface NewTaskRecord {
  owner: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: Record<string, unknown>;
  ttlMs: number;
  pollIntervalMs: number;
  statusMessage?: string;
}

/** A status change; `result` goes with `completed`, `error` with `failed`. */
export interface TaskRecordUpdate {
  status: TaskStatus;
  statusMessage?: string | null;
  result?: Record<string, unknown>;
  error?: TaskError;
  /** With `input_required`: the open questions. Any other status clears them. */
  inputRequests?: Record<string, unknown>;
}

/** A finished step of a task: its key, and the JSON value it recorded. */
export interface TaskStep {
  key: string;
  value: unknown;
}

/**
 * Tasks and their recorded steps. Every method is async. A task of another owner, or past its
 * `ttlMs`, answers exactly like a task that does not exist (`undefined`), so an id tells nobody
 * anything about anyone else's tasks; terminal statuses never change.
 */
export interface TaskStorage {
  /** Stores a new task, `working`; durable once the promise resolves. */
  create(task: NewTaskRecord): Promise<TaskRecord>;
  /**
   * Stores a new task as `create` does, unless its owner already has `maxActive` live tasks that
   * are `working` or `input_required`: then it stores nothing and returns undefined. Atomic per
   * owner, across replicas too, so racing calls never leave an owner above `maxActive`.
   */
  createWithin(task: NewTaskRecord, maxActive: number): Promise<TaskRecord | undefined>;
  /** The task, or undefined when `owner` has no such live task. */
  get(owner: string, id: string): Promise<TaskRecord | undefined>;
  /** The task by id alone, for the worker that runs it; undefined when gone or expired. */
  load(id: string): Promise<TaskRecord | undefined>;
  /**
   * Changes a task's status. Terminal statuses never change: returns undefined (and writes nothing)
   * when the task is already terminal, gone or expired. `lastUpdatedAt` moves.
   */
  update(id: string, update: TaskRecordUpdate): Promise<TaskRecord | undefined>;
  /** Cancels `owner`'s task when it is not terminal yet; returns the task as it now is, undefined when none. */
  cancel(owner: string, id: string): Promise<TaskRecord | undefined>;
  /**
   * Answers open questions of `owner`'s `input_required` task, in one transaction: each response
   * whose key is open is recorded as the step `input:<key>` and its key leaves `inputRequests`;
   * unknown or already answered keys are ignored. When no question is left the task is `working`
   * again (the caller queues it). Returns the task as it now is; undefined when `owner` has no such
   * live task. A task in any other status is returned unchanged.
   */
  answer(owner: string, id: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined>;
  /** The steps finished so far, in the order they were recorded. */
  steps(id: string): Promise<TaskStep[]>;
  /**
   * Records a finished step. Returns false, and records nothing, when the task is no longer
   * `working` (cancelled, or finished by another worker): the caller stops. A key already recorded
   * keeps its first value (two workers racing on one step both computed the same thing).
   */
  saveStep(id: string, key: string, value: unknown): Promise<boolean>;
  /** Deletes tasks past their `ttlMs`, with their steps; returns how many. */
  deleteExpired(): Promise<number>;
}

/**
 * Who runs tasks: in-process, or a job queue shared by replicas. `enqueue` asks for a task of
 * `owner` to be worked on (now, or after a restart or a replica's death); `start` registers the one
 * handler that does the work. Each owner waits in a line of its own and free slots go round the
 * owners: one owner's many tasks never starve another's, and no owner is given more than half the
 * slots while another waits. When an owner holds more than half and another owner waits, the queue
 * asks that owner's oldest turn to yield (`yieldSignal`): it ends at its next step and its task
 * rejoins its owner's line. The handler's `signal` aborts when this process stops or gives the task
 * up; when it returns `'continue'` the task is queued again (a long task works in slices, so a queue
 * that expires stuck jobs never takes a live one).
 *
 * - Once the queue aborted a turn, the task gets another turn whatever the handler returns or throws
 *   (with a shared queue, at once and on any replica); a task that did finish ends that turn by
 *   finding itself terminal.
 * - `enqueue` before `start`, or after `stop`, does nothing: the task is stored, and `start` picks up
 *   every unfinished task that has no turn coming.
 * - A handler that throws (its signal not aborted) is retried a few times, then the queue marks the
 *   task `failed`.
 * - One turn per task at a time, with one exception on a shared queue: `enqueue` while the task's
 *   turn is running elsewhere may start a second one. The storage keeps that harmless (first step
 *   value wins, terminal is final).
 */
export interface TaskQueue {
  enqueue(id: string, owner: string): Promise<void>;
  start(
    handler: (id: string, signal: AbortSignal, yieldSignal: AbortSignal) => Promise<'done' | 'continue'>,
  ): Promise<void>;
  stop(): Promise<void>;
}
