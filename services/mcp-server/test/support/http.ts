/**
 * @module support/http
 * Starts the workshop server on 127.0.0.1 with a port the OS picks, backed by a temporary task
 * database and the offline weather, for tests that speak HTTP. The raw HTTP helpers they send with
 * (`EraClient`, `postInitialize`, …) come from `@mcp-workshop/test-infra`, shared with the host's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalServer, type LocalServerOptions, startLocalServer } from '../../src/local-server.js';

export type TestServer = LocalServer;

export const FIXED_NOW = new Date('2026-07-28T12:00:00Z');

/** A server with a fixed clock and a fresh temporary database; `close()` deletes the database too. */
export async function startTestServer(
  options: Omit<LocalServerOptions, 'dataDir'> = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-http-'));
  const server = await startLocalServer({ dataDir, now: () => FIXED_NOW, ...options });
  return {
    ...server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
