/**
 * @module stdio
 * Serves a server factory over stdin/stdout, for hosts that start it as a child process (Claude
 * Desktop, VS Code, Codex CLI, MCP Inspector). It loads only the SDK's stdio transport: no
 * express, no HTTP. Logs must go to stderr (`createLogger` does), since stdout carries the protocol.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ownerOf } from './auth/caller.js';
import { createLogger, type Logger } from './logger.js';
import { installTaskMethods } from './tasks/methods.js';
import { watchTaskStatus } from './tasks/notify.js';
import type { TaskRuntime } from './tasks/runtime.js';

export interface StdioHost {
  /** Closes the transport and the server. */
  close(): Promise<void>;
}

/** `logger` defaults to JSON lines on stderr; stdout is the protocol's. */
export function startStdioHost(
  buildServer: () => McpServer,
  logger: Logger = createLogger('info'),
  /** MCP Tasks, as the HTTP host serves them (`AppOptions.tasks`): the methods on every instance. */
  options: { tasks?: TaskRuntime | undefined } = {},
): StdioHost {
  const { tasks } = options;
  /** The connection's 2026-07-28 instance, once the client chose that era: task notifications go through it. */
  let modern: McpServer | undefined;
  const build = tasks
    ? (context?: { era?: string }) => {
        const server = buildServer();
        installTaskMethods(server, tasks);
        if (context?.era === 'modern') modern = server;
        return server;
      }
    : buildServer;
  // Everything on stdio belongs to the one local user (no sign-in), the owner `ownerOf` gives it.
  // The SDK's stdio listen router (series patch 08) sends a `notifications/tasks` only to the
  // subscriptions that named the task, and drops it when there are none.
  const stopNotifying = tasks
    ? watchTaskStatus(
        tasks,
        {
          listening: (owner) => owner === ownerOf(undefined) && modern?.isConnected() === true,
          send: (_owner, task) =>
            void modern?.server
              .notification({ method: 'notifications/tasks', params: task })
              .catch((error: unknown) =>
                logger.warn({ err: error }, 'could not send a task status notification'),
              ),
        },
        logger,
      )
    : () => {};
  const handle = serveStdio(build, {
    onerror: (error) => logger.warn({ err: error }, 'stdio error'),
  });
  return {
    close: async () => {
      stopNotifying();
      await handle.close();
    },
  };
}
