/**
 * @module tools/add-task
 * `add_task`: adds a task to the caller's persistent task list (`context.owner`; each owner has a
 * bound of their own). Test: `add-task.test.ts`, across users `task-owners.test.ts`.
 */
import { fail, ok } from '@mcp-workshop/shared';
import { MAX_TITLE_LENGTH } from '@mcp-workshop/task-store';
import { z } from 'zod';
import { defineTool, TASKS_WRITE } from '../deps.js';
import { todoSchema } from './todo-schema.js';

/** Any whitespace run, line breaks included, becomes one space: a title is a single line. */
const WHITESPACE_RUN = /\s+/g;

/** Control characters left after that (NUL, escape sequences, DEL) are refused, never stored. */
const CONTROL_CHARACTER = /\p{Cc}/u;

const input = z.object({
  title: z
    .string()
    .min(1)
    .max(MAX_TITLE_LENGTH)
    .describe(
      `What to do, as one line of plain text, up to ${MAX_TITLE_LENGTH} characters, e.g. "Buy milk".`,
    ),
});

const output = z.object({
  task: todoSchema.describe('The task as stored, with the id to use for complete_task and delete_task.'),
});

export const addTask = defineTool({
  name: 'add_task',
  title: 'Add task',
  description:
    "Add a task to the user's task list, which is kept between conversations. Returns the new task with its id. " +
    'Call it once per task; calling it twice adds the task twice.',
  input,
  output,
  scopes: [TASKS_WRITE],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ title }, { deps, owner, log }) {
    const clean = normalizeTitle(title);
    if (clean === undefined) {
      return fail('A task title must be plain text: remove control characters such as null bytes.');
    }
    if (clean.length === 0)
      return fail('A task title needs at least one visible character, e.g. "Buy milk".');
    const task = await deps.todos.add(owner, clean);
    await log('info', 'Added a task', { id: task.id });
    return ok({ task }, { summary: `Added task ${task.id}: "${task.title}".` });
  },
});

/** The title on one line and trimmed, or undefined when it holds control characters. */
function normalizeTitle(raw: string): string | undefined {
  const oneLine = raw.replace(WHITESPACE_RUN, ' ').trim();
  return CONTROL_CHARACTER.test(oneLine) ? undefined : oneLine;
}
