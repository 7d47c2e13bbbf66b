/**
 * @module throughput
 * `tools/call` of a trivial tool on every target, 50 connections, rounds of fixed length; the
 * medians of the rounds are reported. Every target is measured in the same run, on the same
 * machine, so ratios between them hold even where absolute numbers move.
 */
import { type LoadResult, median, runLoad, verifyCall } from './load.js';
import { processCpuMs } from './process-cpu.js';
import {
  LIMITS_OFF,
  LIMITS_OFF_SUFFIX,
  type PreparedCall,
  type RunningTarget,
  startTarget,
  TARGETS,
  type Target,
} from './targets.js';

export interface ThroughputRow {
  id: string;
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  /** The server's CPU time per call, µs (median of the rounds); undefined where `/proc` is missing. */
  cpuUsPerCall?: number;
}

export interface ThroughputOptions {
  connections: number;
  rounds: number;
  roundSeconds: number;
}

/** One round of load on each of `targets`, in turn, `rounds` times; a row per target. */
async function measureInTurn(
  targets: readonly Target[],
  options: ThroughputOptions,
): Promise<ThroughputRow[]> {
  const running = await Promise.all(targets.map((target) => startTarget(target)));
  try {
    const calls = await Promise.all(
      targets.map((target, i) => target.prepare((running[i] as RunningTarget).url)),
    );
    for (const call of calls) {
      await verifyCall(call);
      // One short warm-up round, so the JIT and the connection pool are not what is measured.
      await runLoad(call, { connections: options.connections, durationSeconds: 1 });
    }
    const rounds: LoadResult[][] = targets.map(() => []);
    const cpu: number[][] = targets.map(() => []);
    for (let round = 0; round < options.rounds; round++) {
      // A, B, then B, A: whatever favours the one measured first (or second) falls on each in turn.
      const order = calls.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order) {
        const call = calls[i] as PreparedCall;
        const pid = running[i]?.child.pid;
        const before = processCpuMs(pid);
        const load = await runLoad(call, {
          connections: options.connections,
          durationSeconds: options.roundSeconds,
        });
        const after = processCpuMs(pid);
        rounds[i]?.push(load);
        if (before !== undefined && after !== undefined && load.total > 0)
          cpu[i]?.push(((after - before) * 1000) / load.total);
      }
    }
    for (const call of calls) await verifyCall(call);
    return targets.map((target, i) => {
      const own = rounds[i] ?? [];
      return {
        id: target.id,
        label: target.label,
        requestsPerSecond: median(own.map((r) => r.requestsPerSecond)),
        p99Ms: median(own.map((r) => r.p99Ms)),
        errors: own.reduce((sum, r) => sum + r.errors, 0),
        ...(cpu[i]?.length ? { cpuUsPerCall: median(cpu[i] as number[]) } : {}),
      };
    });
  } finally {
    await Promise.all(running.map((target) => target.stop()));
  }
}

/** One target: started, its call checked, a warm-up round, the timed rounds, checked again, stopped. */
export async function measureTarget(target: Target, options: ThroughputOptions): Promise<ThroughputRow> {
  const [row] = await measureInTurn([target], options);
  return row as ThroughputRow;
}

/**
 * Every target; each of our modes beside a copy with both rate limits off (`-limits-off`), the two
 * measured round by round in turn (A B, B A, …), so that a drift of the machine during the run
 * falls on both.
 */
export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const target of TARGETS) {
    const group = target.server === 'ours' ? [target, withLimitsOff(target)] : [target];
    rows.push(...(await measureInTurn(group, options)));
    process.stderr.write(`  throughput: ${group.map((each) => each.id).join(' and ')} done\n`);
  }
  return rows;
}

/** The same target with both rate limits off: the row that shows what they cost. */
export function withLimitsOff(target: Target): Target {
  return {
    ...target,
    id: `${target.id}${LIMITS_OFF_SUFFIX}`,
    label: `${target.label}, rate limits off`,
    env: { ...target.env, ...LIMITS_OFF },
  };
}
