/**
 * @module tools/task-board-refresh
 * `task_board_refresh`: what the task board view (`ui://tasks/board`) redraws from after its
 * buttons complete or delete a task: the tasks under the board's filter plus how many are open and
 * done in all. App-only (`visibility: ["app"]`): an MCP Apps host never shows it to the model, which
 * has `list_tasks`. Same owner rules and scope as `list_tasks`, and the same first page: at most
 * `DEFAULT_TODO_PAGE_SIZE` tasks, with `nextCursor` when more follow, so a full list never makes one
 * large answer. Test: `task-board-refresh.test.ts`.
 */
import { okList } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool, TASKS_READ } from '../deps.js';
import { DEFAULT_TODO_PAGE_SIZE, encodeTodoCursor } from './todo-pages.js';
import { TODO_STATUSES, todoSchema } from './todo-schema.js';

const input = z.object({
  status: z
    .enum(TODO_STATUSES)
    .default('all')
    .describe('The filter the board shows: "open", "done", or "all" (the default).'),
});

export const output = z.object({
  items: z.array(todoSchema).describe('The first page of the tasks under the filter, oldest first.'),
  count: z.number().int().describe('How many tasks are in items.'),
  status: z.enum(TODO_STATUSES).describe('The filter that was applied.'),
  openCount: z.number().int().describe("How many of the caller's tasks are open, whatever the filter."),
  doneCount: z.number().int().describe("How many of the caller's tasks are done, whatever the filter."),
  nextCursor: z
    .string()
    .optional()
    .describe('Present when more tasks follow under the filter: list_tasks takes it as cursor.'),
});

export const taskBoardRefresh = defineTool({
  name: 'task_board_refresh',
  title: 'Refresh the task board',
  description:
    'For the task board view only: the tasks under its filter, plus the open and done totals it shows in its header.',
  input,
  output,
  scopes: [TASKS_READ],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ['app'] },
  async run({ status }, { deps, owner, log }) {
    // One read, so the totals and the items describe the same moment.
    const all = await deps.todos.list(owner, 'all');
    const doneCount = all.filter((task) => task.done).length;
    const matching = status === 'all' ? all : all.filter((task) => task.done === (status === 'done'));
    const items = matching.slice(0, DEFAULT_TODO_PAGE_SIZE);
    const last = items.at(-1);
    const nextCursor = matching.length > items.length && last ? encodeTodoCursor(owner, last.id) : undefined;
    await log('debug', 'Refreshed the task board', { status, count: items.length });
    return okList(
      items,
      { status, openCount: all.length - doneCount, doneCount, ...(nextCursor && { nextCursor }) },
      { summary: `${all.length - doneCount} open, ${doneCount} done.` },
    );
  },
});
