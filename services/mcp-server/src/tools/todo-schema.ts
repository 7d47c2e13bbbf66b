/**
 * @module tools/todo-schema
 * The schemas and messages the task tools (`add-task.ts`, `list-tasks.ts`, `complete-task.ts`,
 * `delete-task.ts`, and the board's `task-board-refresh.ts`) share, so a task looks the same in every result.
 */

import type { Todo } from '@mcp-workshop/task-store';
import { z } from 'zod';

/** One task as the tools return it; `satisfies` keeps it in step with the store's `Todo`. */
export const todoSchema = z.object({
  id: z.number().int().positive().describe('The task id; pass it to complete_task or delete_task.'),
  title: z.string().describe('What the task is, as it was added.'),
  done: z.boolean().describe('True once the task has been completed.'),
  createdAt: z
    .string()
    .describe('When the task was added, ISO 8601 in UTC, e.g. "2026-07-28T12:00:00.000Z".'),
  completedAt: z
    .string()
    .nullable()
    .describe('When the task was completed, ISO 8601 in UTC; null while it is still open.'),
}) satisfies z.ZodType<Todo>;

/** The filters `list_tasks` and the task board take (the store's `TodoStatusFilter`). */
export const TODO_STATUSES = ['all', 'open', 'done'] as const;

/**
 * The `id` argument of the tools that act on one task. `int()` also caps it at
 * Number.MAX_SAFE_INTEGER, so a huge id is refused before it reaches SQLite.
 */
export const todoIdField = z
  .number()
  .int()
  .positive()
  .describe('The id of the task, a positive whole number as add_task or list_tasks returned it, e.g. 3.');

/** The answer for an id that names no task, telling the model how to find a real one. */
export function noSuchTodo(id: number): string {
  return `No task with id ${id}. Call list_tasks to see the ids.`;
}
