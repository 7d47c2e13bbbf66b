/**
 * @module haproxy
 * The real HAProxy binary in front of N backends on loopback, for tests. Its settings come from
 * deploy/haproxy/haproxy.cfg, the file the compose `scale` profile mounts: only the `bind` line and
 * the `server` lines are replaced, so a test proves the configuration that ships.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from './free-port.js';
import { findHaproxy } from './system-binaries.js';

/** The shipped configuration; src/ and dist/ are both three folders below the repository root. */
export const HAPROXY_CONFIG_PATH = fileURLToPath(
  new URL('../../../deploy/haproxy/haproxy.cfg', import.meta.url),
);

/** HAProxy parses its file and binds in milliseconds; a loaded CI box gets slack, not a hang. */
const READY_TIMEOUT_MS = 10_000;
const READY_POLL_MS = 25;
/** SIGTERM stops HAProxy at once (open SSE streams are cut); SIGKILL is only for a wedged process. */
const STOP_GRACE_MS = 3_000;

export interface HaproxyBackend {
  /** Defaults to 127.0.0.1. */
  host?: string;
  port: number;
}

export interface StartHaproxyOptions {
  backends: ReadonlyArray<HaproxyBackend>;
  /** The port to listen on (127.0.0.1 only); a free one when omitted. */
  port?: number;
  /** Another configuration in the same form as deploy/haproxy/haproxy.cfg. */
  configPath?: string;
}

export interface RunningHaproxy {
  /** e.g. http://127.0.0.1:41234 (no path: add /mcp). */
  url: string;
  port: number;
  /** HAProxy's own log (one line per request), for a failing test's message. */
  log(): string;
  /** Stops HAProxy and deletes its temporary folder. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Rewrites the shipped configuration for loopback: `bind` on 127.0.0.1:port, and in each backend one
 * `server` line per replica in place of the compose ones (which name Docker hosts and Docker's resolver).
 * Everything else, the balance, stick table, health check, retries and timeouts, is kept as it is.
 */
export function loopbackConfig(
  template: string,
  port: number,
  backends: ReadonlyArray<HaproxyBackend>,
): string {
  const lines = template.split('\n');
  const bind = lines.findIndex((line) => /^\s*bind\s/.test(line));
  const isServer = (line: string | undefined) => /^\s*server\s/.test(line ?? '');
  if (bind === -1 || !lines.some((line) => isServer(line))) {
    throw new Error('the HAProxy template needs a `bind` line and at least one `server` line');
  }
  const indent = (line: string | undefined) => /^\s*/.exec(line ?? '')?.[0] ?? '  ';
  // Every backend's block of servers becomes the same list, with the same ids, so a stick table
  // shared between backends points at the same replica in each.
  const servers = (like: string) =>
    backends.map(
      (backend, index) =>
        `${indent(like)}server replica-${index + 1} ${backend.host ?? '127.0.0.1'}:${backend.port} id ${index + 1}`,
    );
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (index === bind) out.push(`${indent(line)}bind 127.0.0.1:${port}`);
    else if (isServer(line)) {
      if (!isServer(lines[index - 1])) out.push(...servers(line));
    } else out.push(line);
  });
  return out.join('\n');
}

/** Starts HAProxy in the foreground and resolves once it accepts connections. */
export async function startHaproxy(options: StartHaproxyOptions): Promise<RunningHaproxy> {
  const binary = findHaproxy();
  if (!binary) throw new Error('HAProxy not found (apt-get install -y haproxy).');
  if (options.backends.length === 0) throw new Error('startHaproxy needs at least one backend');
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-workshop-haproxy-'));
  const port = options.port ?? (await freePort());
  const configFile = path.join(root, 'haproxy.cfg');
  const template = readFileSync(options.configPath ?? HAPROXY_CONFIG_PATH, 'utf8');
  writeFileSync(configFile, loopbackConfig(template, port, options.backends));

  // Output to a file, never a pipe: nobody would read a pipe and HAProxy would block on a full one.
  const logFile = path.join(root, 'haproxy.log');
  const out = openSync(logFile, 'w');
  // -db: stay in the foreground, so the child is HAProxy itself and a signal reaches it.
  const child = spawn(binary, ['-db', '-f', configFile], { stdio: ['ignore', out, out] });
  closeSync(out);
  const log = () => readFileSync(logFile, 'utf8');

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopChild(child, { graceMs: STOP_GRACE_MS });
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, port, log, stop };
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`haproxy exited with code ${child.exitCode}:\n${log().slice(-2000)}`);
    }
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`haproxy did not listen on 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms`);
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` right now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
