/**
 * Child-process helpers shared by the scripts (conformance.mjs, check-compose.mjs) and the tests of
 * scripts/lib: the one copy for .mjs files. TypeScript packages use `@mcp-workshop/shared/processes`,
 * whose `freePort`, `freePorts` and `stopChild` these mirror.
 */
import net from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `count` distinct free ports: each probe closes before the next, so two calls may return the same one. */
export async function freePorts(count) {
  const ports = new Set();
  for (let attempt = 0; ports.size < count && attempt < count * 10; attempt += 1) ports.add(await freePort());
  if (ports.size < count) throw new Error(`found ${ports.size} distinct free ports, not ${count}`);
  return [...ports];
}

/**
 * Stops `{ child, exited }` (exited: a promise of the exit): SIGTERM, then SIGKILL if it has not
 * exited within `graceMs`. Resolves once it is gone; `onKill` is told when SIGKILL was needed.
 */
export async function stopChild({ child, exited }, graceMs, onKill = () => {}) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer;
  const grace = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const stopped = await Promise.race([exited.then(() => true), grace]);
  clearTimeout(timer);
  if (!stopped) {
    onKill();
    child.kill('SIGKILL');
    await exited;
  }
}
