/**
 * @module scale
 * Issue 12's figures, measured in one run on this machine: (1) what the Postgres task store costs
 * against the embedded SQLite one per `add_task` and `list_tasks`, one server process each, no load
 * balancer; (2) `list_tasks` through the real HAProxy (deploy/haproxy/haproxy.cfg) in front of 1 and
 * of 3 replicas sharing one Postgres database, with a direct single-replica figure as the reference,
 * so the load balancer's own cost shows. Every request is a 2026-07-28 `tools/call` (no session, so
 * any replica may answer it). Needs Debian's `postgresql` and `haproxy`; without them (a laptop) the
 * section prints one line and the bench goes on, while CI, which installs them, fails instead.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import {
  type PostgresCluster,
  type RunningHaproxy,
  startHaproxy,
  startPostgres,
  systemPrograms,
} from '@mcp-workshop/test-infra';
import { type LoadResult, median, runLoad, verifyCall } from './load.js';
import { readAnswer } from './rpc.js';
import {
  freePort,
  modernToolCall,
  type PreparedCall,
  spawnServer,
  stopChild,
  waitHealthy,
} from './targets.js';

export interface ScaleOptions {
  connections: number;
  rounds: number;
  roundSeconds: number;
  /** `add_task` requests per round, on a fresh database; with the seed, far below the 10,000-task cap. */
  addsPerRound: number;
  /** Tasks present while `list_tasks` is measured, the same on every adapter and replica. */
  listedTasks: number;
}

/**
 * The store under test. Postgres runs durable (fsync on), like SQLite on disk with its journal and
 * `synchronous = FULL`: that pair is the like-for-like comparison. SQLite with DATA_DIR on tmpfs shows
 * what the fsync itself costs.
 */
export type Adapter = 'sqlite-tmpfs' | 'sqlite-disk' | 'postgres';

/** Linux's RAM-backed folder; without it (macOS) only the on-disk SQLite run is made. */
export const TMPFS = '/dev/shm';

export function storageAdapters(): Adapter[] {
  return existsSync(TMPFS) ? ['sqlite-disk', 'postgres', 'sqlite-tmpfs'] : ['sqlite-disk', 'postgres'];
}
export type Operation = 'add_task' | 'list_tasks';

