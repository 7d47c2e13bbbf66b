/**
 * @module throughput
 * `tools/call` of a trivial tool on every target, 50 connections, rounds of fixed length; the
 * medians of the rounds are reported. Every target is measured in the same run, on the same
 * machine, so ratios between them hold even where absolute numbers move.
 */
import { median, runLoad, verifyCall } from './load.js';
import { startTarget, TARGETS, type Target } from './targets.js';

export interface ThroughputRow {
  id: string;
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

export interface ThroughputOptions {
  connections: number;
  rounds: number;
  roundSeconds: number;
}

/** One target: started, its call checked, a warm-up round, the timed rounds, checked again, stopped. */
export async function measureTarget(target: Target, options: ThroughputOptions): Promise<ThroughputRow> {
  const running = await startTarget(target);
  try {
    const call = await target.prepare(running.url);
    await verifyCall(call);
    // One short warm-up round, so the JIT and the connection pool are not what is measured.
    await runLoad(call, { connections: options.connections, durationSeconds: 1 });
    const rounds = [];
    for (let round = 0; round < options.rounds; round++) {
      rounds.push(
        await runLoad(call, { connections: options.connections, durationSeconds: options.roundSeconds }),
      );
    }
    await verifyCall(call);
    return {
      id: target.id,
      label: target.label,
      requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
      errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    };
  } finally {
    await running.stop();
  }
}

export async function measureThroughput(options: ThroughputOptions): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const target of TARGETS) {
    rows.push(await measureTarget(target, options));
    process.stderr.write(`  throughput: ${target.id} done\n`);
  }
  return rows;
}
