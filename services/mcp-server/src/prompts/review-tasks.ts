/**
 * @module prompts/review-tasks
 * `review_tasks`: embeds the caller's current task list as JSON and asks the model to review it,
 * say what to do next and which tasks to close with complete_task. Needs `tasks:read`, checked on
 * the request's own token too. Test: `review-tasks.test.ts`.
 */

import { cacheJsonSchema, promptCaller, promptText, runPrompt } from '@mcp-workshop/mcp-host/kit';
import type { Todo, TodoStatusFilter } from '@mcp-workshop/task-store';
import { completable, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolDeps } from '../deps.js';
import { TASKS_READ } from '../deps.js';
import type { WorkshopPrompt } from './index.js';

const NAME = 'review_tasks';
export const STATUS_CHOICES = ['all', 'open', 'done'] as const satisfies readonly TodoStatusFilter[];
/** A sentence or two of emphasis, not a document. */
const MAX_FOCUS_LENGTH = 500;
/**
 * The store allows 10,000 tasks; embedding them all would flood the model's context. Past this
 * many the prompt says how many were left out and points at list_tasks.
 */
export const MAX_REVIEW_TODOS = 200;

/** Built once per process, with its JSON Schema for `prompts/list` cached (cached-schema.ts). */
const argsSchema = cacheJsonSchema(
  z.object({
    status: completable(
      z.enum(STATUS_CHOICES).describe('Which tasks to review: "all" (default), "open" or "done".'),
      (value: string) => STATUS_CHOICES.filter((choice) => choice.startsWith(value.trim().toLowerCase())),
    ).optional(),
    focus: promptText(MAX_FOCUS_LENGTH)
      .describe('Optional angle for the review, e.g. "what can I finish today" or "anything about the trip".')
      .optional(),
  }),
);

export const reviewTasks: WorkshopPrompt = {
  name: NAME,
  scopes: [TASKS_READ],
  register(server, { deps }) {
    server.registerPrompt(
      NAME,
      {
        title: 'Review my tasks',
        description:
          'Review the task list: group related tasks, suggest what to do next, and say which tasks look ' +
          'finished so they can be completed with complete_task. The current tasks are embedded as JSON.',
        argsSchema,
      },
      ({ status, focus }, ctx) =>
        runPrompt(NAME, deps.logger, () =>
          buildReview(deps, promptCaller(reviewTasks, ctx), status ?? 'all', focus?.trim()),
        ),
    );
  },
};

async function buildReview(
  deps: ToolDeps,
  owner: string,
  status: TodoStatusFilter,
  focus: string | undefined,
): Promise<GetPromptResult> {
  const tasks = await deps.todos.list(owner, status);
  const shown = tasks.slice(0, MAX_REVIEW_TODOS);
  const snapshot = { status, total: tasks.length, shown: shown.length, tasks: shown };
  const omitted =
    tasks.length > shown.length
      ? `\n\nOnly the first ${shown.length} of ${tasks.length} tasks are shown; call list_tasks for the rest.`
      : '';
  return {
    description: `Review of ${tasks.length} ${status === 'all' ? '' : `${status} `}task(s).`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `My task list (status "${status}"), as JSON:\n\n\`\`\`json\n${JSON.stringify(snapshot, null, 2)}\n\`\`\`${omitted}`,
        },
      },
      { role: 'user', content: { type: 'text', text: instructions(status, tasks, focus) } },
    ],
  };
}

function instructions(status: TodoStatusFilter, tasks: readonly Todo[], focus: string | undefined): string {
  const focusLine = focus ? `\n\nFocus on this: ${focus}` : '';
  if (tasks.length === 0) {
    const which = status === 'all' ? 'no tasks' : `no ${status} tasks`;
    return `The list has ${which}. Suggest a few useful next steps and offer to add them with the add_task tool.${focusLine}`;
  }
  if (status === 'done') {
    return (
      'Review these finished tasks: sum up what got done, point out follow-ups that should become new tasks ' +
      `(offer to add them with add_task), and say which old tasks could be removed with delete_task.${focusLine}`
    );
  }
  return [
    'Review these tasks. Group related ones, point out duplicates and vague titles, and suggest the two or three ' +
      'to do next, with a reason for each.',
    'Then list the ids of open tasks that look finished or obsolete, and offer to mark them done with the ' +
      'complete_task tool (one call per id). Call list_tasks first if you need the latest state.',
  ]
    .join('\n\n')
    .concat(focusLine);
}
