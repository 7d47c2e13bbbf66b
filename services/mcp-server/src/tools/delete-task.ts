/**
 * @module tools/delete-task
 * `delete_task`: removes a task from the task list for good. Test: `delete-task.test.ts`.
 */
import { fail, ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { noSuchTask, taskIdField, taskSchema } from './task-schema.js';

const input = z.object({ id: taskIdField });

const output = z.object({
  task: taskSchema.describe('The task that was deleted, as it was just before deletion.'),
});

export const deleteTask = defineTool({
  name: 'delete_task',
  title: 'Delete task',
  description:
    "Permanently delete a task from the user's task list, by id. This cannot be undone; to mark a task " +
    'finished, use complete_task instead. Get the id from list_tasks.',
  input,
  output,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    // The MCP hint is about effects, not replies: a second call with the same id changes nothing
    // (ids are never reused, so it cannot hit a newer task); it only answers "no task".
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ id }, { deps }) {
    const task = deps.tasks.delete(id);
    if (!task) return fail(noSuchTask(id));
    return ok({ task }, { summary: `Deleted task ${task.id}: "${task.title}".` });
  },
});
