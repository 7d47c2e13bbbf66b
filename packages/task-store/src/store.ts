/**
 * @module store
 * What the task tools need from storage. Two adapters implement it with the same behaviour:
 * `sqlite-store.ts` over a SQLite file under `DATA_DIR` (the default), and `postgres-store.ts`
 * over Postgres when `DATABASE_URL` is set. `test-support/todo-store-contract.ts` holds both to one suite.
 *
 * Every task has an owner (`auth/caller.ts` `ownerOf`: the signed-in subject, or `''` when sign-in
 * is off), and every method takes it: a task of another owner answers exactly like a task that does
 * not exist, so nobody can learn that someone else's task is there. For the same reason ids are
 * numbered per owner (1, 2, 3… for each), so an id tells nothing of how many tasks anybody else
 * writes, or when; two owners' tasks may share an id, and only the owner tells them apart. An
 * owner never gets an id again once it was handed out, even after deleting every task, so an old
 * id a model remembers can never hit a newer task. Tasks stored while ids were one sequence for
 * everybody keep their ids, and every owner's new ids start above them (the adapters' migrations).
 */
import { ToolError } from '@mcp-workshop/shared';

export interface Todo {
  id: number;
  title: string;
  done: boolean;
  /** ISO 8601 timestamps, always `Date#toISOString()` shape: `2026-07-28T12:00:00.000Z`. */
  createdAt: string;
  completedAt: string | null;
}

export type TodoStatusFilter = 'all' | 'open' | 'done';

/**
 * Every method is async: a networked database answers later, and the embedded one answers at
 * once. A failure the model can act on (title too long, list full, database unreachable)
 * rejects with a `ToolError`.
 */
export interface TodoStore {
  /** Adds a task to `owner`'s list; refused once that list holds {@link MAX_TODOS}. */
  add(owner: string, title: string): Promise<Todo>;
  /** `owner`'s tasks, oldest first (by id). */
  list(owner: string, status: TodoStatusFilter): Promise<Todo[]>;
  /**
   * One page of `owner`'s tasks, oldest first: those with an id above `page.after`, at most
   * `page.limit` of them. Keyed by id, not by position, so a task added or deleted between two
   * pages neither repeats nor skips one (a new task's id is above every id handed out before).
   */
  listPage(owner: string, status: TodoStatusFilter, page: TodoPageRequest): Promise<TodoPage>;
  /** The task, or undefined when there is no such task of `owner`'s. */
  get(owner: string, id: number): Promise<Todo | undefined>;
  /** Marks a task done, keeping the first completion time; undefined when `owner` has no such task. */
  complete(owner: string, id: number): Promise<Todo | undefined>;
  /** Deletes a task; returns the deleted task, or undefined when `owner` has no such task. */
  delete(owner: string, id: number): Promise<Todo | undefined>;
  close(): Promise<void>;
}

/** Where a page starts (after this id; 0 for the first page) and how many tasks it holds at most. */
export interface TodoPageRequest {
  after: number;
  limit: number;
}

/** A page of tasks, and whether the owner has more under the same filter after its last one. */
export interface TodoPage {
  items: Todo[];
  more: boolean;
}

/**
 * Refuses a page no caller could ask for (the tools validate their cursor and size first): a bug,
 * so a plain `Error`. Both adapters call it first.
 */
export function checkPageRequest({ after, limit }: TodoPageRequest): void {
  if (
    !Number.isSafeInteger(after) ||
    after < 0 ||
    !Number.isSafeInteger(limit) ||
    limit < 1 ||
    limit > MAX_TODOS
  ) {
    throw new Error(`A task page starts after an id >= 0 and holds 1 to ${MAX_TODOS} tasks.`);
  }
}

/** The page from the rows of a query that asked for one more than `limit`: the extra one says there are more. */
export function pageOf(tasks: Todo[], limit: number): TodoPage {
  return tasks.length > limit ? { items: tasks.slice(0, limit), more: true } : { items: tasks, more: false };
}

/**
 * Keeps each owner's list, and a full `list_tasks` answer, a size a model and a laptop can handle.
 * Per owner, so one user filling their list cannot stop anybody else from adding.
 */
export const MAX_TODOS = 10_000;

/**
 * The longest owner a task can have: both schemas bound their column with it. The host's `ownerOf`
 * cuts every owner to its own limit of the same length, which the catalogue's tests hold equal.
 */
export const MAX_OWNER_LENGTH = 512;

/**
 * The owner of every task when sign-in is off (stdio, or HTTP without an issuer): one shared list,
 * the owner the host's `ownerOf` gives a request that carries no token.
 */
export const SHARED_OWNER = '';

/**
 * Refuses an owner no caller could have (`ownerOf` never makes one): a bug, so a plain `Error`, not a
 * message for the model. Both adapters call it first, and both schemas bound the column the same way.
 */
export function checkOwner(owner: string): void {
  if (typeof owner !== 'string' || owner.length > MAX_OWNER_LENGTH || owner.includes('\u0000')) {
    throw new Error(`A task owner must be a string of at most ${MAX_OWNER_LENGTH} characters without NUL.`);
  }
}

/** A task title is a one-line label, not a document; both schemas' CHECKs use the same number. */
export const MAX_TITLE_LENGTH = 200;

/** The same words from both adapters, so the model sees no difference. */
export function titleLengthError(): ToolError {
  return new ToolError(`A task title must be 1 to ${MAX_TITLE_LENGTH} characters long.`);
}

/**
 * Throws the error a model can act on when a title can't be stored. Both adapters call it first:
 * Postgres can't store a NUL in text at all, SQLite could, and the two must not differ.
 */
export function checkTitle(title: string): void {
  if (title.length < 1 || title.length > MAX_TITLE_LENGTH) throw titleLengthError();
  if (title.includes('\u0000')) throw new ToolError('A task title cannot contain a NUL character.');
}

export function listFullError(maxTodos: number): ToolError {
  return new ToolError(
    `The task list is full: it holds at most ${maxTodos.toLocaleString('en-US')} tasks. ` +
      'Delete finished tasks with delete_task, then add this one again.',
  );
}

/** Ids are positive safe integers; anything else cannot name a task, so it is not worth a query. */
export function isTodoId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0;
}

/**
 * The task database cannot be reached (Postgres down, restarting, or the network between). A
 * `ToolError`, so the model gets this message and can retry, while tools that need no tasks
 * keep working.
 */
export class TodoStoreUnavailableError extends ToolError {
  constructor(options?: ErrorOptions) {
    super('The task database is unreachable right now; try again in a moment.', options);
  }
}

/**
 * The connection broke after an add was sent: Postgres may have committed it or not, and nobody can
 * tell from here. Saying "try again" would invite a duplicate, so the model is told to look first.
 */
export class TodoAddUncertainError extends ToolError {
  constructor(options?: ErrorOptions) {
    super(
      'The task database stopped answering while the task was being added, so it may or may not have ' +
        'been added. Call list_tasks to check before adding it again.',
      options,
    );
  }
}
