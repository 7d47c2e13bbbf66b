/**
 * @module test-support/workshop-process
 * The workshop MCP server for the agent's tests, run as the process it is in production: the
 * built `services/mcp-server/dist/index.js` on a free loopback port with a temporary task database.
 * The agent reaches it only over HTTP, as it would any MCP server; it imports none of its code.
 * `turbo.json` builds the server before the agent's tests run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '@mcp-workshop/test-infra';

export const SERVER_DIST_ENTRY = fileURLToPath(new URL('../../../mcp-server/dist/index.js', import.meta.url));

/** A cold start imports mathjs and the SQLite WebAssembly; a loaded CI machine needs some slack. */
const READY_TIMEOUT_MS = 15_000;
const READY_POLL_MS = 50;
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

/** Starts the built server and resolves once `/health` answers; fails with the server's stderr. */
export async function startWorkshopProcess(env: Record<string, string> = {}): Promise<WorkshopProcess> {
  if (!existsSync(SERVER_DIST_ENTRY)) {
    throw new Error(
      `${SERVER_DIST_ENTRY} is missing. Build it: pnpm --filter @mcp-workshop/mcp-server build`,
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-workshop-'));
  // A caller that must know the URL in advance (e.g. for MCP_RESOURCE_URL) passes PORT itself.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [SERVER_DIST_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // One server serves a whole test file; its calls are tests, not a client to slow down.
      MCP_RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stopChild(child, { graceMs: STOP_GRACE_MS });
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, () => stderr);
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl, mcpUrl: `${baseUrl}/mcp`, dataDir, close };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the workshop server exited early: ${stderr()}`);
    const ok = await fetch(`${baseUrl}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`the workshop server did not answer /health within ${READY_TIMEOUT_MS} ms: ${stderr()}`);
}
