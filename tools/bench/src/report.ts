/**
 * @module report
 * Prints the bench's tables, with ratios to the floor and to server-everything, and checks each
 * goal. Timing goals are reported, never enforced; errors in a run are correctness, and are.
 */
import type { AgentOverhead } from './agent-overhead.js';
import type { ColdStartRow } from './cold-start.js';
import type { HeapRow, SessionMemoryRow } from './memory.js';
import type { ThroughputRow } from './throughput.js';

export interface Report {
  throughput?: ThroughputRow[];
  coldStart?: ColdStartRow[];
  sessions?: SessionMemoryRow[];
  heap?: HeapRow[];
  agent?: AgentOverhead;
  askMs?: number;
}

export interface Goal {
  text: string;
  met: boolean;
  kind: 'timing' | 'correctness';
}

/**
 * "Flat": from the second sample to the last, the heap grows by
 * at most this. The first chunk (a tenth of the run in a full bench) is warm-up: the server pool fills up (up to 32 idle instances)
 * and caches and JIT settle once; a leak keeps growing after that.
 */
export const FLAT_HEAP_MB = 1;

const OURS = ['ours-2025', 'ours-2026', 'ours-stateless'];

/** Heap growth from the second sample to the last; with fewer than two samples, from the first. */
function growthAfterWarmUp(row: HeapRow): number {
  const from = row.samplesMb[1] ?? row.firstMb;
  return row.lastMb - from;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

export function printReport(
  report: Report,
  plan: { connections: number; rounds: number; roundSeconds: number },
) {
  const goals: Goal[] = [];
  const goal = (text: string, met: boolean, kind: Goal['kind'] = 'timing') => goals.push({ text, met, kind });

  if (report.throughput) {
    const rows = report.throughput;
    const raw = rows.find((r) => r.id === 'raw');
    const everything = rows.find((r) => r.id === 'everything');
    console.log(
      `\n## tools/call of a trivial tool: ${plan.connections} connections, median of ${plan.rounds} rounds of ${plan.roundSeconds} s\n`,
    );
    console.log(
      table(
        ['target', 'req/s', '× raw node:http', '× server-everything', 'p99 ms', 'p99 ÷ everything', 'errors'],
        rows.map((r) => [
          r.label,
          fixed(r.requestsPerSecond),
          raw ? fixed(r.requestsPerSecond / raw.requestsPerSecond, 3) : '',
          everything ? fixed(r.requestsPerSecond / everything.requestsPerSecond, 2) : '',
          fixed(r.p99Ms),
          everything ? fixed(r.p99Ms / Math.max(1, everything.p99Ms), 2) : '',
          String(r.errors),
        ]),
      ),
    );
    for (const row of rows) goal(`${row.label}: 0 errors`, row.errors === 0, 'correctness');
    for (const row of rows.filter((r) => OURS.includes(r.id))) {
      if (raw)
        goal(`${row.label}: ≥ 0.25× raw node:http`, row.requestsPerSecond >= 0.25 * raw.requestsPerSecond);
      if (everything) {
        goal(
          `${row.label}: ≥ 3× server-everything`,
          row.requestsPerSecond >= 3 * everything.requestsPerSecond,
        );
        goal(`${row.label}: p99 ≤ 1/3 of server-everything's`, row.p99Ms <= everything.p99Ms / 3);
      }
    }
  }

  if (report.coldStart) {
    const raw = report.coldStart.find((r) => r.id === 'raw');
    console.log('\n## Cold start: spawn to the first answered request (median)\n');
    console.log(
      table(
        ['target', 'ms', '× raw node:http'],
        report.coldStart.map((r) => [r.label, fixed(r.ms), raw ? fixed(r.ms / raw.ms, 2) : '']),
      ),
    );
    for (const row of report.coldStart.filter((r) => r.id.startsWith('ours'))) {
      if (raw) goal(`cold start, ${row.label}: ≤ 2× raw node:http`, row.ms <= 2 * raw.ms);
    }
  }

  if (report.sessions) {
    console.log('\n## Memory of an idle 2025 session (heap after GC, per session)\n');
    console.log(
      table(
        ['target', 'KiB per session'],
        report.sessions.map((r) => [r.label, fixed(r.kibPerSession, 1)]),
      ),
    );
    const ours = report.sessions.find((r) => r.id === 'ours-2025');
    if (ours) goal('an idle 2025 session: ≤ 48 KiB', ours.kibPerSession <= 48);
  }

  if (report.heap) {
    console.log('\n## Heap over many calls (after GC, sampled after each chunk)\n');
    console.log(
      table(
        ['mode', 'calls', 'first MB', 'last MB', 'growth after warm-up MB', 'samples', 'errors'],
        report.heap.map((r) => [
          r.label,
          String(r.calls),
          fixed(r.firstMb, 1),
          fixed(r.lastMb, 1),
          fixed(growthAfterWarmUp(r), 2),
          r.samplesMb.map((mb) => fixed(mb, 1)).join(' '),
          String(r.errors),
        ]),
      ),
    );
    for (const row of report.heap) {
      goal(
        `${row.label}: heap flat over ${row.calls} calls (≤ ${FLAT_HEAP_MB} MB growth after the first tenth)`,
        growthAfterWarmUp(row) <= FLAT_HEAP_MB,
      );
      goal(`${row.label}: 0 errors over ${row.calls} calls`, row.errors === 0, 'correctness');
    }
  }

  if (report.agent) {
    const a = report.agent;
    console.log(`\n## The agent (median of ${a.iterations} questions, one tool round trip each)\n`);
    console.log(
      table(
        ['what', 'ms'],
        [
          ['agent.ask("What is 2 + 3?"): model, calculate, model', fixed(a.agentMs, 2)],
          ['the same two model requests, raw HTTP', fixed(a.modelMs, 2)],
          ['the same tools/call, plain SDK client', fixed(a.mcpMs, 2)],
          ["the agent's own overhead", fixed(a.overheadMs, 2)],
          ...(report.askMs === undefined
            ? []
            : [['`pnpm -s ask` after a build, nothing running', fixed(report.askMs)]]),
        ],
      ),
    );
    goal('agent overhead per tool round trip: ≤ 2 ms', a.overheadMs <= 2);
    if (report.askMs !== undefined) goal('`pnpm ask` after a build: ≤ 1.5 s', report.askMs <= 1_500);
  }

  console.log('\n## Goals\n');
  for (const g of goals)
    console.log(`${g.met ? '✓' : '✗'} ${g.text}${g.kind === 'timing' ? '' : ' (correctness)'}`);
  return goals;
}
