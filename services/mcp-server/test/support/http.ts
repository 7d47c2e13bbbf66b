/**
 * @module support/http
 * Starts the workshop catalogue on 127.0.0.1 with a port the OS picks, through the host's
 * `startCatalogue`, backed by a temporary task database and the offline weather, for the tool tests
 * that speak HTTP (notifications, elicitation, tasks). The host's own HTTP tests are dev/host-integration's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCatalogue, type LocalCatalogueOptions, startCatalogue } from '@mcp-workshop/mcp-host/run';
import catalogue from '../../src/catalogue.js';
import type { env, ToolDeps } from '../../src/deps.js';

export type TestServer = LocalCatalogue<typeof env, ToolDeps>;

export const FIXED_NOW = new Date('2026-07-28T12:00:00Z');

/** A server with a fixed clock and a fresh temporary database; `close()` deletes the database too. */
export async function startTestServer(options: LocalCatalogueOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-http-'));
  const server = await startCatalogue(catalogue, {
    now: () => FIXED_NOW,
    ...options,
    env: { DATA_DIR: dataDir, ...options.env },
  });
  return {
    ...server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
