/**
 * @module test-support/workshop-process
 * The workshop MCP server for the agent's tests, run as the process it is in production: the
 * built `services/mcp-server/dist/index.js` on a loopback port the OS picks, with a temporary task
 * database. It is ready when it says where it listens (never a /health poll another server could answer).
 * The agent reaches it only over HTTP, as it would any MCP server; it imports none of its code.
 * `turbo.json` builds the server before the agent's tests run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnnouncingServer, stopChild } from '@mcp-workshop/test-infra';

export const SERVER_DIST_ENTRY = fileURLToPath(new URL('../../../mcp-server/dist/index.js', import.meta.url));

/** A cold start imports mathjs and the SQLite WebAssembly; a loaded CI machine needs some slack. */
const READY_TIMEOUT_MS = 15_000;
/** After SIGTERM, how long the server may take to close its sessions and database before SIGKILL. */
const STOP_GRACE_MS = 3_000;

export interface WorkshopProcess {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  /** The task database's folder (DATA_DIR). */
  dataDir: string;
  close(): Promise<void>;
}

/** Starts the built server and resolves once it says it listens; fails with the server's stderr. */
export async function startWorkshopProcess(env: Record<string, string> = {}): Promise<WorkshopProcess> {
  if (!existsSync(SERVER_DIST_ENTRY)) {
    throw new Error(
      `${SERVER_DIST_ENTRY} is missing. Build it: pnpm --filter @mcp-workshop/mcp-server build`,
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-workshop-'));
  try {
    const { child, mcpUrl } = await startAnnouncingServer({
      entry: SERVER_DIST_ENTRY,
      // A caller that must know the URL in advance (e.g. for MCP_RESOURCE_URL) passes PORT itself.
      env: {
        DATA_DIR: dataDir,
        // One server serves a whole test file; its calls are tests, not a client to slow down.
        MCP_RATE_LIMIT_PER_MINUTE: '0',
        ...env,
      },
      timeoutMs: READY_TIMEOUT_MS,
      name: 'the workshop server',
    });
    const close = async () => {
      await stopChild(child, { graceMs: STOP_GRACE_MS });
      rmSync(dataDir, { recursive: true, force: true });
    };
    return { baseUrl: new URL(mcpUrl).origin, mcpUrl, dataDir, close };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
