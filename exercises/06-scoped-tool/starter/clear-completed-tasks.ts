/**
 * @module 06-scoped-tool/starter/clear-completed-tasks
 * Exercise 06: `clear_completed_tasks` deletes every completed task. Edit this file; `pnpm exercise 06`
 * checks it against a server with sign-in on and a real authorization server.
 * `services/mcp-server/src/tools/delete-task.ts` is a model tool that writes tasks.
 */
import { defineTool } from '@mcp-workshop/mcp-server';
import { fail } from '@mcp-workshop/shared';
import { z } from 'zod';

// TODO(exercise 06): you will need the scope constant.
// import { TASKS_WRITE } from '@mcp-workshop/mcp-server';

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
  // TODO(exercise 06): this tool deletes tasks. Which OAuth scope must a caller's token carry? Declare it.
  // TODO(exercise 06): and say what it does to the world: not read-only, destructive, idempotent.
  annotations: {},
  async run(_args, { deps, owner }) {
    // TODO(exercise 06): delete each task of `await deps.todos.list(owner, 'done')` with
    // `await deps.todos.delete(owner, id)`, and return ok({ deleted }, { summary: ... }).
    // `owner` is whoever signed in: each user has a task list of their own.
    void deps;
    void owner;
    return fail('TODO(exercise 06): clear_completed_tasks does not delete anything yet.');
  },
});
