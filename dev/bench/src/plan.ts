/**
 * @module plan
 * What a `pnpm bench` run does, as numbers: the full run (the figures the docs quote) and the smoke
 * run (every section briefly, to prove the bench still works). main.ts runs one of them, and
 * plan-duration.ts turns the same objects into the wall time the docs promise.
 */

export interface Plan {
  connections: number;
  rounds: number;
  roundSeconds: number;
  coldStarts: number;
  idleSessions: number;
  heapCalls: number;
  heapChunks: number;
  agentIterations: number;
  askRepeats: number;
  scaleAdds: number;
  scaleListed: number;
  /** Saves timed in the dev-loop section, after the first (which adds the probe tool). */
  devLoopSaves: number;
  /** MCP tasks timed per way of polling (back-to-back, and at the server's suggested interval). */
  tasks: number;
  /** Calls of each limit middleware per run in the limits section. */
  limiterCalls: number;
}

/** Full run: the figures the README quotes. Smoke: seconds per section, to prove it still runs. */
export const PLANS: Readonly<Record<'full' | 'smoke', Plan>> = {
  full: {
    connections: 50,
    rounds: 3,
    roundSeconds: 8,
    coldStarts: 5,
    idleSessions: 300,
    heapCalls: 100_000,
    heapChunks: 10,
    agentIterations: 200,
    askRepeats: 5,
    // 50 seeded + 200 warm-up + 5,000 measured adds per fresh database: half the 10,000-task cap.
    scaleAdds: 5_000,
    scaleListed: 50,
    devLoopSaves: 10,
    tasks: 30,
    limiterCalls: 20_000,
  },
  smoke: {
    connections: 10,
    rounds: 1,
    roundSeconds: 1,
    coldStarts: 1,
    idleSessions: 20,
    heapCalls: 2_000,
    heapChunks: 2,
    agentIterations: 20,
    askRepeats: 1,
    scaleAdds: 300,
    scaleListed: 50,
    devLoopSaves: 2,
    tasks: 3,
    limiterCalls: 500,
  },
};

export const SECTIONS = [
  'throughput',
  'limits',
  'sdk-series',
  'cold-start',
  'memory',
  'agent',
  'scale',
  'telemetry',
  'dev-loop',
  'tasks',
] as const;
