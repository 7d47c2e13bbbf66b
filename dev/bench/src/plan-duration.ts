/**
 * @module plan-duration
 * How long a bench run takes, computed from its plan (plan.ts) and the sections' own lists of
 * targets, so the time the docs promise moves when the plan does. Timed phases (rounds × seconds)
 * count exactly; counted work (calls, adds, spawns) is turned into seconds at the rates the
 * reference machine measured. Partner file: plan-duration.test.ts holds the docs to it.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_WARM_UP } from './agent-overhead.js';
import { COLD_START_CASES } from './cold-start.js';
import { LIMITER_REPEATS } from './limiter-cost.js';
import { IDLE_SESSION_TARGETS, OUR_MODES } from './memory.js';
import type { Plan } from './plan.js';
import { type Adapter, MIN_ADD_ROUND_SECONDS, storageAdapters } from './scale.js';
import { readSeries } from './sdk-series.js';
import { TARGETS } from './targets.js';
import { TASK_WARM_UP } from './tasks.js';
import { MODES as TELEMETRY_MODES } from './telemetry.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The reference machine (2 cores, AMD EPYC, Node 20.20; the figures in README.md's performance
 * table and ADR 011): what counted work costs there. Another machine scales them all alike.
 */
export const REFERENCE_RATES = {
  /** `tools/call` of `calculate` on this server, the three modes together (1,155 to 1,946 req/s). */
  callsPerSecond: 1_500,
  /** `add_task` on a fresh store, 50 connections. */
  addsPerSecond: { 'sqlite-disk': 379, postgres: 786, 'sqlite-tmpfs': 1_321 } satisfies Record<
    Adapter,
    number
  >,
  /** `add_task` in the telemetry section (tmpfs, telemetry on or off: 1,144 to 1,430 req/s). */
  telemetryAddsPerSecond: 1_250,
  /** One sequential request (a seeded task, an idle session). */
  sequentialRequestSeconds: 0.005,
  /** Spawn a server, wait until it answers, check its call, stop it. */
  spawnSeconds: 1,
  /** A throwaway Postgres cluster: initdb, start, and its removal. */
  postgresSeconds: 5,
  /** One agent round trip plus its raw model and MCP replays (9.7 + 4.5 + 3.4 ms). */
  agentIterationSeconds: 0.018,
  /** `pnpm -s ask` after a build, nothing running. */
  pnpmAskSeconds: 1.3,
  /** Copy the installed SDK packages and stack a number of patches on them (scripts/patch-series.mjs). */
  sdkBuildSeconds: 1,
  /** turbo's up-to-date check that `pnpm bench` runs first. */
  buildCheckSeconds: 5,
  /** `catalogue-dev` up and its first catalogue loaded, on a scratch copy. */
  devLoopStartSeconds: 5,
  /** One timed save of the dev loop, its pause included. */
  devLoopSaveSeconds: 0.6,
  /** One MCP task created and polled back-to-back until completed, SQLite on disk: 20 ms quiet, 150 busy. */
  taskSeconds: 0.05,
  /** One limit middleware call in the limits section, its request and response objects made included. */
  limiterCallSeconds: 0.000_02,
};

/**
 * The poll interval the server suggests (mcp-host's `DEFAULT_POLL_INTERVAL_MS`): a task polled at
 * the hint waits it once before the poll that sees it completed. A setting, not a machine's rate.
 */
const SUGGESTED_POLL_SECONDS = 0.5;

/** The load balancer section: three replicas, two HAProxies, three paths (direct, → 1, → 3). */
const LB_REPLICAS = 3;
const LB_PROXIES = 2;
const LB_PATHS = 3;
/** Every timed run is preceded by a 1 s warm-up run. */
const WARM_UP_SECONDS = 1;

/** Seconds per section of one run of `plan` on the reference machine. */
export function plannedSeconds(plan: Plan, rates = REFERENCE_RATES): Record<string, number> {
  const timedRound = WARM_UP_SECONDS + plan.rounds * plan.roundSeconds;
  const addWarmUp = Math.min(200, plan.scaleAdds);
  const maxAddSeconds = Math.max(MIN_ADD_ROUND_SECONDS, 4 * plan.roundSeconds);
  // A counted run stops at its time bound even when the machine is slower than that.
  const counted = (requests: number, perSecond: number) => Math.min(requests / perSecond, maxAddSeconds);
  const seed = plan.scaleListed * rates.sequentialRequestSeconds;

  const storageRound = storageAdapters().reduce(
    (sum, adapter) =>
      sum +
      rates.spawnSeconds +
      seed +
      WARM_UP_SECONDS +
      plan.roundSeconds +
      counted(addWarmUp, rates.addsPerSecond[adapter]) +
      counted(plan.scaleAdds, rates.addsPerSecond[adapter]),
    0,
  );
  const loadBalancer =
    (LB_REPLICAS + LB_PROXIES) * rates.spawnSeconds +
    seed +
    LB_PATHS * WARM_UP_SECONDS +
    plan.rounds * LB_PATHS * plan.roundSeconds;
  const telemetryRound =
    rates.spawnSeconds +
    WARM_UP_SECONDS + // one server per round: get_time warm-up, one timed run, then the adds
    plan.roundSeconds +
    counted(addWarmUp, rates.telemetryAddsPerSecond) +
    counted(plan.scaleAdds, rates.telemetryAddsPerSecond);

  return {
    build: rates.buildCheckSeconds,
    // Each of our modes runs beside its copy with the rate limits off.
    throughput:
      (TARGETS.length + TARGETS.filter((t) => t.server === 'ours').length) *
      (rates.spawnSeconds + timedRound),
    // Three middlewares (none, ours, the library), a warm-up and each repeat.
    limits: 3 * (LIMITER_REPEATS + 1) * plan.limiterCalls * rates.limiterCallSeconds,
    // One build of the SDK floor per step: as published, then each patch of the series stacked.
    sdkSeries: (readSeries(REPO_ROOT).length + 1) * (rates.sdkBuildSeconds + rates.spawnSeconds + timedRound),
    coldStart: COLD_START_CASES.length * plan.coldStarts * rates.spawnSeconds,
    memory:
      IDLE_SESSION_TARGETS.length *
        (rates.spawnSeconds + (plan.idleSessions + 1) * rates.sequentialRequestSeconds) +
      OUR_MODES.length * (rates.spawnSeconds + plan.heapCalls / rates.callsPerSecond),
    agent:
      rates.spawnSeconds +
      (AGENT_WARM_UP + plan.agentIterations) * rates.agentIterationSeconds +
      plan.askRepeats * rates.pnpmAskSeconds,
    scale: rates.postgresSeconds + plan.rounds * storageRound + loadBalancer,
    telemetry:
      rates.spawnSeconds + // the OTLP receiver
      TELEMETRY_MODES.length * plan.coldStarts * rates.spawnSeconds +
      plan.rounds * TELEMETRY_MODES.length * telemetryRound,
    devLoop: rates.devLoopStartSeconds + (plan.devLoopSaves + 1) * rates.devLoopSaveSeconds,
    tasks:
      rates.spawnSeconds +
      (TASK_WARM_UP + plan.tasks) * rates.taskSeconds + // polled back-to-back
      plan.tasks * (SUGGESTED_POLL_SECONDS + rates.taskSeconds), // polled at the hint
  };
}

/** The whole run, in seconds. */
export function plannedTotalSeconds(plan: Plan, rates = REFERENCE_RATES): number {
  return Object.values(plannedSeconds(plan, rates)).reduce((sum, seconds) => sum + seconds, 0);
}
