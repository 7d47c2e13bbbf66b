/**
 * @module local-server
 * Starts a complete workshop server on 127.0.0.1 with the offline weather and a task database
 * in `dataDir`, on a port the OS picks unless one is given. The demo, the benchmark, the agent's
 * demo and the HTTP tests all use it; `index.ts` does the same from the environment.
 */
import type { AddressInfo } from 'node:net';
import { buildDeps } from './deps.js';
import { type AppOptions, createApp, type WorkshopApp } from './http/app.js';
import { createSilentLogger, type Logger } from './logger.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import type { ToolDeps } from './tools/deps.js';

export interface LocalServerOptions extends Partial<Omit<AppOptions, 'buildServer' | 'logger'>> {
  dataDir: string;
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  logger?: Logger;
  /** Fixes the clock, for tests. */
  now?: () => Date;
  /** Passed to `createMcpServer`: list page size and the conformance fixtures. */
  server?: McpServerOptions;
}

export interface LocalServer {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  workshop: WorkshopApp;
  deps: ToolDeps;
  /** Closes connections, sessions and the database. */
  close(): Promise<void>;
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const {
    dataDir,
    port = 0,
    logger = createSilentLogger(),
    now = () => new Date(),
    server: serverOptions,
    ...appOptions
  } = options;
  // The same builder as `index.ts`: offline weather (no Open-Meteo settings) and SQLite in dataDir.
  const deps = buildDeps({ dataDir, logger, now });
  // Opened now, not on the first task call: a bad dataDir fails the start, and the first call is not slow.
  await deps.openTasks();
  const { taskEvents } = deps;
  const workshop = createApp({
    buildServer: () => createMcpServer(deps, serverOptions),
    logger,
    stateless: false,
    sessionTtlSeconds: 1800,
    maxSessions: 100,
    ...appOptions,
    // After the spread: notifications must come from the same emitter the task store announces on.
    taskEvents,
  });
  const server = workshop.app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    workshop,
    deps,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workshop.close();
      await deps.tasks.close();
    },
  };
}
