/**
 * @module test-support/replica
 * One mcp-server replica as production runs it: the built `dist/index.js` in its own Node process on
 * a loopback port the OS picks (it says which in its log), configured only by its environment, with
 * tasks in Postgres (DATABASE_URL).
 * A test can SIGKILL it, which no in-process server allows. Partner: `topology.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOUNCING_LOG_LEVEL, stopChild, waitForAnnouncedMcpUrl } from '@mcp-workshop/test-infra';

/** The server as `pnpm --filter @mcp-workshop/mcp-server build` leaves it. */
export const SERVER_ENTRY = fileURLToPath(new URL('../../../mcp-server/dist/index.js', import.meta.url));

/** A cold start imports mathjs and runs the migrations; a shared 2-core box needs slack, not a hang. */
const READY_TIMEOUT_MS = 30_000;
const READY_POLL_MS = 50;
/** After SIGTERM, how long a replica may take to close its sessions and its pool. */
const STOP_GRACE_MS = 5_000;

export interface Replica {
  name: string;
  port: number;
  pid: number;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  baseUrl: string;
  /** Its stderr so far (LOG_LEVEL=info), for a failing test's message. */
  log(): string;
  /** True once it has exited, for whatever reason. */
  exited(): boolean;
  /** kill -9: no goodbye, open connections are cut mid-request. */
  kill(): Promise<void>;
  /** SIGSTOP: the process keeps its sockets and does nothing until `thaw`, like a replica whose host stalls. */
  freeze(): void;
  /** SIGCONT after `freeze`; harmless on a process that is running or gone. */
  thaw(): void;
  /** SIGTERM, then SIGKILL after a grace period; deletes its temporary folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface ReplicaOptions {
  name: string;
  databaseUrl: string;
  /** Set on top of the defaults below, e.g. { MCP_STATELESS: 'true' }. */
  env?: Record<string, string>;
}

/**
 * Spawns a replica and resolves once it has said where it listens and `GET /health/ready` answers
 * 200 there (Postgres reachable, migrated).
 */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} is missing: pnpm --filter @mcp-workshop/mcp-server build`);
  }
  const root = mkdtempSync(path.join(tmpdir(), `scale-e2e-${options.name}-`));
  const logFile = path.join(root, 'stderr.log');
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: options.databaseUrl,
      // Never used with DATABASE_URL set, but a replica must not write into the package's data folder.
      DATA_DIR: path.join(root, 'data'),
      // Every client of the tests comes from 127.0.0.1 (HAProxy included): per-IP limits would throttle the load.
      MCP_RATE_LIMIT_PER_MINUTE: '0',
      MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: '0',
      // Names the replica in its spans when a test turns telemetry on, as compose names mcp-server-1..3.
      OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=replica-${options.name}`,
      ...options.env,
      // Its "listening" line, which names the port, is written at info.
      LOG_LEVEL: ANNOUNCING_LOG_LEVEL,
    },
    // A file, not a pipe: nobody reads a pipe while a test runs, and a full one would block the server.
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const log = () => readFileSync(logFile, 'utf8');
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  let removed = false;
  const stop = async () => {
    await stopChild(child, { graceMs: STOP_GRACE_MS });
    if (!removed) rmSync(root, { recursive: true, force: true });
    removed = true;
  };
  let mcpUrl: URL;
  try {
    const name = `replica ${options.name}`;
    mcpUrl = new URL(await waitForAnnouncedMcpUrl({ child, log, timeoutMs: READY_TIMEOUT_MS, name }));
    await waitReady(new URL('/health/ready', mcpUrl).href, child, options.name, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    name: options.name,
    port: Number(mcpUrl.port),
    pid: child.pid ?? 0,
    mcpUrl: mcpUrl.href,
    baseUrl: mcpUrl.origin,
    log,
    exited,
    kill: () => stopChild(child, { signal: 'SIGKILL', graceMs: STOP_GRACE_MS }),
    freeze: () => {
      if (!exited()) child.kill('SIGSTOP');
    },
    thaw: () => {
      if (!exited()) child.kill('SIGCONT');
    },
    stop,
  };
}

async function waitReady(url: string, child: ChildProcess, name: string, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`replica ${name} exited with code ${child.exitCode} before it was ready:\n${log()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      last = `HTTP ${response.status} ${await response.text()}`;
      if (response.status === 200) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(
    `replica ${name} was not ready at ${url} within ${READY_TIMEOUT_MS} ms (${last}):\n${log()}`,
  );
}
