/**
 * `pnpm scale:local` (scripts/scale-local.mjs) for real: replicas of the built server on a throwaway
 * Postgres and HAProxy in front, as module 12 of doc/WORKSHOP.md has a participant run them. Calls
 * go through the balancer's port and must be served by every replica; Ctrl-C (SIGINT) must stop all
 * of them, and a replica that dies must take the rest down with a message instead of half a topology.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { accepts, freePorts, type PostgresCluster, startPostgres, stopChild } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topologyAvailable } from './test-support/topology.js';

const available = topologyAvailable('the scale-out tests (services/scale-e2e)');

const SCRIPT = fileURLToPath(new URL('../../../scripts/scale-local.mjs', import.meta.url));
/** Two cold replicas (migrations included) and HAProxy on a shared 2-core box: slack, not a hang. */
const READY_MS = 90_000;
/** After SIGINT: HAProxy, then the replicas' 5 s grace each at worst, in parallel. */
const STOP_MS = 20_000;
/** Round-robin over two replicas: six calls reach both several times over. */
const CALLS = 6;

interface Run {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
  /** Resolves once the output contains `pattern`; rejects after `ms` or when the script exits first. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
}

function startScaleLocal(databaseUrl: string, lbPort: number, replicaPorts: number[]): Run {
  const child = spawn(
    process.execPath,
    [SCRIPT, '--port', String(lbPort), '--replica-ports', replicaPorts.join(',')],
    { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const match = text.match(pattern);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`scale-local exited (${child.exitCode}) first:\n${text}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${ms} ms:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, output: () => text, exit, waitFor };
}

function pidsIn(output: string): number[] {
  return [...output.matchAll(/^scale:local: \S+\s+http:\/\/127\.0\.0\.1:\d+\/mcp {2}pid (\d+)/gm)].map((m) =>
    Number(m[1]),
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!available)('pnpm scale:local', () => {
  let postgres: PostgresCluster;
  const runs: Run[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    for (const run of runs) await stopChild(run.child, { graceMs: STOP_MS });
    await postgres?.destroy();
  });

  it('serves calls through HAProxy from both replicas, and stops everything on Ctrl-C', async () => {
    const databaseUrl = await postgres.createDatabase('scale_local');
    const [lbPort = 0, ...replicaPorts] = await freePorts(3);
    const run = startScaleLocal(databaseUrl, lbPort, replicaPorts);
    runs.push(run);
    await run.waitFor(/all ready; Ctrl-C stops them all/, READY_MS);
    const pids = pidsIn(run.output());
    expect(pids, run.output()).toHaveLength(3);

    for (let i = 0; i < CALLS; i += 1) {
      const response = await fetch(`http://127.0.0.1:${lbPort}/tools/add_task`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `through the LB ${i}` }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { isError?: boolean; content: Array<{ text: string }> };
      expect(body.isError ?? false, JSON.stringify(body)).toBe(false);
      expect(body.content[0]?.text).toContain(`through the LB ${i}`);
    }
    // HAProxy logs each request with the replica that served it; the output shows that log.
    await run.waitFor(
      new RegExp(`(?:mcp-servers/replica-\\d[^\\n]*POST /tools/add_task[\\s\\S]*){${CALLS}}`),
      5_000,
    );
    const served = new Set(
      [...run.output().matchAll(/mcp-servers\/(replica-\d) [^\n]*POST \/tools\/add_task/g)].map((m) => m[1]),
    );
    expect([...served].sort()).toEqual(['replica-1', 'replica-2']);

    run.child.kill('SIGINT');
    const code = await Promise.race([
      run.exit,
      new Promise((resolve) => setTimeout(() => resolve('still running'), STOP_MS)),
    ]);
    expect(code, run.output()).toBe(0);
    expect(run.output()).toMatch(/SIGINT: stopping HAProxy and the replicas\n[\s\S]*scale:local: stopped/);
    expect(pids.filter(alive)).toEqual([]);
    expect(await Promise.all([lbPort, ...replicaPorts].map(accepts))).toEqual([false, false, false]);
  });

  it('stops HAProxy and the other replica, and exits 1, when a replica dies', async () => {
    const databaseUrl = await postgres.createDatabase('scale_local_dies');
    const [lbPort = 0, ...replicaPorts] = await freePorts(3);
    const run = startScaleLocal(databaseUrl, lbPort, replicaPorts);
    runs.push(run);
    await run.waitFor(/all ready; Ctrl-C stops them all/, READY_MS);
    const [first = 0, second = 0, haproxy = 0] = pidsIn(run.output());
    process.kill(second, 'SIGKILL');
    const code = await Promise.race([
      run.exit,
      new Promise((resolve) => setTimeout(() => resolve('still running'), STOP_MS)),
    ]);
    expect(code, run.output()).toBe(1);
    expect(run.output()).toContain(`replica-2 (pid ${second}) exited (SIGKILL); stopping the others`);
    expect([first, haproxy].filter(alive)).toEqual([]);
    expect(await accepts(lbPort)).toBe(false);
  });
});
