/**
 * @module 06-scoped-tool/solution/clear-completed-tasks
 * Exercise 06, solved: `clear_completed_tasks` declares `tasks:write`, so with sign-in on a token
 * without it is refused with 403 before the tool runs.
 */
import { defineTool, TASKS_WRITE } from '@mcp-workshop/mcp-server';
import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';

const input = z.object({});

const output = z.object({
  deleted: z.number().int().describe('How many completed tasks were deleted.'),
});

export const clearCompletedTasks = defineTool({
  name: 'clear_completed_tasks',
  title: 'Clear completed tasks',
  description:
    'Delete every completed task, leaving the open ones. Use it when the user asks to tidy up or clear done tasks. Returns how many were deleted.',
  input,
  output,
  scopes: [TASKS_WRITE],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(_args, { deps, owner }) {
    let deleted = 0;
    // `owner` is whoever signed in (or the shared list when sign-in is off): only their tasks go.
    for (const task of await deps.todos.list(owner, 'done')) {
      if (await deps.todos.delete(owner, task.id)) deleted++;
    }
    return ok({ deleted }, { summary: `Deleted ${deleted} completed task${deleted === 1 ? '' : 's'}.` });
  },
});