export interface StorageRow {
  adapter: Adapter;
  operation: Operation;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** After each `add_task` round: the rows in the database against the adds that were acknowledged. */
export interface StoredCheck {
  adapter: Adapter;
  round: number;
  stored: number;
  /** Seed + warm-up + every add answered 2xx. */
  acknowledged: number;
  /** Seed + warm-up + every add sent (a round cut by its time bound may have stored one in flight). */
  sent: number;
}

export type LoadBalancerPath = 'direct' | 'lb-1' | 'lb-3';

export interface LoadBalancerRow {
  id: LoadBalancerPath;
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Requests each replica served, from HAProxy's log (only through the load balancer). */
  perReplica?: number[];
}

export interface ScaleReport {
  cores: number;
  /** Set when PostgreSQL or HAProxy is missing: the one line printed instead of the figures. */
  skipped?: string;
  storage: StorageRow[];
  stored: StoredCheck[];
  loadBalancer: LoadBalancerRow[];
  /** Requests per `add_task` warm-up before each measured round. */
  addWarmUp: number;
}

/** The tool driven through the load balancer: it reads the shared database, unlike `calculate`. */
export const LB_TOOL = 'list_tasks';

/** Bounds every wait for a replica: a broken one fails the bench instead of hanging it. */
const READY_TIMEOUT_MS = 30_000;
/** A counted `add_task` round is also bounded in time: at least this, or 4 × the round length. */
export const MIN_ADD_ROUND_SECONDS = 10;

interface Server {
  url: string;
  port: number;
  stderr(): string;
  stop(): Promise<void>;
}

export async function measureScale(options: ScaleOptions): Promise<ScaleReport> {
  const cores = cpus().length;
  const addWarmUp = Math.min(200, options.addsPerRound);
  const report: ScaleReport = { cores, storage: [], stored: [], loadBalancer: [], addWarmUp };
  const available = systemPrograms('the scale bench', ['postgres', 'haproxy'], 'pnpm bench --only scale');
  if (!available.ok) {
    process.stderr.write(`  scale: ${available.skipLine}\n`);
    return { ...report, skipped: available.skipLine };
  }
  const postgres = await startPostgres({ durable: true });
  try {
    const storage = await measureStorage(postgres, options, addWarmUp);
    report.storage = storage.rows;
    report.stored = storage.stored;
    report.loadBalancer = await measureLoadBalancer(postgres, options);
  } finally {
    await postgres.destroy();
  }
  return report;
}

/** One server process per adapter and round, each on fresh storage, the adapters taking turns. */
async function measureStorage(
  postgres: PostgresCluster,
  options: ScaleOptions,
  addWarmUp: number,
): Promise<{ rows: StorageRow[]; stored: StoredCheck[] }> {
  const samples = new Map<string, LoadResult[]>();
  const record = (adapter: Adapter, operation: Operation, result: LoadResult) => {
    const key = `${adapter} ${operation}`;
    samples.set(key, [...(samples.get(key) ?? []), result]);
  };
  const stored: StoredCheck[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const adapter of storageAdapters()) {
      const env: Record<string, string> = {};
      if (adapter === 'postgres') env.DATABASE_URL = await postgres.createDatabase(`bench_store_${round}`);
      // On disk, spawnServer's own temporary DATA_DIR (under the OS temp folder) is used.
      const ramDir = adapter === 'sqlite-tmpfs' ? mkdtempSync(join(TMPFS, 'mcp-bench-')) : undefined;
      if (ramDir) env.DATA_DIR = ramDir;
      const server = await startServer(`${adapter} store`, env);
      try {
        await seedTasks(server.url, options.listedTasks);
        const list = modernToolCall(server.url, 'list_tasks', { status: 'all' });
        await verifyCall(list);
        await runLoad(list, { connections: options.connections, durationSeconds: 1 });
        record(
          adapter,
          'list_tasks',
          await runLoad(list, { connections: options.connections, durationSeconds: options.roundSeconds }),
        );

        const add = modernToolCall(server.url, 'add_task', { title: 'Benchmark task' });
        const maxSeconds = Math.max(MIN_ADD_ROUND_SECONDS, 4 * options.roundSeconds);
        const warm = await runLoad(add, { connections: options.connections, amount: addWarmUp, maxSeconds });
        const measured = await runLoad(add, {
          connections: options.connections,
          amount: options.addsPerRound,
          maxSeconds,
        });
        record(adapter, 'add_task', measured);
        stored.push({
          adapter,
          round,
          stored: await countTasks(server.url),
          acknowledged: options.listedTasks + warm.total - warm.errors + measured.total - measured.errors,
          sent: options.listedTasks + addWarmUp + options.addsPerRound,
        });
        process.stderr.write(`  scale: ${adapter} store, round ${round + 1} done\n`);
      } finally {
        await server.stop();
        if (ramDir) rmSync(ramDir, { recursive: true, force: true });
      }
    }
  }
  const rows: StorageRow[] = [];
  for (const operation of ['add_task', 'list_tasks'] as const) {
    for (const adapter of storageAdapters()) {
      const results = samples.get(`${adapter} ${operation}`) ?? [];
      rows.push({
        adapter,
        operation,
        requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
        p50Ms: median(results.map((r) => r.p50Ms)),
        p99Ms: median(results.map((r) => r.p99Ms)),
        errors: results.reduce((sum, r) => sum + r.errors, 0),
      });
    }
  }
  return { rows, stored };
}

/**
 * Three replicas on one database, started one after the other (the first migrates), and two
 * HAProxies on the shipped configuration: one in front of replica A alone, one in front of all
 * three. Rounds alternate between the paths, so a drift of the machine hits them alike.
 */
