/**
 * @module mcp/task-handoff
 * Lets a task through the SDK client. SDK 2.4.0 rejects a `tools/call` answer whose `resultType`
 * is `"task"` (UnsupportedResultType) before any hook of ours runs, and the task id is lost with
 * it. This transport view hands such an answer on as an `isError` result (so no output schema
 * check trips on it) whose `_meta` carries the task as it came; the hub takes it out with
 * `takeTaskHandoff` and follows the task (`task-wait.ts`). Test: `task-handoff.test.ts`.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** Where the task rides in the result's `_meta`: a key of this agent's own, never sent anywhere. */
export const TASK_HANDOFF_META = 'mcp-workshop.agent/task';

/**
 * `tools/call` ids still waiting for their answer. A call that never gets one (its stream died)
 * would stay forever, so the oldest go once there are this many; no agent has this many open.
 */
export const MAX_OPEN_CALLS = 1_024;

type MessageHandler = (message: JSONRPCMessage, ...rest: unknown[]) => void;

/** Wraps `transport`: answers to our `tools/call` that are tasks reach the client as handoffs. */
export function surfaceTaskResults<T extends Transport>(transport: T): T {
  const openCalls = new Set<string | number>();
  const send = (message: JSONRPCMessage, ...rest: unknown[]) => {
    const request = message as { id?: unknown; method?: unknown };
    if (
      request.method === 'tools/call' &&
      (typeof request.id === 'string' || typeof request.id === 'number')
    ) {
      openCalls.add(request.id);
      if (openCalls.size > MAX_OPEN_CALLS)
        openCalls.delete(openCalls.values().next().value as string | number);
    }
    return (transport.send as (...args: unknown[]) => Promise<void>).call(transport, message, ...rest);
  };
  const wrap =
    (handler: MessageHandler): MessageHandler =>
    (message, ...rest) =>
      handler(handOff(message, openCalls), ...rest);
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send') return send;
      const value = Reflect.get(target, property, target);
      // Bound to the real transport, whose methods may use private fields.
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      const wrapped = property === 'onmessage' && typeof value === 'function' ? wrap(value) : value;
      return Reflect.set(target, property, wrapped, target);
    },
  });
}

/** The task an answer carried, as the server sent it; undefined for any ordinary result. */
export function takeTaskHandoff(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return undefined;
  const meta = (result as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  return (meta as Record<string, unknown>)[TASK_HANDOFF_META];
}

function handOff(message: JSONRPCMessage, openCalls: Set<string | number>): JSONRPCMessage {
  const response = message as { id?: unknown; result?: unknown };
  if (typeof response.id !== 'string' && typeof response.id !== 'number') return message;
  // Only the answer to a tools/call we sent: a task anywhere else stays the SDK's to refuse.
  if (!openCalls.delete(response.id) || !('result' in response)) return message;
  const result = response.result as { resultType?: unknown } | null;
  if (typeof result !== 'object' || result === null || result.resultType !== 'task') return message;
  return {
    ...message,
    result: {
      resultType: 'complete',
      content: [
        { type: 'text', text: 'The server made this call a task; the agent follows it with tasks/get.' },
      ],
      isError: true,
      _meta: { [TASK_HANDOFF_META]: result },
    },
  } as JSONRPCMessage;
}
