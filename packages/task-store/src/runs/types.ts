/**
 * @module runs/types
 * Storage for MCP Tasks (the `io.modelcontextprotocol/tasks` extension): a long tool call that
 * outlives its request, its process and its replica. They are called "runs" here because this
 * package's `Task` is a to-do item of the task list; the host speaks of MCP tasks on the wire.
 *
 * A run is a row (who asked, which tool, its arguments, its status and final result) plus its
 * finished steps: a tool that runs as a task records each step's output under a key, and a run
 * resumed after a crash replays the recorded steps instead of doing them again. Rows and steps live
 * in the same database as the task list (SQLite under `DATA_DIR`, or Postgres), with migrations.
 *
 * Who runs a run is the queue's business (`RunQueue`): in-process for SQLite (one process owns the
 * file), pg-boss for Postgres, so a run whose replica dies is picked up by another.
 */

/** The statuses of SEP-2663. `working ↔ input_required`; the other three are terminal. */
export type RunStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

/** A JSON-RPC error a run failed with (status `failed` only). */
export interface RunError {
  code: number;
  message: string;
  data?: unknown;
}

export interface Run {
  /** Unguessable and bearer-grade: 128 random bits, base64url. Chosen by the store on create. */
  id: string;
  /** The signed-in owner (`ownerOf`), as the task list uses it. Another owner's run is "no such run". */
  owner: string;
  /** The tool this run calls. */
  tool: string;
  /** The tool call's arguments, as the client sent them (JSON). */
  arguments: Record<string, unknown>;
  /**
   * What the host needs to run the tool again after a restart with the caller's rights: e.g. the
   * token's scopes and client id (never the token itself). Opaque JSON to the store.
   */
  caller: Record<string, unknown>;
  status: RunStatus;
  statusMessage: string | null;
  /** ISO 8601 (`Date#toISOString()`). */
  createdAt: string;
  lastUpdatedAt: string;
  /** How long after `createdAt` the run may be forgotten; gettable until then. */
  ttlMs: number;
  /** The poll interval the server suggests. */
  pollIntervalMs: number;
  /** The exact `CallToolResult` when `completed` (JSON), else null. */
  result: Record<string, unknown> | null;
  /** When `failed`, else null. */
  error: RunError | null;
  /**
   * The questions the run waits on while `input_required`, keyed by the ids the server minted
   * (each an `InputRequest`: `{ method, params }`), else null. Answered keys are removed.
   */
  inputRequests: Record<string, unknown> | null;
}

export interface NewRun {
  owner: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: Record<string, unknown>;
  ttlMs: number;
  pollIntervalMs: number;
  statusMessage?: string;
}

/** A status change; `result` goes with `completed`, `error` with `failed`. */
export interface RunUpdate {
  status: RunStatus;
  statusMessage?: string | null;
  result?: Record<string, unknown>;
  error?: RunError;
  /** With `input_required`: the open questions. Any other status clears them. */
  inputRequests?: Record<string, unknown>;
}

export interface RunStep {
  key: string;
  value: unknown;
}

/**
 * Every method is async. A run of another owner, or past its `ttlMs`, answers exactly like a run
 * that does not exist (`undefined`), so an id tells nobody anything about anyone else's runs.
 */
export interface RunStore {
  /** Stores a new run, `working`; durable once the promise resolves. */
  create(run: NewRun): Promise<Run>;
  /**
   * Stores a new run as `create` does, unless its owner already has `maxActive` live runs that are
   * `working` or `input_required`: then it stores nothing and returns undefined. Atomic per owner,
   * across replicas too, so racing calls never leave an owner above `maxActive`.
   */
  createWithin(run: NewRun, maxActive: number): Promise<Run | undefined>;
  /** The run, or undefined when `owner` has no such live run. */
  get(owner: string, id: string): Promise<Run | undefined>;
  /** The run by id alone, for the worker that runs it; undefined when gone or expired. */
  load(id: string): Promise<Run | undefined>;
  /**
   * Changes a run's status. Terminal statuses never change: returns undefined (and writes nothing)
   * when the run is already terminal, gone or expired. `lastUpdatedAt` moves.
   */
  update(id: string, update: RunUpdate): Promise<Run | undefined>;
  /** Cancels `owner`'s run when it is not terminal yet; returns the run as it now is, undefined when none. */
  cancel(owner: string, id: string): Promise<Run | undefined>;
  /**
   * Answers open questions of `owner`'s `input_required` run, in one transaction: each response
   * whose key is open is recorded as the step `input:<key>` and its key leaves `inputRequests`;
   * unknown or already answered keys are ignored. When no question is left the run is `working`
   * again (the caller queues it). Returns the run as it now is; undefined when `owner` has no such
   * live run. A run in any other status is returned unchanged.
   */
  answer(owner: string, id: string, responses: Record<string, unknown>): Promise<Run | undefined>;
  /** The steps finished so far, in the order they were recorded. */
  steps(id: string): Promise<RunStep[]>;
  /**
   * Records a finished step. Returns false, and records nothing, when the run is no longer
   * `working` (cancelled, or finished by another worker): the caller stops. A key already recorded
   * keeps its first value (two workers racing on one step both computed the same thing).
   */
  saveStep(id: string, key: string, value: unknown): Promise<boolean>;
  /** Runs still `working` or `input_required`, oldest first, for the queue to resume after a restart. */
  unfinished(): Promise<Array<{ id: string; owner: string }>>;
  /** Deletes runs past their `ttlMs`, with their steps; returns how many. */
  deleteExpired(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Who runs runs. `enqueue` asks for a run of `owner` to be worked on (now, or after a restart or a
 * replica's death); `start` registers the one handler that does the work. Each owner waits in a
 * line of its own and free slots go round the owners (`fair-share.ts`): one owner's many runs never
 * starve another's, and no owner is given more than half the slots while another waits. When an
 * owner holds more than half and another owner waits, the queue asks that owner's oldest turn to
 * yield (`yieldSignal`): it ends at its next step and its run rejoins its owner's line. The handler gets a signal that
 * aborts when this process stops or gives the run up; when it returns `'continue'` the run is
 * queued again (a long run works in slices, so a queue that expires stuck jobs never takes a live one).
 *
 * - The signal's `reason` is a `RunHandOffError` (`why`: `stopping` or `slice-over`). Once the queue
 *   aborted a turn, the run gets another turn whatever the handler returns or throws (with pg-boss,
 *   at once and on any replica); a run that did finish ends that turn by finding itself terminal.
 * - `enqueue` before `start`, or after `stop`, does nothing: the run is stored, and `start` picks up
 *   every unfinished run that has no turn coming (in-process: all of them; pg-boss: those without a job).
 * - A handler that throws (its signal not aborted) is retried `RUN_RETRY_LIMIT` times, then the queue
 *   marks the run `failed` with `GAVE_UP_ERROR`.
 * - One turn per run at a time, with one exception on pg-boss: `enqueue` while the run's turn is
 *   running elsewhere may start a second one. The store keeps that harmless (first step value wins,
 *   terminal is final).
 */
export interface RunQueue {
  enqueue(id: string, owner: string): Promise<void>;
  start(
    handler: (id: string, signal: AbortSignal, yieldSignal: AbortSignal) => Promise<'done' | 'continue'>,
  ): Promise<void>;
  stop(): Promise<void>;
}
