/**
 * @module tools/todo-pages
 * The cursor `list_tasks` and `tasks://all` page the task list with. A cursor names the last task
 * id of the page before (the store pages by id, so tasks added or deleted between pages neither
 * repeat nor go missing) and a tag of the owner it was handed to. It is opaque to clients, checked
 * strictly, and works only for its owner: anybody else's cursor, a changed one and garbage get the
 * same refusal, so a cursor says nothing through this server about whose it was.
 * Test: `todo-pages.test.ts`.
 */
import { createHash } from 'node:crypto';
import type { Todo, TodoStatusFilter, TodoStore } from '@mcp-workshop/task-store';

/** A page a model reads in one go and a slow client holds in memory cheaply: about 60 KB of answer. */
export const DEFAULT_TODO_PAGE_SIZE = 100;

/** The most one page may hold, whatever the caller asks: about 300 KB of answer. */
export const MAX_TODO_PAGE_SIZE = 500;

/** base64url of a SHA-256 prefix: enough bits that no two owners' tags meet by chance. */
const TAG_LENGTH = 22;
/** A cursor is short; anything much longer is not one of ours and is not worth decoding. */
const MAX_CURSOR_LENGTH = 64;

/** Thrown for a cursor this server did not hand to this caller; each surface answers it in its own way. */
export class InvalidTodoCursorError extends Error {
  constructor(readonly cursor: string) {
    super('Invalid task cursor.');
    this.name = new.target.name;
  }
}

function ownerTag(owner: string): string {
  return createHash('sha256').update(`tasks-cursor\u0000${owner}`).digest('base64url').slice(0, TAG_LENGTH);
}

export function encodeTodoCursor(owner: string, afterId: number): string {
  return Buffer.from(`t1.${afterId}.${ownerTag(owner)}`).toString('base64url');
}

/**
 * The id a page starts after, or an {@link InvalidTodoCursorError}. The cursor must be exactly the
 * one this owner was handed for that id, byte for byte, so no other spelling of it gets through.
 */
export function decodeTodoCursor(owner: string, cursor: string): number {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new InvalidTodoCursorError(cursor);
  }
  const match = /^t1\.([1-9][0-9]{0,15})\./.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const afterId = Number(match?.[1]);
  if (!Number.isSafeInteger(afterId) || encodeTodoCursor(owner, afterId) !== cursor) {
    throw new InvalidTodoCursorError(cursor);
  }
  return afterId;
}

export interface TodoListPage {
  items: Todo[];
  /** Present while more tasks follow under the same filter. */
  nextCursor?: string;
}

/** One page of `owner`'s tasks from `cursor` (the first page without one). */
export async function readTodoPage(
  todos: TodoStore,
  owner: string,
  status: TodoStatusFilter,
  cursor: string | undefined,
  limit: number,
): Promise<TodoListPage> {
  const after = cursor === undefined ? 0 : decodeTodoCursor(owner, cursor);
  const page = await todos.listPage(owner, status, { after, limit });
  const last = page.items.at(-1);
  return page.more && last
    ? { items: page.items, nextCursor: encodeTodoCursor(owner, last.id) }
    : { items: page.items };
}
