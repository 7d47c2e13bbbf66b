/**
 * @module mcp/task-session
 * An `@modelcontextprotocol/ext-tasks` session for following one task, over the agent's own SDK
 * client: the package's `TaskController` builds `tasks/get` and `tasks/cancel`, checks each answer
 * against its wire schemas and the task id, and this port sends them with `client.request`, so they
 * carry the connection's envelope, sign-in and `Mcp-Name: <taskId>` header.
 *
 * Why not the package's own `createTaskSessionFromClient`: on a 2026-07-28 server it needs a second,
 * raw JSON-RPC path (`rawDispatch`) because SDK 2.4.0 refuses `resultType: "task"`, and it would send
 * every `tools/call` through it, past the SDK's progress, per-call logs, input rounds, sign-in
 * step-up and telemetry that the hub relies on. The hub keeps `tools/call` on the SDK
 * (`task-handoff.ts` lets the task through) and uses this session for what follows.
 */

import { type Client, ProtocolError } from '@modelcontextprotocol/client';
import {
  type ConnectedMcpSessionPort,
  DispatchError,
  type JsonRpcResponse,
  type TaskEnabledSession,
  withTasks,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { z } from 'zod';

/** The request's capabilities key in `_meta` (2026-07-28 envelope). */
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** Any JSON object: the package validates the answer itself, with its own schemas. */
const ANY_RESULT = z.looseObject({});

/** No tool declarations: this session never calls a tool, so it must not list them either. */
const NO_DECLARATIONS = { currentTool: () => undefined };

/** Opens a session for `tasks/*` only; close it when the task is over. */
export function openTaskSession(client: Client, endpointId: string): TaskEnabledSession {
  return withTasks(taskPort(client, endpointId), { tools: NO_DECLARATIONS });
}

/** Exported for tests. */
export function taskPort(client: Client, endpointId: string): ConnectedMcpSessionPort {
  const never = () => () => {};
  return {
    endpointId,
    taskCapabilities: { generation: 'v2', capabilities: {} },
    invalidated: false,
    // No server requests or notifications come through here: the connection's own handlers keep them.
    onServerRequest: never,
    onNotification: never,
    onInvalidated: never,
    async dispatch(request, options = {}): Promise<JsonRpcResponse> {
      const { method, params } = request as { method?: unknown; params?: unknown };
      if (typeof method !== 'string' || !method.startsWith('tasks/')) {
        throw new DispatchError(`this session only sends tasks/* requests, not ${String(method)}`);
      }
      try {
        const result = await client.request(
          { method, ...(isObject(params) && { params: ownEnvelope(params) }) },
          ANY_RESULT,
          {
            ...(options.signal && { signal: options.signal }),
            ...(options.context?.requestTimeoutMs !== undefined && {
              timeout: options.context.requestTimeoutMs,
            }),
            ...(options.context?.headers && { headers: options.context.headers }),
          },
        );
        // The SDK checked `resultType: "complete"` and took it off; the package's schemas want it back.
        return { kind: 'result', result: { ...result, resultType: 'complete' } as JsonValue };
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        const data = error.data as JsonValue | undefined;
        return {
          kind: 'error',
          error: { code: error.code, message: error.message, ...(data !== undefined && { data }) },
        };
      }
    },
  };
}

/**
 * The package puts `{ extensions: { tasks } }` alone in `_meta` as the request's capabilities; it
 * would replace the connection's whole set (the SDK lets a request's `_meta` win). The connection
 * already declares the extension (`connect.ts`), so its own envelope is the one to send.
 */
function ownEnvelope(params: Record<string, unknown>): Record<string, unknown> {
  if (!isObject(params._meta)) return params;
  const { [CLIENT_CAPABILITIES_META]: _replaced, ...meta } = params._meta;
  return { ...params, _meta: meta };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
