/**
 * @module tools/list-tasks
 * `list_tasks`: the tasks on the persistent task list, optionally only open or done ones. Only the
 * caller's own (`context.owner`); with sign-in off, the one shared list. MCP Apps hosts draw the
 * result as the `ui://tasks/board` view (`views/tasks/`).
 * Test: `list-tasks.test.ts`, across users `task-owners.test.ts`.
 */
import { okList } from '@mcp-workshop/shared';
import { z } from 'zod';
import { TASK_BOARD_URI } from '../resources/views.js';
import { TASKS_READ } from '../scopes.js';
import { defineTool } from './define-tool.js';
import { TASK_STATUSES, taskSchema } from './task-schema.js';

const input = z.object({
  status: z
    .enum(TASK_STATUSES)
    .default('all')
    .describe('Which tasks to list: "open" (not done yet), "done", or "all" (the default).'),
});

const output = z.object({
  items: z.array(taskSchema).describe('The matching tasks, oldest first.'),
  count: z.number().int().describe('How many tasks are in items.'),
  status: z.enum(TASK_STATUSES).describe('The filter that was applied.'),
});

export const listTasks = defineTool({
  name: 'list_tasks',
  title: 'List tasks',
  description:
    "List the user's tasks with their ids, oldest first. Use it to answer questions about the task list " +
    'and to find the id that complete_task and delete_task need.',
  input,
  output,
  scopes: [TASKS_READ],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { resourceUri: TASK_BOARD_URI },
  async run({ status }, { deps, owner, log }) {
    const tasks = await deps.tasks.list(owner, status);
    await log('debug', 'Listed tasks', { status, count: tasks.length });
    const which = status === 'all' ? '' : `${status} `;
    return okList(
      tasks,
      { status },
      { summary: `${tasks.length} ${which}task${tasks.length === 1 ? '' : 's'}.` },
    );
  },
});
