/**
 * @module tasks/storage
 * What the task runtime needs from storage, in the host's own words: a port, not an import. The
 * host stays free of any database (ADR 016); `@mcp-workshop/task-store`'s runs (`RunStore`,
 * `RunQueue`) have this shape, and the catalogue hands them over (its `deps.ts`), where the
 * compiler checks that they fit.
 */

/** SEP-2663's statuses. `working ↔ input_required`; the other three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** A stored task: who asked, which tool with what, where it is, and how it ended. */
export interface TaskRecord {
  id: string;
  owner: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: Record<string, unknown>;
  status: TaskStatus;
  statusMessage: string | null;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result: Record<string, unknown> | null;
  error: TaskError | null;
  inputRequests: Record<string, unknown> | null;
}

export interface TaskRecordUpdate {
  status: TaskStatus;
  statusMessage?: string | null;
  result?: Record<string, unknown>;
  error?: TaskError;
  inputRequests?: Record<string, unknown>;
}

/**
 * Tasks and their recorded steps. Another owner's task, or one past its `ttlMs`, is `undefined`
 * exactly like one that never was; terminal statuses never change.
 */
export interface TaskStorage {
  create(task: {
    owner: string;
    tool: string;
    arguments: Record<string, unknown>;
    caller: Record<string, unknown>;
    ttlMs: number;
    pollIntervalMs: number;
  }): Promise<TaskRecord>;
  /**
   * Stores a task as `create` does, unless its owner already has `maxActive` tasks `working` or
   * `input_required`: then nothing is stored, and the answer is undefined. Atomic per owner.
   */
  createWithin(
    task: Parameters<TaskStorage['create']>[0],
    maxActive: number,
  ): Promise<TaskRecord | undefined>;
  get(owner: string, id: string): Promise<TaskRecord | undefined>;
  /** By id alone, for the worker. */
  load(id: string): Promise<TaskRecord | undefined>;
  update(id: string, update: TaskRecordUpdate): Promise<TaskRecord | undefined>;
  cancel(owner: string, id: string): Promise<TaskRecord | undefined>;
  /** Records answers to open questions (as steps `input:<key>`); working again when none is left. */
  answer(owner: string, id: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined>;
  steps(id: string): Promise<Array<{ key: string; value: unknown }>>;
  /** False, recording nothing, once the task is no longer `working`. */
  saveStep(id: string, key: string, value: unknown): Promise<boolean>;
  deleteExpired(): Promise<number>;
}

/**
 * Who runs tasks: in-process, or a job queue shared by replicas. `'continue'` queues the task
 * again (a long task works in slices); the signal aborts when this process stops or gives it up.
 * The queue shares its slots fairly between owners, so `enqueue` is told whose task it is.
 */
export interface TaskQueue {
  enqueue(id: string, owner: string): Promise<void>;
  /** `yieldSignal` asks the task to end its turn at its next step, so another owner gets the slot. */
  start(
    handler: (id: string, signal: AbortSignal, yieldSignal: AbortSignal) => Promise<'done' | 'continue'>,
  ): Promise<void>;
  stop(): Promise<void>;
}
