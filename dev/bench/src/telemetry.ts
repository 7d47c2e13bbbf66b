/**
 * @module telemetry
 * What OpenTelemetry costs this server, in one run: the built server with telemetry off (no OTEL_*
 * variable), off by OTEL_SDK_DISABLED=true with an endpoint set, on (spans and metrics over
 * OTLP/HTTP protobuf to a real receiver), and on but sampled out (OTEL_TRACES_SAMPLER=always_off: the
 * instrumentation runs and metrics are exported, spans are not). Measured: 2026-07-28 `tools/call` of
 * `get_time` (no I/O) and of `add_task` (one database span) under load, cold start to `/health`, and
 * RSS after the load. What the receiver got is checked: off must mean off.
 * Partner file: targets/otlp-receiver.ts, the receiver's process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoadResult, median, runLoad, verifyCall } from './load.js';
import { TMPFS } from './scale.js';
import type { OtlpTally, ReceiverMessage } from './targets/otlp-receiver.js';
import {
  freePort,
  modernToolCall,
  type PreparedCall,
  readMemory,
  spawnServer,
  stopChild,
  waitHealthy,
} from './targets.js';

const HERE = dirname(fileURLToPath(import.meta.url));

export type TelemetryModeId = 'off' | 'disabled' | 'on' | 'sampled-out';
export type Workload = 'get_time' | 'add_task';

interface Mode {
  id: TelemetryModeId;
  label: string;
  /** What the receiver may get from a server in this mode. */
  exports: 'nothing' | 'metrics' | 'spans and metrics';
  env(endpoint: string): Record<string, string>;
}

/** Metrics go out every 5 s (the default is 60 s), so each round exports them under load, not only at exit. */
export const METRIC_EXPORT_INTERVAL_MS = 5_000;

const exporting = (endpoint: string): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  OTEL_METRIC_EXPORT_INTERVAL: String(METRIC_EXPORT_INTERVAL_MS),
});

/** `off` first: every ratio is against it. spawnServer passes no variable of the bench's own environment. */
export const MODES: readonly Mode[] = [
  { id: 'off', label: 'off (no OTEL_* variable)', exports: 'nothing', env: () => ({}) },
  {
    id: 'disabled',
    label: 'off: endpoint set, OTEL_SDK_DISABLED=true',
    exports: 'nothing',
    env: (endpoint) => ({ ...exporting(endpoint), OTEL_SDK_DISABLED: 'true' }),
  },
  { id: 'on', label: 'on, http/protobuf', exports: 'spans and metrics', env: exporting },
  {
    id: 'sampled-out',
    label: 'on, sampled out (always_off)',
    exports: 'metrics',
    env: (endpoint) => ({ ...exporting(endpoint), OTEL_TRACES_SAMPLER: 'always_off' }),
  },
];

/**
 * The instrumentation's design: one SERVER span per request, one CLIENT span per database statement,
 * and `add_task` runs one INSERT. The received count is compared with calls × this, not enforced.
 */
export const SPANS_PER_CALL: Readonly<Record<Workload, number>> = { get_time: 1, add_task: 2 };

const CALLS: Readonly<Record<Workload, (url: string) => PreparedCall>> = {
  get_time: (url) => modernToolCall(url, 'get_time', { timezone: 'UTC' }),
  add_task: (url) => modernToolCall(url, 'add_task', { title: 'Benchmark task' }),
};

/** Bounds every wait for a server: a broken one fails the bench instead of hanging it. */
const READY_TIMEOUT_MS = 20_000;
/** Cold start is the figure here, so `/health` is polled this often. */
const READY_POLL_MS = 5;
/** A counted `add_task` run is also bounded in time: at least this, or 4 × the round length. */
const MIN_ADD_ROUND_SECONDS = 10;
/** The receiver's process must start and answer a "take" within this. */
const RECEIVER_TIMEOUT_MS = 10_000;

export interface TelemetryOptions {
  connections: number;
  rounds: number;
  roundSeconds: number;
  /** Spawns per mode for the cold start. */
  coldStarts: number;
  /** `add_task` requests per round on a fresh database; with the warm-up, far below the 10,000-task cap. */
  addsPerRound: number;
}

