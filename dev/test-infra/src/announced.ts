/**
 * @module announced
 * Readiness from the child's own word. A test that picks a free port, hands it to a child and polls
 * `/health` there can hear another process that took the port in between (CI once read another
 * server's page as JSON that way). A child started on `PORT=0` binds a port the OS gives it and
 * says where in its "listening" log line, so no one else can answer for it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { testInfraEnv } from './env.js';

/** The message of the MCP host's pino line written once the HTTP server listens (run/serve-http.ts). */
export const MCP_LISTENING_MESSAGE = 'MCP server listening';
/** The log level at which that line is written; a quieter level would hide the readiness signal. */
export const ANNOUNCING_LOG_LEVEL = 'info';

const POLL_MS = 25;
/** After the child exits, how long its piped output may take to be read to the end. */
const DRAIN_MS = 1_000;
/** How much of a started server's stderr is kept: enough for a failing test's message. */
const LOG_TAIL_CHARS = 4_000;

/** The `url` of the first "MCP server listening" line in a pino JSON log, if it has been written. */
export function announcedMcpUrl(log: string): string | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes(MCP_LISTENING_MESSAGE)) continue;
    try {
      const record = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (record.msg === MCP_LISTENING_MESSAGE && typeof record.url === 'string') return record.url;
    } catch {
      // a partly written line; the next poll reads it whole
    }
  }
  return undefined;
}

export interface WaitForAnnouncementOptions {
  child: ChildProcess;
  /** The child's log so far (its stderr, collected from a pipe or read from a file). */
  log: () => string;
  timeoutMs: number;
  /** Names the child in errors, e.g. "the workshop server" or "replica a". */
  name: string;
}

/**
 * Resolves with the MCP URL the child announces. Rejects with the child's log when it exits first or
 * says nothing within the time.
 */
export async function waitForAnnouncedMcpUrl(options: WaitForAnnouncementOptions): Promise<string> {
  const { child, log, timeoutMs, name } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const url = announcedMcpUrl(log());
    if (url) return url;
    if (child.exitCode !== null || child.signalCode !== null) {
      await outputRead(child);
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it listened:\n${log()}`);
    }
    if (Date.now() > deadline)
      throw new Error(`${name} did not say it listened within ${timeoutMs} ms:\n${log()}`);
    await sleep(POLL_MS);
  }
}

/**
 * Waits (briefly) for the child's pipes to be read to the end: Node documents that at 'exit' a
 * child's stdio may still be open. Not seen here (a 1 MiB write before exiting was always read
 * whole), so no test shows it; the wait is bounded and costs nothing on success.
 */
async function outputRead(child: ChildProcess): Promise<void> {
  const open = [child.stdout, child.stderr].filter((stream) => stream && !stream.destroyed);
  await Promise.race([Promise.all(open.map((stream) => stream && once(stream, 'close'))), sleep(DRAIN_MS)]);
}

export interface StartAnnouncingServerOptions {
  /** A built MCP server entry, e.g. `services/mcp-server/dist/index.js`. */
  entry: string;
  /** Set over PATH, HOST=127.0.0.1 and PORT=0 (a caller that must know its URL in advance sets PORT). */
  env?: Record<string, string>;
  timeoutMs: number;
  /** Names the server in errors. */
  name: string;
}

export interface AnnouncingServer {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:41234/mcp, as the server announced it. */
  mcpUrl: string;
  /** The tail of its stderr so far. */
  log(): string;
}

/**
 * Starts a built MCP server entry with only the given environment, on a port the OS picks, and
 * resolves once it says where it listens. If it does not, the child is killed and the error quotes
 * its log. Stopping a started one is the caller's (`stopChild`).
 */
export async function startAnnouncingServer(
  options: StartAnnouncingServerOptions,
): Promise<AnnouncingServer> {
  const child = spawn(process.execPath, [options.entry], {
    env: {
      PATH: testInfraEnv.path,
      HOST: '127.0.0.1',
      PORT: '0',
      ...options.env,
      // The "listening" line, the readiness signal, is written at info.
      LOG_LEVEL: ANNOUNCING_LOG_LEVEL,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-LOG_TAIL_CHARS);
  });
  try {
    const mcpUrl = await waitForAnnouncedMcpUrl({
      child,
      log: () => log,
      timeoutMs: options.timeoutMs,
      name: options.name,
    });
    return { child, mcpUrl, log: () => log };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
