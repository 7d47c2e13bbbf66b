/**
 * @module stdio
 * Serves a server factory over stdin/stdout, for hosts that start it as a child process (Claude
 * Desktop, VS Code, Codex CLI, MCP Inspector). It loads only the SDK's stdio transport: no
 * express, no HTTP. Logs must go to stderr (`createLogger` does), since stdout carries the protocol.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createLogger, type Logger } from './logger.js';
import { installTaskMethods } from './tasks/methods.js';
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
  const build = tasks
    ? () => {
        const server = buildServer();
        installTaskMethods(server, tasks);
        return server;
      }
    : buildServer;
  tasks?.defineWith(() => void build());
  const handle = serveStdio(build, {
    onerror: (error) => logger.warn({ err: error }, 'stdio error'),
  });
  return { close: () => handle.close() };
}
