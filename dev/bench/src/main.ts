#!/usr/bin/env node
/**
 * @module main
 * `pnpm bench`: this server against the floor (raw node:http) and the reference servers, all in
 * one run on this machine, printed as ratios. `pnpm bench --smoke` runs every section briefly,
 * only to prove the bench still works (CI does this); it never fails on a timing, only when a
 * target breaks or answers with errors.
 */
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureAgentOverhead, measurePnpmAsk } from './agent-overhead.js';
import { measureColdStart } from './cold-start.js';
import { measureDevLoop } from './dev-loop.js';
import { measureLimiterCost } from './limiter-cost.js';
import { measureHeapOverCalls, measureIdleSessions } from './memory.js';
import { PLANS, SECTIONS } from './plan.js';
import { type Goal, printReport } from './report.js';
import { measureScale } from './scale.js';
import { measureSdkSeries } from './sdk-series.js';
import { measureTasks } from './tasks.js';
import { measureTelemetry } from './telemetry.js';
import { measureThroughput } from './throughput.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
    },
    strict: true,
  });
  const plan = values.smoke ? PLANS.smoke : PLANS.full;
  const only = new Set(values.only ?? SECTIONS);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(
    `pnpm bench${values.smoke ? ' --smoke (timings not meaningful)' : ''}: Node ${process.version}, ` +
      `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  );
  process.stderr.write('running (progress on stderr, results on stdout)\n');

  const report = {
    throughput: only.has('throughput') ? await measureThroughput(plan) : undefined,
    limits: only.has('limits') ? await measureLimiterCost(plan.limiterCalls) : undefined,
    sdkSeries: only.has('sdk-series') ? await measureSdkSeries(REPO_ROOT, plan) : undefined,
    coldStart: only.has('cold-start') ? await measureColdStart(plan.coldStarts) : undefined,
    sessions: only.has('memory') ? await measureIdleSessions(plan.idleSessions) : undefined,
    heap: only.has('memory') ? await measureHeapOverCalls(plan.heapCalls, plan.heapChunks) : undefined,
    agent: only.has('agent') ? await measureAgentOverhead(plan.agentIterations) : undefined,
    askMs: only.has('agent') ? await measurePnpmAsk(plan.askRepeats, REPO_ROOT) : undefined,
    scale: only.has('scale')
      ? await measureScale({
          connections: plan.connections,
          rounds: plan.rounds,
          roundSeconds: plan.roundSeconds,
          addsPerRound: plan.scaleAdds,
          listedTasks: plan.scaleListed,
        })
      : undefined,
    telemetry: only.has('telemetry')
      ? await measureTelemetry({
          connections: plan.connections,
          rounds: plan.rounds,
          roundSeconds: plan.roundSeconds,
          coldStarts: plan.coldStarts,
          // The same counted add_task rounds as the scale section, each on a fresh database.
          addsPerRound: plan.scaleAdds,
        })
      : undefined,
    devLoop: only.has('dev-loop') ? await measureDevLoop(plan.devLoopSaves) : undefined,
    tasks: only.has('tasks') ? await measureTasks(plan.tasks) : undefined,
  };
  const goals: Goal[] = printReport(report, plan);
  const broken = goals.filter((goal) => goal.kind === 'correctness' && !goal.met);
  return broken.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
