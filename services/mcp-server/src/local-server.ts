/**
 * @module local-server
 * Starts the complete workshop server on 127.0.0.1 with the offline weather and a task database
 * in `dataDir`, on a port the OS picks unless one is given. The demo, the benchmark, the agent's
 * demo and the HTTP tests all use it; `index.ts` does the same from the environment.
 */
import { type AppAuthOptions, type AppOptions, type HostApp, startHttpHost } from '@mcp-workshop/mcp-host';
import { createSilentLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { buildDeps, type ServerDeps } from './deps.js';
import { cataloguePolicy, hostedCatalogue } from './hosted.js';
import type { McpServerOptions } from './server.js';

export interface LocalServerOptions
  extends Partial<Omit<AppOptions, 'buildServer' | 'logger' | 'info' | 'publishEvents' | 'auth'>> {
  dataDir: string;
  /** Sign-in; the policy defaults to this catalogue's own tools, prompts and `tasks://` resources. */
  auth?: Omit<AppAuthOptions, 'policy'> & Partial<Pick<AppAuthOptions, 'policy'>>;
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  logger?: Logger;
  /** Fixes the clock, for tests. */
  now?: () => Date;
  /** Passed to `createMcpServer`: the list page size, and items to add (`extend`, e.g. dev/conformance-server's fixtures). */
  server?: McpServerOptions;
}

export interface LocalServer {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  workshop: HostApp;
  deps: ServerDeps;
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
    auth,
    ...appOptions
  } = options;
  // The same builder as `index.ts`: offline weather (no Open-Meteo settings) and SQLite in dataDir.
  const deps = buildDeps({ dataDir, logger, now });
  // Opened now, not on the first task call: a bad dataDir fails the start, and the first call is not slow.
  await deps.openTasks();
  await deps.skills.load();
  // Unfinished MCP Tasks in dataDir resume now, as they do when `index.ts` serves.
  await deps.runs.start();
  const { buildServer, info, publishEvents, checkReady, tasks } = hostedCatalogue(deps, serverOptions);
  const host = await startHttpHost({
    buildServer,
    info,
    logger,
    port,
    stateless: false,
    sessionTtlSeconds: 1800,
    maxSessions: 100,
    checkReady,
    tasks,
    ...appOptions,
    ...(auth && { auth: { policy: cataloguePolicy(), ...auth } }),
    // After the spread: notifications must come from the same emitter the task store announces on.
    publishEvents,
  });
  return {
    baseUrl: host.baseUrl,
    mcpUrl: host.mcpUrl,
    workshop: host.app,
    deps,
    async close() {
      await host.close();
      await deps.close();
    },
  };
}
