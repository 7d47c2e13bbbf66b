import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePorts, stopChild } from './processes.js';

/** A child that ignores SIGTERM, as a wedged server would; it prints once its handler is in place. */
const STUBBORN = "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);";

function spawnNode(source: string) {
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'ignore'] });
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, ready };
}

describe('freePort', () => {
  it('returns a loopback port that a server can bind at once', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('rejects, instead of hanging, for a host no interface has', async () => {
    // 192.0.2.10 is a documentation address (RFC 5737): binding it fails with EADDRNOTAVAIL.
    await expect(freePort('192.0.2.10')).rejects.toThrow(/EADDRNOTAVAIL/);
  });
});

describe('freePorts', () => {
  it('returns as many distinct ports as asked for', async () => {
    const ports = await freePorts(4);
    expect(ports).toHaveLength(4);
    expect(new Set(ports).size).toBe(4);
  });
});

describe('stopChild', () => {
  it('stops a child that exits on SIGTERM without waiting out the grace period', async () => {
    const { child, ready } = spawnNode("console.log('ready'); setInterval(() => {}, 1000);");
    await ready;
    // A grace period longer than the test may run: only the child's own exit can end the wait.
    await stopChild(child, { graceMs: 10 * 60_000 });
    expect(child.signalCode).toBe('SIGTERM');
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const { child, ready } = spawnNode(STUBBORN);
    await ready;
    await stopChild(child, { graceMs: 200 });
    expect(child.signalCode).toBe('SIGKILL');
  });

  it('sends the signal it is given first', async () => {
    const { child, ready } = spawnNode(STUBBORN);
    await ready;
    await stopChild(child, { signal: 'SIGKILL', graceMs: 10_000 });
    expect(child.signalCode).toBe('SIGKILL');
  });

  it('returns at once for a child that has already exited, and when called twice', async () => {
    const { child, ready } = spawnNode("console.log('ready');");
    await ready;
    await new Promise((resolve) => child.once('exit', resolve));
    await stopChild(child);
    await stopChild(child);
    expect(child.exitCode).toBe(0);
  });
});
