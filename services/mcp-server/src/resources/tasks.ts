/**
 * @module resources/tasks
 * `tasks://all` (the caller's tasks, a page at a time: `tasks://all?cursor=…` reads the page after,
 * with the cursor of `tools/todo-pages.ts`) and the `tasks://{id}` template (one task), read live
 * from the task store. The template's list callback puts the caller's tasks into `resources/list`,
 * and its completion offers their ids. The store caps each owner's list at `MAX_TODOS`, which
 * bounds both. Every callback reads only the caller's tasks (`ownerOf`): another user's task is
 * "no such task". And every one checks `tasks:read` on the request's own token, as well as the
 * HTTP layer does, so a route that forgets that check still cannot leak: a read is refused with a
 * JSON-RPC error naming the scope, `resources/list` (which itself needs no scope) and completions
 * simply show no tasks. Test: `tasks.test.ts`.
 */

import { callerHasScopes, ownerOf } from '@mcp-workshop/mcp-host/caller';
import { completionCaller } from '@mcp-workshop/mcp-host/kit';
import type { Todo } from '@mcp-workshop/task-store';
import {
  type AuthInfo,
  type CacheHint,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolDeps } from '../deps.js';
import { TASKS_READ } from '../deps.js';
import { DEFAULT_TODO_PAGE_SIZE, InvalidTodoCursorError, readTodoPage } from '../tools/todo-pages.js';
import { JSON_MIME, jsonContents } from './contents.js';

export const ALL_TODOS_URI = 'tasks://all';
export const TODO_URI_TEMPLATE = 'tasks://{id}';
/** The pages after the first; registered before `tasks://{id}`, whose `{id}` would match `all?cursor=…` too. */
export const TODO_PAGE_URI_TEMPLATE = 'tasks://all{?cursor}';

/** The largest id a URI may name; SQLite would take more, but no list ever gets near it. */
export const MAX_TODO_ID = 2 ** 31;

/** Completion answers are capped at 100 values by the spec. */
const MAX_COMPLETIONS = 100;

/** Any tool call may change tasks, so a cache may add a few seconds of staleness and no more. */
export const TODO_CACHE_HINT: CacheHint = { ttlMs: 5_000, cacheScope: 'private' };

export function todoUri(id: number): string {
  return `tasks://${id}`;
}

/**
 * The id in a `tasks://{id}` URI, or undefined unless it is a plain positive decimal integer up to
 * `MAX_TODO_ID`: no sign, no leading zero, no exponent, no percent-encoding.
 */
export function parseTodoId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= MAX_TODO_ID ? id : undefined;
}

function describeTask(task: Todo): string {
  return task.done ? `Done since ${task.completedAt}.` : `Open since ${task.createdAt}.`;
}

/**
 * Whether a request may see tasks. No token means sign-in is off (stdio, or HTTP without
 * `MCP_AUTH_ISSUER`): with it on, the guard lets no request through without one.
 */
export function maySeeTodos(authInfo: AuthInfo | undefined): boolean {
  return callerHasScopes(authInfo, [TASKS_READ]);
}

/**
 * The owner whose tasks a `resources/read` may show, or a JSON-RPC error naming the missing scope:
 * never the task, nor whether it exists.
 */
