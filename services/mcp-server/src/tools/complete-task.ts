/**
 * @module tools/complete-task
 * `complete_task`: marks a task done. Completing a done task again changes nothing, not even its
 * completion time. Another user's task is "no such task", never "forbidden", so an id reveals
 * nothing. Test: `complete-task.test.ts`, across users `task-owners.test.ts`.
 */
import { fail, ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool, TASKS_WRITE } from '../deps.js';
import { noSuchTodo, todoIdField, todoSchema } from './todo-schema.js';

const input = z.object({ id: todoIdField });

const output = z.object({
  task: todoSchema.describe('The task after the change, with done set to true.'),
});

export const completeTask = defineTool({
  name: 'complete_task',
  title: 'Complete task',
  description:
    "Mark a task on the user's task list as done, by id. Get the id from list_tasks or add_task. " +
    'Completing a task that is already done is harmless and keeps its original completion time.',
  input,
  output,
  scopes: [TASKS_WRITE],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ id }, { deps, owner, log }) {
    const task = await deps.todos.complete(owner, id);
    if (!task) return fail(noSuchTodo(id));
    await log('info', 'Completed a task', { id: task.id });
    return ok({ task }, { summary: `Task ${task.id} is done: "${task.title}".` });
  },
});
