/**
 * @module mcp/call-routing
 * Ties each log notification and request for input a server sends to the tool call it belongs
 * to, so a trace never shows one call's logs under another. `hub.ts` keeps one router per server;
 * test: `call-routing.test.ts`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { InputAnswer, InputRequest, ServerLogMessage } from '../types.js';
import type { LogMessage, McpLogger } from './connect.js';

/** A call in flight, as the router sees it. */
export interface RoutedCall {
  log(message: LogMessage): void;
  input(request: InputRequest, answer: InputAnswer): void;
  /** The turn's sink for logs no call can claim; the calls of one turn share it. */
  onServerLog?: (event: ServerLogMessage) => void;
}

export interface CallRouter {
  /** Runs `send` as `call`: what arrives on the streams it opens is the call's. */
  run<T>(call: RoutedCall, send: () => Promise<T>): Promise<T>;
  /** For `ServerHooks.onLog`. */
  log(message: LogMessage): void;
  /** For `ServerHooks.onInput`. */
  input(request: InputRequest, answer: InputAnswer): void;
}

/**
 * The call the code running right now works for. The SDK v2 client (2.4) has no per-request hook
 * for notifications: `RequestOptions` only has `onprogress` (matched by progressToken), a
 * `notifications/message` reaches one handler per method with no request id, and the Streamable
 * HTTP transport hands every message to `onmessage` without saying which stream it came on. But a
 * request's own notifications (all of them in the 2026-07-28 era; those a 2025 server relates to
 * the request) and its requests for input arrive on that request's POST response stream, which
 * the transport reads in an async continuation of the `callTool` that sent it. So the async
 * context a handler runs in names its call; one that came on any other stream has none.
 */
const currentCall = new AsyncLocalStorage<RoutedCall>();

export function createCallRouter(server: string, logger: McpLogger): CallRouter {
  const running = new Set<RoutedCall>();

  /**
   * The call a notification belongs to: the one whose stream it came on, while it runs. A 2025
   * log on the session's GET stream, or anything over stdio, names no call; it is only given to a
   * call when that call is the only one running on the server. Otherwise no call may claim it:
   * under one of them it could be under the wrong one.
   */
  const owner = (): RoutedCall | undefined => {
    const own = currentCall.getStore();
    if (own) return running.has(own) ? own : undefined;
    return running.size === 1 ? [...running][0] : undefined;
  };

  return {
    async run(call, send) {
      running.add(call);
      try {
        return await currentCall.run(call, send);
      } finally {
        running.delete(call);
      }
    },
    log(message) {
      const call = owner();
      if (call) return call.log(message);
      // Several calls ran: the turns they belong to each hear it once, as "not tied to a call".
      const turns = new Set([...running].map((each) => each.onServerLog));
      turns.delete(undefined);
      for (const onServerLog of turns) onServerLog?.({ server, ...message });
      if (turns.size === 0) logger.debug({ server, ...message }, 'MCP server log outside any call');
    },
    input(request, answer) {
      const call = owner();
      if (call) return call.input(request, answer);
      logger.info(
        { server, message: request.message, action: answer.action, running: running.size },
        'a request for input that no one call can be named for',
      );
    },
  };
}
