/**
 * @module tasks/methods
 * Puts the Tasks extension on one server instance: it is declared in the capabilities
 * (`server/discover` shows it), and `tasks/get`, `tasks/update` and `tasks/cancel` are served from
 * the runtime. `tools/call` turns into a task in `callAsTask`, which a tool's handler calls first.
 *
 * Who may see and do what: a task belongs to the owner who created it (`ownerOf`, the signed-in
 * subject); another owner's id answers exactly like an unknown or expired one (-32602), for every
 * method. Only a request that declares the extension in its own capabilities may use the methods
 * (-32021 otherwise). The SDK checks the `Mcp-Name: <taskId>` header against the body before any
 * of this runs (-32020 on a mismatch), so a load balancer can route on it.
 */

import { type CallToolResult, fail } from '@mcp-workshop/shared';
import type { TaskRecord } from '@mcp-workshop/shared/tasks-port';
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ownerOf } from '../auth/caller.js';
import { type TaskRuntime, TooManyActiveTasksError } from './runtime.js';
import {
  answersOf,
  cancelTaskParams,
  createTaskResult,
  declaresTasks,
  detailedTask,
  getTaskParams,
  TASKS_EXTENSION,
  tasksRequired,
  updateTaskParams,
} from './wire.js';

/** How a tool takes part: `optional` becomes a task when the caller declared the extension; `required` only runs as one. */
export type TaskSupport = 'optional' | 'required';

export function installTaskMethods(server: McpServer, runtime: TaskRuntime): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  server.server.setRequestHandler('tasks/get', { params: getTaskParams }, async ({ taskId }, ctx) => {
    const run = await ownRun(runtime.get(ownerFor(ctx, 'tasks/get'), taskId));
    return { resultType: 'complete', ...detailedTask(run) };
  });
  server.server.setRequestHandler('tasks/update', { params: updateTaskParams }, async (params, ctx) => {
    const owner = ownerFor(ctx, 'tasks/update');
    await ownRun(runtime.answer(owner, params.taskId, answersOf(ctx.mcpReq.inputResponses)));
    return { resultType: 'complete' };
  });
  server.server.setRequestHandler('tasks/cancel', { params: cancelTaskParams }, async ({ taskId }, ctx) => {
    // Cooperative: a task already finished keeps its status, and the ack is the same.
    await ownRun(runtime.cancel(ownerFor(ctx, 'tasks/cancel'), taskId));
    return { resultType: 'complete' };
  });
}

/**
 * For a `tools/call` handler: makes the call a task when the request declares the extension and
 * the tool can run as one, and answers with its `CreateTaskResult`; `undefined` means "answer it
 * now, as usual". A `required` tool called without the extension is refused with -32021. An owner
 * who already has the most active tasks it may gets an `isError` result saying why and what to do:
 * the model can wait, or cancel one, and call again.
 */
export async function callAsTask(
  runtime: TaskRuntime | undefined,
  ctx: ServerContext,
  call: { tool: string; arguments: Record<string, unknown>; support: TaskSupport },
): Promise<ReturnType<typeof createTaskResult> | CallToolResult | undefined> {
  if (!runtime?.canRun(call.tool) || !declaresTasks(envelopeOf(ctx))) {
    if (call.support === 'required') throw tasksRequired(`The tool ${call.tool}`);
    return undefined;
  }
  const authInfo = ctx.http?.authInfo;
  try {
    const run = await runtime.create({
      owner: ownerOf(authInfo),
      tool: call.tool,
      arguments: call.arguments,
      // What the work needs to act with the caller's rights later, on any replica; never the token.
      caller: authInfo ? { clientId: authInfo.clientId, scopes: authInfo.scopes } : {},
    });
    return createTaskResult(run);
  } catch (error) {
    if (!(error instanceof TooManyActiveTasksError)) throw error;
    return fail(tooManyTasksMessage(call.tool, error.limit));
  }
}

/** Says why the call was refused and what to do, as the session and stream shares' refusals do. */
export function tooManyTasksMessage(tool: string, limit: number): string {
  return (
    `Too many active tasks for this user: at most ${limit} may be working or waiting for input at once. ` +
    `Wait for one to finish, or cancel one with tasks/cancel, then call ${tool} again.`
  );
}

function envelopeOf(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.envelope as Record<string, unknown> | undefined;
}

function ownerFor(ctx: ServerContext, method: string): string {
  if (!declaresTasks(envelopeOf(ctx))) throw tasksRequired(method);
  return ownerOf(ctx.http?.authInfo);
}

/** Unknown, expired and someone else's: one answer, so an id tells nothing about other users. */
async function ownRun(found: Promise<TaskRecord | undefined>): Promise<TaskRecord> {
  const run = await found;
  if (!run) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'No task with that id.');
  return run;
}
