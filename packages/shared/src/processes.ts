/**
 * @module processes
 * The two child-process helpers every package that starts a server needs: a free loopback port
 * and a stop that cannot hang. Node-only, so it is its own entry (`@mcp-workshop/shared/processes`)
 * and the main entry stays free of `node:` imports. It lives here, in a runtime package, because
 * shipped code (the launcher, the auth server's `process` export) uses it, and shipped code must
 * not depend on the test-only `@mcp-workshop/test-infra` (which re-exports it for tests).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** After the first signal, how long a server may take to close its sessions and database. */
export const DEFAULT_STOP_GRACE_MS = 5_000;

/**
 * A port the OS says is free on `host` right now. Another process can take it before the caller
 * binds it, so callers that spawn a server on it retry or tolerate a failed start.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** `count` distinct free ports on `host`: each probe closes before the next, so two calls may return the same one. */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const ports = new Set<number>();
  for (let attempt = 0; ports.size < count && attempt < count * 10; attempt += 1)
    ports.add(await freePort(host));
  if (ports.size < count) throw new Error(`found ${ports.size} distinct free ports, not ${count}`);
  return [...ports];
}

export interface StopChildOptions {
  /** The first signal; SIGKILL skips the grace period's purpose but still waits for the exit. */
  signal?: NodeJS.Signals;
  /** How long after `signal` a child may take before SIGKILL; a wedged child must not hang a test or a launcher. */
  graceMs?: number;
}

/** Sends `signal` (SIGTERM), then SIGKILL after `graceMs`; resolves once the child has exited. Safe to call twice. */
export async function stopChild(child: ChildProcess, options: StopChildOptions = {}): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(options.signal ?? 'SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.graceMs ?? DEFAULT_STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