export interface WorkloadRow {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

export interface TelemetryModeRow {
  id: TelemetryModeId;
  label: string;
  exports: Mode['exports'];
  load: Record<Workload, WorkloadRow>;
  /** Spawn to the first 200 from `/health`, median. */
  coldStartMs: number;
  /** After the last run of each round, after forced GCs; medians of the rounds, in MB. */
  rssMb: number;
  heapMb: number;
  /**
   * Calls answered, all rounds (checks, warm-ups and measured runs). A timed run ends with up to one
   * call per connection in flight, served and traced but not counted: spans ÷ expected sits a little above 1.
   */
  calls: Record<Workload, number>;
  /** What the receiver got from this mode's servers, cold starts included. */
  received: OtlpTally;
}

export interface TelemetryReport {
  cores: number;
  /** Where each server kept its tasks: tmpfs where the machine has one, else the OS temp folder on disk. */
  dataDir: 'tmpfs' | 'disk';
  addsPerRound: number;
  addWarmUp: number;
  coldStarts: number;
  metricIntervalMs: number;
  modes: TelemetryModeRow[];
}

export async function measureTelemetry(options: TelemetryOptions): Promise<TelemetryReport> {
  const addWarmUp = Math.min(200, options.addsPerRound);
  const receiver = await startReceiver();
  const coldStarts = new Map<TelemetryModeId, number[]>();
  const rounds = new Map<TelemetryModeId, RoundResult[]>();
  const received = new Map<TelemetryModeId, OtlpTally>();
  /** Stops a server, then charges what the receiver got since the last one to its mode, and checks it. */
  const settle = async (mode: Mode, server: Server) => {
    await server.stop();
    const tally = await receiver.take();
    checkOffIsOff(mode, tally);
    received.set(mode.id, addTallies(received.get(mode.id), tally));
  };
  try {
    // The modes take turns, starting one further each time, so a drift of the machine hits them alike.
    for (let repeat = 0; repeat < options.coldStarts; repeat++) {
      for (const mode of rotated(MODES, repeat)) {
        const server = await startServer(mode, receiver.endpoint);
        coldStarts.set(mode.id, [...(coldStarts.get(mode.id) ?? []), server.coldStartMs]);
        await settle(mode, server);
      }
    }
    process.stderr.write('  telemetry: cold starts done\n');
    for (let round = 0; round < options.rounds; round++) {
      for (const mode of rotated(MODES, round)) {
        const server = await startServer(mode, receiver.endpoint);
        try {
          rounds.set(mode.id, [...(rounds.get(mode.id) ?? []), await runRound(server, options, addWarmUp)]);
        } finally {
          await settle(mode, server);
        }
      }
      process.stderr.write(`  telemetry: round ${round + 1} done\n`);
    }
  } finally {
    await receiver.stop();
  }
  return {
    cores: cpus().length,
    dataDir: existsSync(TMPFS) ? 'tmpfs' : 'disk',
    addsPerRound: options.addsPerRound,
    addWarmUp,
    coldStarts: options.coldStarts,
    metricIntervalMs: METRIC_EXPORT_INTERVAL_MS,
    modes: MODES.map((mode) =>
      summarize(mode, rounds.get(mode.id) ?? [], coldStarts.get(mode.id) ?? [], received),
    ),
  };
}

interface RoundResult {
  load: Record<Workload, LoadResult>;
  calls: Record<Workload, number>;
  rssMb: number;
  heapMb: number;
}

/**
 * On one fresh server: `get_time` for the round's length after a 1 s warm-up, then `add_task` counted
 * (a fresh database holds the warm-up and the round, far below the cap), each call checked before and
 * after, then the memory after the load.
 */
async function runRound(server: Server, options: TelemetryOptions, addWarmUp: number): Promise<RoundResult> {
  const time = CALLS.get_time(server.url);
  const add = CALLS.add_task(server.url);
  for (const call of [time, add]) await verifyCall(call);
  const { connections } = options;
  const timeWarm = await runLoad(time, { connections, durationSeconds: 1 });
  const timeRun = await runLoad(time, { connections, durationSeconds: options.roundSeconds });
  const maxSeconds = Math.max(MIN_ADD_ROUND_SECONDS, 4 * options.roundSeconds);
  const addWarm = await runLoad(add, { connections, amount: addWarmUp, maxSeconds });
  const addRun = await runLoad(add, { connections, amount: options.addsPerRound, maxSeconds });
  for (const call of [time, add]) await verifyCall(call);
  const memory = await readMemory(server.child);
  return {
    load: { get_time: timeRun, add_task: addRun },
    // Two checked calls each, besides the load.
    calls: { get_time: 2 + timeWarm.total + timeRun.total, add_task: 2 + addWarm.total + addRun.total },
    rssMb: memory.rss / 2 ** 20,
    heapMb: memory.heapUsed / 2 ** 20,
  };
}

function summarize(
  mode: Mode,
  rounds: readonly RoundResult[],
  coldStarts: readonly number[],
  received: ReadonlyMap<TelemetryModeId, OtlpTally>,
): TelemetryModeRow {
  const workload = (name: Workload): WorkloadRow => ({
    requestsPerSecond: median(rounds.map((r) => r.load[name].requestsPerSecond)),
    p99Ms: median(rounds.map((r) => r.load[name].p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.load[name].errors, 0),
  });
  const calls = (name: Workload) => rounds.reduce((sum, r) => sum + r.calls[name], 0);
  return {
    id: mode.id,
    label: mode.label,
    exports: mode.exports,
    load: { get_time: workload('get_time'), add_task: workload('add_task') },
    coldStartMs: median(coldStarts),
    rssMb: median(rounds.map((r) => r.rssMb)),
    heapMb: median(rounds.map((r) => r.heapMb)),
    calls: { get_time: calls('get_time'), add_task: calls('add_task') },
    received: received.get(mode.id) ?? addTallies(undefined, undefined),
  };
}

/** Off must mean off: a server that may export nothing but reached the receiver fails the section here. */
function checkOffIsOff(mode: Mode, tally: OtlpTally): void {
  if (mode.exports !== 'nothing') return;
  const paths = Object.entries(tally.requests);
  if (paths.length === 0) return;
  const what = paths.map(([path, count]) => `${count} × POST ${path}`).join(', ');
  throw new Error(
    `telemetry: the server with telemetry ${mode.label} must send nothing, but the OTLP receiver got ${what} ` +
      `(${tally.spans} spans). Telemetry that is off must not load, let alone export.`,
  );
}

function addTallies(a: OtlpTally | undefined, b: OtlpTally | undefined): OtlpTally {
  const sum: OtlpTally = { requests: {}, rejected: 0, spans: 0, spansByName: {}, metricPoints: 0 };
  for (const tally of [a, b]) {
    if (!tally) continue;
    for (const [path, count] of Object.entries(tally.requests))
      sum.requests[path] = (sum.requests[path] ?? 0) + count;
    for (const [name, count] of Object.entries(tally.spansByName))
      sum.spansByName[name] = (sum.spansByName[name] ?? 0) + count;
    sum.rejected += tally.rejected;
    sum.spans += tally.spans;
    sum.metricPoints += tally.metricPoints;
  }
  return sum;
}

function rotated<T>(items: readonly T[], by: number): T[] {
  return items.map((_, index) => items[(index + by) % items.length] as T);
}

interface Server {
  url: string;
  child: ChildProcess;
  coldStartMs: number;
  stop(): Promise<void>;
}

/**
 * The built server in `mode`, on a free port with a fresh DATA_DIR; resolves once `/health` answers.
 * DATA_DIR is on tmpfs where there is one: an fsync per `add_task` on a shared disk takes from
 * milliseconds to seconds, and that noise, the same in every mode, would drown what is measured here.
 */
async function startServer(mode: Mode, endpoint: string): Promise<Server> {
  const port = await freePort();
  const ramDir = existsSync(TMPFS) ? mkdtempSync(join(TMPFS, 'mcp-bench-')) : undefined;
  const started = performance.now();
  // Without ramDir, spawnServer's own temporary DATA_DIR (under the OS temp folder) is used.
  const spawned = spawnServer('ours', port, {
    LOG_LEVEL: 'warn',
    ...(ramDir && { DATA_DIR: ramDir }),
    ...mode.env(endpoint),
  });
  // SIGTERM: the server flushes its last spans and metrics before it exits, so they count for its mode.
  const stop = async () => {
    await stopChild(spawned.child);
    spawned.cleanup();
    if (ramDir) rmSync(ramDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(
      `${base}/health`,
      `the server with telemetry ${mode.label}`,
      () => spawned.child.exitCode !== null,
      spawned.stderr,
      { timeoutMs: READY_TIMEOUT_MS, pollMs: READY_POLL_MS },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${base}/mcp`, child: spawned.child, coldStartMs: performance.now() - started, stop };
}

interface Receiver {
  endpoint: string;
  /** What arrived since the last take. */
  take(): Promise<OtlpTally>;
  stop(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const child = spawn(process.execPath, [join(HERE, 'targets', 'otlp-receiver.js')], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const next = <T extends ReceiverMessage['type']>(type: T) =>
    new Promise<Extract<ReceiverMessage, { type: T }>>((resolve, reject) => {
      const fail = (why: string) => {
        cleanup();
        reject(new Error(`the OTLP receiver's process ${why}: ${stderr}`));
      };
      const onMessage = (message: ReceiverMessage) => {
        if (message.type !== type) return;
        cleanup();
        resolve(message as Extract<ReceiverMessage, { type: T }>);
      };
      const onExit = () => fail('exited');
      const timer = setTimeout(
        () => fail(`sent no ${type} within ${RECEIVER_TIMEOUT_MS} ms`),
        RECEIVER_TIMEOUT_MS,
      );
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  try {
    const { endpoint } = await next('listening');
    return {
      endpoint,
      take: async () => {
        const tally = next('tally');
        child.send('take');
        return (await tally).tally;
      },
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
