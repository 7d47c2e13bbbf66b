/**
 * @module mcp/test-support/workshop
 * The real workshop MCP server (the same express app `pnpm start` serves), on 127.0.0.1 with an
 * OS-picked port, offline weather and a temporary task database. Built from the server package's
 * public factories, so the agent's tests exercise exactly what it ships.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createApp,
  createDeps,
  createMcpServer,
  createSilentLogger,
  loadEnv,
  tools as workshopTools,
} from '@mcp-workshop/mcp-server';

export interface WorkshopServer {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  close(): Promise<void>;
}

/** The workshop server's tool count, read from its own list of tools. */
export const WORKSHOP_TOOL_COUNT = workshopTools.length;

export async function startWorkshopServer(): Promise<WorkshopServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-mcp-workshop-'));
  const logger = createSilentLogger();
  const deps = createDeps(loadEnv({ DATA_DIR: dataDir, WEATHER_PROVIDER: 'offline' }), logger);
  const workshop = createApp({
    buildServer: () => createMcpServer(deps),
    logger,
    stateless: false,
    sessionTtlSeconds: 600,
    maxSessions: 20,
  });
  const server = workshop.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workshop.close();
      deps.tasks.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
