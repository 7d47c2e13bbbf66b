/**
 * @module tools/list-tasks
 * `list_tasks`: the tasks on the persistent task list, optionally only open or done ones, a page at
 * a time (`todo-pages.ts`): a full list is 10,000 tasks, too much for one answer to a model or to
 * hold for a client that reads slowly. Only the caller's own (`context.owner`); with sign-in off,
 * the one shared list. MCP Apps hosts draw the result as the `ui://tasks/board` view (`views/tasks/`).
 * Test: `list-tasks.test.ts`, across users `task-owners.test.ts`.
 */
import { fail, okList } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool, TASKS_READ } from '../deps.js';
import { TASK_BOARD_URI } from '../resources/views.js';
import {
  DEFAULT_TODO_PAGE_SIZE,
  InvalidTodoCursorError,
  MAX_TODO_PAGE_SIZE,
  readTodoPage,
} from './todo-pages.js';
import { TODO_STATUSES, todoSchema } from './todo-schema.js';

const input = z.object({
  status: z
    .enum(TODO_STATUSES)
    .default('all')
    .describe('Which tasks to list: "open" (not done yet), "done", or "all" (the default).'),
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe(
      'To get the next page: the nextCursor of the previous list_tasks answer, unchanged, with the same status.',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_TODO_PAGE_SIZE)
    .default(DEFAULT_TODO_PAGE_SIZE)
    .describe(
      `How many tasks one page holds at most, 1 to ${MAX_TODO_PAGE_SIZE} (default ${DEFAULT_TODO_PAGE_SIZE}).`,
    ),
});

export const output = z.object({
  items: z.array(todoSchema).describe('The matching tasks on this page, oldest first.'),
  count: z.number().int().describe('How many tasks are in items.'),
  status: z.enum(TODO_STATUSES).describe('The filter that was applied.'),
  nextCursor: z
    .string()
    .optional()
    .describe('Present when more tasks follow: pass it as cursor, with the same status, for the next page.'),
});

export const listTasks = defineTool({
  name: 'list_tasks',
  title: 'List tasks',
  description:
    "List the user's tasks with their ids, oldest first: open ones, done ones, or all. Use it to answer questions " +
    'about the task list ' +
    'and to find the id that complete_task and delete_task need.',
  input,
  output,
  scopes: [TASKS_READ],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { resourceUri: TASK_BOARD_URI },
  async run({ status, cursor, limit }, { deps, owner, log }) {
    let page: Awaited<ReturnType<typeof readTodoPage>>;
    try {
      page = await readTodoPage(deps.todos, owner, status, cursor, limit);
    } catch (error) {
      if (!(error instanceof InvalidTodoCursorError)) throw error;
      return fail(
        'That cursor is not one list_tasks gave you (it may have been changed or cut). ' +
          'Pass nextCursor from the previous list_tasks answer exactly as it was, or leave cursor out to start from the first page.',
      );
    }
    const { items, nextCursor } = page;
    await log('debug', 'Listed tasks', { status, count: items.length, more: nextCursor !== undefined });
    const which = status === 'all' ? '' : `${status} `;
    const more = nextCursor ? ' More follow: call list_tasks again with this nextCursor.' : '';
    return okList(
      items,
      { status, ...(nextCursor && { nextCursor }) },
      {
        summary: `${items.length} ${which}task${items.length === 1 ? '' : 's'}${nextCursor ? ' on this page' : ''}.${more}`,
      },
    );
  },
});
