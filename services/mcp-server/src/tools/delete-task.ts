/**
 * @module tools/delete-task
 * `delete_task`: removes a task from the task list for good, after the user confirms when the
 * client can ask them (elicitation). Only the caller's own tasks: another user's is "no such task".
 * Test: `delete-task.test.ts`, across users `task-owners.test.ts`.
 */

import type { ToolContext } from '@mcp-workshop/mcp-host/kit';
import { fail, ok } from '@mcp-workshop/shared';
import type { Todo } from '@mcp-workshop/task-store';
import {
  acceptedContent,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, TASKS_WRITE, type ToolDeps } from '../deps.js';
import { noSuchTodo, todoIdField, todoSchema } from './todo-schema.js';

/** Humans answer at human speed; the SDK's 60 s request default would cut off a user who is reading. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;
/** The key of the one embedded request in a 2026-07-28 `input_required` round. */
const CONFIRM_KEY = 'confirm';
export const DECLINED_MESSAGE = 'Not deleted: the user declined.';

const input = z.object({ id: todoIdField });

const output = z.object({
  task: todoSchema.describe('The task that was deleted, as it was just before deletion.'),
});

const confirmation = z.object({ confirm: z.boolean() });
const requestedSchema: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    confirm: { type: 'boolean', title: 'Yes, delete it', description: 'Tick to delete the task for good.' },
  },
  required: ['confirm'],
};

export const deleteTask = defineTool({
  name: 'delete_task',
  title: 'Delete task',
  description:
    "Permanently delete a task from the user's task list, by id. This cannot be undone; to mark a task " +
    'finished, use complete_task instead. Get the id from list_tasks. When the client supports it, the user ' +
    'is asked to confirm first; if they decline, nothing is deleted and you should not retry unless they ask again.',
  input,
  output,
  scopes: [TASKS_WRITE],
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    // The MCP hint is about effects, not replies: a second call with the same id changes nothing
    // (ids are never reused, so it cannot hit a newer task); it only answers "no task".
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ id }, context) {
    const { deps, owner, log } = context;
    const task = await deps.todos.get(owner, id);
    if (!task) return fail(noSuchTodo(id));
    const answer = await confirm(task, context);
    // A 2026-07-28 question goes back to the client untouched; it retries the call with the answer.
    if (typeof answer !== 'string') return answer;
    if (answer === 'declined') {
      await log('info', 'The user declined to delete a task', { id });
      return fail(DECLINED_MESSAGE);
    }
    if (answer === 'unanswered') {
      return fail(
        "Not deleted: the user's confirmation could not be obtained. Ask the user in the chat, then try again.",
      );
    }
    const deleted = await deps.todos.delete(owner, id);
    // Deleted elsewhere (another session of this user's) while the user was deciding.
    if (!deleted) return fail(noSuchTodo(id));
    await log('info', 'Deleted a task', { id, confirmedByUser: answer === 'confirmed' });
    return ok({ task: deleted }, { summary: `Deleted task ${deleted.id}: "${deleted.title}".` });
  },
});

type Answer = 'confirmed' | 'declined' | 'unanswered' | 'not asked' | InputRequiredResult;

/**
 * Asks the user to confirm, in whichever way the request's protocol era allows. A client without
 * form elicitation is not asked at all: the tool is marked destructiveHint, so hosts confirm
 * destructive calls themselves, and a 2026-07-28 server must not request input the client did
 * not declare (-32021).
 */
async function confirm(
  task: Todo,
  { era, clientCapabilities, mcp, signal }: ToolContext<ToolDeps>,
): Promise<Answer> {
  if (!supportsFormElicitation(clientCapabilities)) return 'not asked';
  const message = `Delete task ${task.id} "${task.title}"? This cannot be undone.`;

  if (era === 'modern') {
    // 2026-07-28 has no server-to-client requests: return the question, the client retries with the answer.
    // requestState pins the answer to this task. It is not signed because it can only cause a
    // second question, never skip one; a client able to forge it could answer "yes" anyway. If the
    // server ever sets ServerOptions.requestState.verify, mint this with that codec instead.
    const state = `delete_task:${task.id}:${task.createdAt}`;
    const view = inputResponse(mcp.mcpReq.inputResponses, CONFIRM_KEY);
    if (view.kind !== 'elicit' || mcp.mcpReq.requestState() !== state) {
      return inputRequired({
        inputRequests: { [CONFIRM_KEY]: inputRequired.elicit({ mode: 'form', message, requestedSchema }) },
        requestState: state,
      });
    }
    const content = acceptedContent(mcp.mcpReq.inputResponses, CONFIRM_KEY, confirmation);
    return content?.confirm === true ? 'confirmed' : 'declined';
  }

  try {
    // 2025 era: a real elicitation/create request, on this call's own stream.
    const result = await mcp.mcpReq.elicitInput(
      { mode: 'form', message, requestedSchema },
      { signal, timeout: CONFIRM_TIMEOUT_MS, relatedRequestId: mcp.mcpReq.id },
    );
    return result.action === 'accept' && result.content?.confirm === true ? 'confirmed' : 'declined';
  } catch (error) {
    if (signal.aborted) throw error;
    // Fail safe: a question that got no answer (timeout, client error) deletes nothing.
    return 'unanswered';
  }
}

/** A bare `elicitation: {}` is form mode (the 2025-06-18 shape); `{ url: {} }` alone is not. */
function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || Object.keys(elicitation).length === 0;
}