export function todoReader(uri: string, ctx: ServerContext): string {
  const authInfo = ctx.http?.authInfo;
  if (!maySeeTodos(authInfo)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Reading ${uri} needs the OAuth scope ${TASKS_READ}, which this sign-in did not grant. Sign in again and grant ${TASKS_READ}.`,
    );
  }
  return ownerOf(authInfo);
}

/**
 * The owner whose task ids a completion may offer, or undefined when it may offer none: the caller
 * lacks `tasks:read`, or the request's caller is unknown (see `server/request-caller.ts`).
 */
export function taskCompletionOwner(): string | undefined {
  const caller = completionCaller();
  return caller && maySeeTodos(caller.authInfo) ? ownerOf(caller.authInfo) : undefined;
}

function buildTodoTemplate(deps: ToolDeps): ResourceTemplate {
  return new ResourceTemplate(TODO_URI_TEMPLATE, {
    list: async (ctx) => ({
      resources: !maySeeTodos(ctx.http?.authInfo)
        ? []
        : (await deps.todos.list(ownerOf(ctx.http?.authInfo), 'all')).map((task) => ({
            uri: todoUri(task.id),
            name: `task-${task.id}`,
            title: `Task ${task.id}: ${task.title}`,
            description: describeTask(task),
            mimeType: JSON_MIME,
          })),
    }),
    complete: {
      id: async (value) => {
        const owner = taskCompletionOwner();
        if (owner === undefined) return [];
        return (await deps.todos.list(owner, 'all'))
          .map((task) => String(task.id))
          .filter((id) => id.startsWith(value))
          .slice(0, MAX_COMPLETIONS);
      },
    },
  });
}

/**
 * One template per deps, not per server: `createMcpServer` runs per session and per request, and
 * the template (a parsed URI template and its callbacks) only depends on the deps it reads.
 */
const taskTemplates = new WeakMap<ToolDeps, ResourceTemplate>();

function taskTemplate(deps: ToolDeps): ResourceTemplate {
  let template = taskTemplates.get(deps);
  if (!template) {
    template = buildTodoTemplate(deps);
    taskTemplates.set(deps, template);
  }
  return template;
}

/** The JSON of one page of `tasks://all`: the caller's tasks after the cursor, and the next cursor while more follow. */
async function readTodosPage(deps: ToolDeps, uri: URL, ctx: ServerContext, cursor: string | undefined) {
  const owner = todoReader(uri.href, ctx);
  try {
    const { items, nextCursor } = await readTodoPage(
      deps.todos,
      owner,
      'all',
      cursor,
      DEFAULT_TODO_PAGE_SIZE,
    );
    return jsonContents(uri.href, { items, count: items.length, ...(nextCursor && { nextCursor }) });
  } catch (error) {
    if (!(error instanceof InvalidTodoCursorError)) throw error;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid cursor in ${ALL_TODOS_URI}?cursor=…: read ${ALL_TODOS_URI} for the first page, then tasks://all?cursor=<nextCursor> with each nextCursor unchanged.`,
    );
  }
}

export function registerTodoResources(server: McpServer, deps: ToolDeps): void {
  server.registerResource(
    'tasks',
    ALL_TODOS_URI,
    {
      title: 'All tasks',
      description: `Every task on the task list, oldest first, ${DEFAULT_TODO_PAGE_SIZE} a page, as JSON { items, count, nextCursor? }: while nextCursor is there, read tasks://all?cursor=<nextCursor> for the next page. Subscribe to hear when any task changes.`,
      mimeType: JSON_MIME,
      cacheHint: TODO_CACHE_HINT,
    },
    (uri, ctx) => readTodosPage(deps, uri, ctx, undefined),
  );

  server.registerResource(
    'tasks-page',
    new ResourceTemplate(TODO_PAGE_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A page of tasks',
      description: `The page of ${ALL_TODOS_URI} after the one whose nextCursor is cursor, in the same JSON.`,
      mimeType: JSON_MIME,
      cacheHint: TODO_CACHE_HINT,
    },
    (uri, { cursor }, ctx) => readTodosPage(deps, uri, ctx, typeof cursor === 'string' ? cursor : ''),
  );

  server.registerResource(
    'task',
    taskTemplate(deps),
    {
      title: 'One task',
      description:
        'One task by id, as JSON { id, title, done, createdAt, completedAt }. The ids are those list_tasks returns.',
      mimeType: JSON_MIME,
      cacheHint: TODO_CACHE_HINT,
    },
    async (uri, { id }, ctx) => {
      const owner = todoReader(uri.href, ctx);
      const taskId = parseTodoId(id);
      const task = taskId === undefined ? undefined : await deps.todos.get(owner, taskId);
      if (!task) {
        throw new ResourceNotFoundError(
          uri.href,
          `No task at ${uri.href}: use tasks://<id> with an id from resources/list or list_tasks.`,
        );
      }
      return jsonContents(uri.href, task);
    },
  );
}
