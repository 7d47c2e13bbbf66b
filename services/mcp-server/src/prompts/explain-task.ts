/**
 * @module prompts/explain-task
 * `explain_task`: embeds one task as a `tasks://<id>` resource and asks the model to break it
 * into steps. Only the caller's own tasks: another user's id is "no such task", and the id argument
 * completes from the caller's ids only, and not at all without `tasks:read` (checked on the
 * request's own token too). Test: `explain-task.test.ts`.
 */

import {
  cacheJsonSchema,
  invalidArgument,
  promptCaller,
  runPrompt,
  safeCompletions,
} from '@mcp-workshop/mcp-host/kit';
import type { Todo } from '@mcp-workshop/task-store';
import { completable, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDeps } from '../deps.js';
import { TASKS_READ } from '../deps.js';
import { taskCompletionOwner } from '../resources/tasks.js';
import type { WorkshopPrompt } from './index.js';

const NAME = 'explain_task';
/** Digits only, and few enough that the number stays a safe integer (the store's ids are). */
const TASK_ID_PATTERN = /^[1-9]\d{0,14}$/;

/**
 * Ids of the caller's tasks, oldest first, that start with what was typed ("1" → "1", "10",
 * "11"…); none when the caller may not read tasks.
 */
export async function completeTodoId(deps: ToolDeps, value: string): Promise<string[]> {
  const owner = taskCompletionOwner();
  if (owner === undefined) return [];
  const typed = value.trim();
  return (await deps.todos.list(owner, 'all'))
    .map((task) => String(task.id))
    .filter((id) => id.startsWith(typed));
}

function buildArgsSchema(deps: ToolDeps) {
  return cacheJsonSchema(
    z.object({
      id: completable(
        z
          .string()
          .regex(TASK_ID_PATTERN, 'must be a task id, a positive whole number such as "3"')
          .describe('The id of the task to explain, e.g. "3"; ask for completions to see the existing ids.'),
        safeCompletions(NAME, deps.logger, (value) => completeTodoId(deps, value)),
      ),
    }),
  );
}

/**
 * One schema per deps, not per server: its completion reads `deps.todos`, but building it (and
 * converting it for `prompts/list`) on every `createMcpServer`, which runs per session and per
 * request, was a large part of that call's cost. Weak, so dropped deps (tests) take it along.
 */
const argsSchemas = new WeakMap<ToolDeps, ReturnType<typeof buildArgsSchema>>();

function argsSchema(deps: ToolDeps): ReturnType<typeof buildArgsSchema> {
  let schema = argsSchemas.get(deps);
  if (!schema) {
    schema = buildArgsSchema(deps);
    argsSchemas.set(deps, schema);
  }
  return schema;
}

export const explainTask: WorkshopPrompt = {
  name: NAME,
  scopes: [TASKS_READ],
  register(server, { deps }) {
    server.registerPrompt(
      NAME,
      {
        title: 'Explain a task',
        description:
          'Explain one task from the task list: what it involves, concrete steps and effort. ' +
          'The task is embedded as a tasks://<id> resource.',
        argsSchema: argsSchema(deps),
      },
      ({ id }, ctx) =>
        runPrompt(NAME, deps.logger, () =>
          buildExplanation(deps, promptCaller(explainTask, ctx), Number(id)),
        ),
    );
  },
};

async function buildExplanation(deps: ToolDeps, owner: string, id: number): Promise<GetPromptResult> {
  const task = await deps.todos.get(owner, id);
  if (!task) {
    throw invalidArgument(NAME, `No task with id ${id}. Complete the id argument to see the existing ids.`);
  }
  return {
    description: `Explanation of task ${task.id}.`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: `tasks://${task.id}`,
            mimeType: 'application/json',
            text: JSON.stringify(task, null, 2),
          },
        },
      },
      { role: 'user', content: { type: 'text', text: question(task) } },
    ],
  };
}

function question(task: Todo): string {
  const state = task.done
    ? `It was completed at ${task.completedAt}; say whether it needs a follow-up, and offer to add one with add_task.`
    : 'It is still open. If it turns out to be done already, offer to mark it done with the complete_task tool.';
  return (
    `Explain task ${task.id} above: what it most likely involves, the concrete steps to get it done, ` +
    `roughly how long each step takes, and anything unclear that I should decide first. ${state}`
  );
}
