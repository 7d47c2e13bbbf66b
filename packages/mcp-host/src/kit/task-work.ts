/**
 * @module kit/task-work
 * How a tool declared with `task` runs as an MCP Task: the host's task runtime calls this work
 * (now, after a restart, or on another replica), and it runs the tool's own `run` with a context
 * built from the stored task instead of from a live request. The result is the same
 * `CallToolResult` the tool would have answered at once; a failure the model can act on is an
 * `isError` result (the task `completed`), and only a protocol error makes the task `failed`.
 * Tests: the catalogue's task tools, and dev/host-integration's `tasks.http.test.ts`.
 */
import { fail, failFromError } from '@mcp-workshop/shared';
import { type AuthInfo, ProtocolError } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Logger } from '../logger.js';
import type { TaskRunContext, TaskWork } from '../tasks/runtime.js';
import type { RunContext, TaskToolSpec } from './define-tool.js';

export function taskWork<Input extends z.ZodObject, Output extends z.ZodObject, Deps>(
  spec: TaskToolSpec<Input, Output, Deps>,
  deps: Deps,
  logger: Logger,
): TaskWork {
  return async (storedArgs, run) => {
    // Stored arguments were valid when the task was made; a tool changed since (a reload) may disagree.
    const parsed = spec.input.safeParse(storedArgs);
    if (!parsed.success) {
      return fail(
        `The task's arguments no longer fit ${spec.name}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
      );
    }
    const context = runContext(spec.name, deps, logger, run);
    try {
      return await spec.run(parsed.data, context);
    } catch (error) {
      // Cancelled, parked, or its process stopping: the runtime decides what happens next.
      if (run.signal.aborted || error instanceof ProtocolError) throw error;
      const { result, ref } = failFromError(error);
      if (ref)
        logger.error(
          { err: error, tool: spec.name, ref, taskId: run.taskId },
          'task threw an unexpected error',
        );
      return result;
    }
  };
}

function runContext<Deps>(tool: string, deps: Deps, logger: Logger, run: TaskRunContext): RunContext<Deps> {
  return {
    deps,
    signal: run.signal,
    authInfo: callerAuthInfo(run.caller),
    owner: run.owner,
    era: 'modern',
    // The client that made the task is long gone; nothing is asked of it mid-run.
    clientCapabilities: undefined,
    // No request to send notifications on: the lines go to the server's own log instead.
    async log(level, message, data) {
      logger.debug({ tool, taskId: run.taskId, level, ...data }, message);
    },
    progress: (_done, _total, message) => run.setStatusMessage(message),
    step: (key, work) => run.step(key, work),
  };
}

/** The caller's grant as stored with the task (`callAsTask`): enough to check scopes, no token. */
function callerAuthInfo(caller: Record<string, unknown>): AuthInfo | undefined {
  if (!Array.isArray(caller.scopes)) return undefined;
  return {
    token: '',
    clientId: typeof caller.clientId === 'string' ? caller.clientId : '',
    scopes: caller.scopes.filter((scope): scope is string => typeof scope === 'string'),
  };
}
