/**
 * @module service-process
 * Starts one service as its own Node process on a loopback port and waits until its `/health`
 * answers. Its logs go to this terminal's stderr, as they would from `pnpm start`. The free port
 * and the stop (SIGTERM, then SIGKILL after 5 s) are shared's, the one copy every package uses.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { freePort, stopChild } from '@mcp-workshop/shared/processes';
import { entryOf, type ServiceSpec } from './services.js';

/** A cold server imports mathjs and SQLite's WebAssembly; a busy laptop needs some slack. */
export const READY_TIMEOUT_MS = 20_000;
/** Each `pnpm ask` waits for a cold start; polling often keeps the wait past the start short. */
const READY_POLL_MS = 10;
/** One `/health` request; a service that accepts but never answers is asked again, not waited on. */
const HEALTH_REQUEST_TIMEOUT_MS = 2_000;
/** A free port can be taken between our check and the child's bind; try a few before giving up. */
const PORT_ATTEMPTS = 3;

export interface RunningService {
  /** e.g. http://127.0.0.1:41234/mcp or http://127.0.0.1:41235/v1 */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface StartServiceOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  /** The environment the service gets; its host and port variables are set on top. */
  env: NodeJS.ProcessEnv;
}

export async function startService(spec: ServiceSpec, options: StartServiceOptions): Promise<RunningService> {
  const entry = entryOf(spec.packageName);
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing. Build first: pnpm build (pnpm ask and pnpm chat do it for you).`);
  }
  let lastError: Error | undefined;
  const attempts = options.port === 0 ? PORT_ATTEMPTS : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = options.port === 0 ? await freePort(options.host) : options.port;
    const child = spawn(process.execPath, [entry], {
      env: { ...options.env, [spec.hostVar]: options.host, [spec.portVar]: String(port) },
      // stdout stays free for the agent's answer; a service logs to stderr only.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://${dialable(options.host)}:${port}`;
    try {
      await waitForHealth(`${base}${spec.healthPath}`, child, spec.title);
      return { url: `${base}${spec.urlPath}`, pid: child.pid ?? 0, stop: () => stopChild(child) };
    } catch (error) {
      await stopChild(child);
      lastError = error as Error;
    }
  }
  throw lastError ?? new Error(`could not start ${spec.title}`);
}

async function waitForHealth(url: string, child: ChildProcess, title: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `${title} exited with code ${child.exitCode} before it was ready (its error is above).`,
      );
    }
    if (await answersOk(url)) return;
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`${title} did not answer ${url} within ${READY_TIMEOUT_MS / 1000} s.`);
}

/**
 * Whether a GET of `url` answers 2xx. node:http, not fetch: loading fetch (undici) costs a cold
 * launcher tens of milliseconds, on the path of every `pnpm ask`.
 */
export function answersOk(url: string, timeoutMs = HEALTH_REQUEST_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      resolve(status >= 200 && status < 300);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(false));
  });
}

/** A wildcard bind is reached through loopback; an IPv6 literal needs brackets in a URL. */
export function dialable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
