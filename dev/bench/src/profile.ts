#!/usr/bin/env node
/**
 * @module profile
 * `pnpm bench:profile [--target ours-2026] [--limits on|off] [--seconds 8]`: one throughput target
 * under the bench's load (50 connections) with `node --cpu-prof`, then its CPU self time per
 * package, source-mapped through the bundle, and per call. For finding where a mode's time goes
 * before changing anything (ADR 011). Our server runs as shipped (rate limits on, at a limit the
 * load never reaches) unless `--limits off`. Only this entry does I/O; the reading is `cpu-profile.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type CpuProfile, functionsOf, selfTimeByPackage, sourceMapsFrom } from './cpu-profile.js';
import { runLoad, verifyCall } from './load.js';
import { LIMITS_OFF, startTarget, TARGETS, targetById } from './targets.js';

const CONNECTIONS = 50;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      target: { type: 'string', default: 'ours-2026' },
      limits: { type: 'string', default: 'on' },
      seconds: { type: 'string', default: '8' },
      rows: { type: 'string', default: '14' },
      detail: { type: 'string', multiple: true },
    },
    strict: true,
  });
  const ids = TARGETS.map((target) => target.id);
  if (!ids.includes(values.target) || !['on', 'off'].includes(values.limits)) {
    console.error(`usage: bench:profile [--target ${ids.join('|')}] [--limits on|off] [--seconds N]`);
    return 2;
  }
  const base = targetById(values.target);
  const target =
    values.limits === 'off' && base.server === 'ours'
      ? { ...base, env: { ...base.env, ...LIMITS_OFF } }
      : base;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-profile-'));
  try {
    const running = await startTarget(target, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    let calls = 0;
    try {
      const call = await target.prepare(running.url);
      await verifyCall(call);
      await runLoad(call, { connections: CONNECTIONS, durationSeconds: 1 });
      const load = await runLoad(call, { connections: CONNECTIONS, durationSeconds: Number(values.seconds) });
      calls = load.total;
      console.log(
        `${target.label}${base.server === 'ours' ? `, rate limits ${values.limits}` : ''}: ` +
          `${Math.round(load.requestsPerSecond)} req/s under the profiler, p99 ${load.p99Ms} ms`,
      );
    } finally {
      await running.stop();
    }
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the target wrote no profile (did it exit cleanly?)');
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const maps = sourceMapsFrom(readIfThere);
    const shares = selfTimeByPackage(profile, maps);
    const totalMs = shares.reduce((sum, row) => sum + row.ms, 0);
    // The warm-up's calls are in the profile too; counting only the timed ones overstates µs per call a little.
    console.log(
      `CPU (self time, not idle): ${Math.round(totalMs)} ms, about ${Math.round((totalMs * 1000) / Math.max(calls, 1))} µs per call`,
    );
    console.log('| where | self ms | self share | with its callees |\n|---|--:|--:|--:|');
    for (const row of shares.slice(0, Number(values.rows)))
      console.log(
        `| ${row.where} | ${Math.round(row.ms)} | ${(row.share * 100).toFixed(1)}% | ${(row.inclusiveShare * 100).toFixed(1)}% |`,
      );
    for (const place of values.detail ?? []) {
      console.log(
        `\n${place}, by function (inclusive first):\n| function | self | with its callees |\n|---|--:|--:|`,
      );
      for (const row of functionsOf(profile, maps, place).slice(0, Number(values.rows)))
        console.log(
          `| ${row.fn} | ${(row.selfShare * 100).toFixed(1)}% | ${(row.inclusiveShare * 100).toFixed(1)}% |`,
        );
    }
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