async function measureLoadBalancer(
  postgres: PostgresCluster,
  options: ScaleOptions,
): Promise<LoadBalancerRow[]> {
  const databaseUrl = await postgres.createDatabase('bench_lb');
  const closers: Array<() => Promise<void>> = [];
  try {
    const replicas: Server[] = [];
    for (const name of ['A', 'B', 'C']) {
      // Behind HAProxy the Host is the load balancer's 127.0.0.1:<port>; the server checks the hostname.
      const replica = await startServer(`replica ${name}`, {
        DATABASE_URL: databaseUrl,
        MCP_ALLOWED_HOSTS: '127.0.0.1',
      });
      closers.push(replica.stop);
      replicas.push(replica);
    }
    const [first] = replicas;
    if (!first) throw new Error('no replica started');
    await seedTasks(first.url, options.listedTasks);
    const one = await startHaproxy({ backends: [{ port: first.port }] });
    closers.push(one.stop);
    const three = await startHaproxy({ backends: replicas.map((replica) => ({ port: replica.port })) });
    closers.push(three.stop);

    const paths: Array<{ id: LoadBalancerPath; label: string; call: PreparedCall; lb?: RunningHaproxy }> = [
      { id: 'direct', label: 'direct to 1 replica (no load balancer)', call: lbCall(first.url) },
      { id: 'lb-1', label: 'HAProxy → 1 replica', call: lbCall(`${one.url}/mcp`), lb: one },
      { id: 'lb-3', label: 'HAProxy → 3 replicas', call: lbCall(`${three.url}/mcp`), lb: three },
    ];
    for (const path of paths) {
      await verifyCall(path.call);
      await runLoad(path.call, { connections: options.connections, durationSeconds: 1 });
    }
    const logOffset = new Map(paths.map((path) => [path.id, path.lb ? path.lb.log().length : 0]));
    const results = new Map<LoadBalancerPath, LoadResult[]>();
    for (let round = 0; round < options.rounds; round++) {
      for (const path of paths) {
        const result = await runLoad(path.call, {
          connections: options.connections,
          durationSeconds: options.roundSeconds,
        });
        results.set(path.id, [...(results.get(path.id) ?? []), result]);
      }
      process.stderr.write(`  scale: load balancer, round ${round + 1} done\n`);
    }
    return paths.map((path) => {
      const rounds = results.get(path.id) ?? [];
      return {
        id: path.id,
        label: path.label,
        requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
        p50Ms: median(rounds.map((r) => r.p50Ms)),
        p99Ms: median(rounds.map((r) => r.p99Ms)),
        errors: rounds.reduce((sum, r) => sum + r.errors, 0),
        ...(path.lb
          ? {
              perReplica: servedPerReplica(
                path.lb.log().slice(logOffset.get(path.id) ?? 0),
                path.id === 'lb-3' ? 3 : 1,
              ),
            }
          : {}),
      };
    });
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}

function lbCall(url: string): PreparedCall {
  return modernToolCall(url, LB_TOOL, { status: 'all' });
}

/** Counts HAProxy's log lines (option httplog: `backend/server` per request) per replica. */
export function servedPerReplica(log: string, replicas: number): number[] {
  const counts = Array.from({ length: replicas }, () => 0);
  for (const match of log.matchAll(/ mcp-servers\/replica-(\d+) /g)) {
    const index = Number(match[1]) - 1;
    if (index >= 0 && index < replicas) counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

/** Our server, built, with tasks in a temporary SQLite folder or, with DATABASE_URL, in Postgres. */
async function startServer(name: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const spawned = spawnServer('ours', port, { LOG_LEVEL: 'warn', ...env });
  const stop = async () => {
    await stopChild(spawned.child);
    spawned.cleanup();
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    // Readiness: the task database answers and migrations are done.
    await waitHealthy(`${base}/health/ready`, name, () => spawned.child.exitCode !== null, spawned.stderr, {
      timeoutMs: READY_TIMEOUT_MS,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${base}/mcp`, port, stderr: spawned.stderr, stop };
}

/** `count` tasks, one request after the other, each checked. */
async function seedTasks(url: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    await verifyCall(modernToolCall(url, 'add_task', { title: `Seeded task ${index + 1}` }));
  }
}

/** The largest page `list_tasks` answers (its `limit` bound), so counting takes as few calls as it can. */
const LIST_PAGE_LIMIT = 500;

/** How many tasks the store holds, through `list_tasks` (structured `count`, summed over its pages). */
async function countTasks(url: string): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  do {
    const args = { status: 'all', limit: LIST_PAGE_LIMIT, ...(cursor && { cursor }) };
    const call = modernToolCall(url, 'list_tasks', args);
    const response = await fetch(call.url, { method: 'POST', headers: call.headers, body: call.body });
    const answer = readAnswer(await response.text());
    const page = answer?.result?.structuredContent as { count?: unknown; nextCursor?: unknown } | undefined;
    if (typeof page?.count !== 'number')
      throw new Error(`list_tasks at ${url} gave no count (${response.status})`);
    total += page.count;
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
  } while (cursor);
  return total;
}
