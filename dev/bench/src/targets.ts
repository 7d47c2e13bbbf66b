/**
 * @module targets
 * Everything the bench measures, each started as its own Node process on a free loopback port
 * with the heap probe preloaded: the raw floor, the two reference servers (official SDK v1 and
 * server-everything, pinned in the catalog), the bare SDK v2 this server runs on (the SDK floor),
 * and this server in its three serving modes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '@mcp-workshop/test-infra';
import {
  callBody,
  INITIALIZED_NOTIFICATION,
  initializeBody,
  LEGACY_VERSION,
  MODERN_VERSION,
  POST_HEADERS,
  readAnswer,
} from './rpc.js';
import { floorWithWholeSeries } from './sdk-builds.js';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const PRELOAD = join(HERE, '..', 'preload');

/**
 * Our server's rate limits as the bench runs it: on, as they ship, but at the highest limit
 * `env.ts` allows, which the load never reaches (the default 120 calls a minute would time 429s).
 * A client of the bench sends at most a few thousand calls a second, for seconds: far under a million a minute.
 */
export const LIMITS_AS_SHIPPED = {
  MCP_RATE_LIMIT_PER_MINUTE: '1000000',
  MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: '1000000',
} as const;

/** Both limits off: the rows that show what the limits cost. */
export const LIMITS_OFF = {
  MCP_RATE_LIMIT_PER_MINUTE: '0',
  MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE: '0',
} as const;
/** The id of a target's copy with both limits off (`throughput.ts`). */
export const LIMITS_OFF_SUFFIX = '-limits-off';

export type ServerKind = 'raw' | 'sdk-v1' | 'sdk-v2' | 'everything' | 'ours';

/** One `tools/call` the load generator replays: exact headers and body. */
export interface PreparedCall {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Target {
  id: string;
  label: string;
  server: ServerKind;
  /** Extra environment for our server (the serving mode). */
  env?: Record<string, string>;
  /** The script to run instead of the one `server` names (a build of the SDK floor, sdk-series.ts). */
  script?: string;
  /** How a client reaches a trivial tool on it. */
  prepare(url: string): Promise<PreparedCall>;
}

function ourEntry(): string {
  const manifest = require.resolve('@mcp-workshop/mcp-server/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

function everythingEntry(): string {
  return join(
    dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist',
    'index.js',
  );
}

/** initialize + notifications/initialized over raw HTTP; resolves to the session id. */
export async function openSession(url: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: initializeBody() });
  const sessionId = response.headers.get('mcp-session-id');
  await response.text();
  if (!response.ok || !sessionId)
    throw new Error(`initialize at ${url} answered ${response.status}, no session`);
  const headers = { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_VERSION };
  const ack = await fetch(url, { method: 'POST', headers, body: INITIALIZED_NOTIFICATION });
  await ack.text();
  return sessionId;
}

async function sessionCall(url: string, name: string, args: Record<string, unknown>): Promise<PreparedCall> {
  const sessionId = await openSession(url);
  return {
    url,
    headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_VERSION },
    body: callBody(name, args, false),
  };
}

const CALCULATE = { expression: '2+3' };

/** A 2026-07-28 `tools/call`: no session, the envelope in `_meta`, the routing headers set. */
export function modernToolCall(url: string, name: string, args: Record<string, unknown>): PreparedCall {
  return {
    url,
    headers: {
      ...POST_HEADERS,
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: callBody(name, args, true),
  };
}

export const TARGETS: readonly Target[] = [
  {
    id: 'raw',
    label: 'raw node:http, fixed CallToolResult (the floor)',
    server: 'raw',
    prepare: async (url) => ({ url, headers: POST_HEADERS, body: callBody('add', { a: 2, b: 3 }, false) }),
  },
  {
    id: 'sdk-v1',
    label: 'official SDK v1, stateful, JSON responses',
    server: 'sdk-v1',
    prepare: (url) => sessionCall(url, 'add', { a: 2, b: 3 }),
  },
  {
    id: 'sdk-v2',
    label: 'official SDK v2, with our patches, bare, 2026-07-28 request (the SDK floor)',
    server: 'sdk-v2',
    prepare: async (url) => modernToolCall(url, 'add', { a: 2, b: 3 }),
  },
  {
    id: 'everything',
    label: '@modelcontextprotocol/server-everything',
    server: 'everything',
    prepare: (url) => sessionCall(url, 'get-sum', { a: 2, b: 3 }),
  },
  {
    id: 'ours-2025',
    label: 'this server, 2025-11-25 session',
    server: 'ours',
    prepare: (url) => sessionCall(url, 'calculate', CALCULATE),
  },
  {
    id: 'ours-2026',
    label: 'this server, 2026-07-28 request',
    server: 'ours',
    prepare: async (url) => modernToolCall(url, 'calculate', CALCULATE),
  },
  {
    id: 'ours-stateless',
    label: 'this server, MCP_STATELESS=true',
    server: 'ours',
    env: { MCP_STATELESS: 'true' },
    prepare: async (url) => ({
      url,
      headers: { ...POST_HEADERS, 'mcp-protocol-version': LEGACY_VERSION },
      body: callBody('calculate', CALCULATE, false),
    }),
  },
];

export function targetById(id: string): Target {
  const target = TARGETS.find((t) => t.id === id);
  if (!target) throw new Error(`no target ${id}`);
  return target;
}

export interface RunningTarget {
  url: string;
  child: ChildProcess;
  /** Heap after two forced GCs, in bytes, read through the preloaded probe. */
  heap(): Promise<number>;
  stop(): Promise<void>;
}

/** Spawns the server of `kind` (or `scriptPath`) on `port`; returns at once (see `waitReady`). */
export function spawnServer(
  kind: ServerKind,
  port: number,
  env: Record<string, string> = {},
  scriptPath?: string,
  /** More flags for Node, before the script (the profiler's `--cpu-prof`, say). */
  nodeFlags: readonly string[] = [],
) {
  const dataDir = kind === 'ours' ? mkdtempSync(join(tmpdir(), 'mcp-bench-')) : undefined;
  const script: string[] = scriptPath
    ? [scriptPath]
    : {
        raw: () => [join(HERE, 'targets', 'raw-floor.js')],
        'sdk-v1': () => [join(HERE, 'targets', 'sdk-v1.js')],
        // On a build of the SDK with the whole patch series: pnpm does not install its node patches.
        'sdk-v2': () => [floorWithWholeSeries()],
        everything: () => [everythingEntry(), 'streamableHttp'],
        ours: () => [ourEntry()],
      }[kind]();
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      ...nodeFlags,
      '--import',
      join(PRELOAD, 'heap-probe.mjs'),
      '--import',
      join(PRELOAD, 'loopback.mjs'),
      ...script,
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        // Room for the idle-session measurement, which opens them all from one address.
        MCP_MAX_SESSIONS: '5000',
        MCP_MAX_SESSIONS_PER_CLIENT: '5000',
        // As shipped, the limits on, at a limit the load never reaches (LIMITS_AS_SHIPPED).
        ...LIMITS_AS_SHIPPED,
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
        ...env,
      },
      // server-everything logs every request to stdout; nothing here needs to read it.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const cleanup = () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { child, stderr: () => stderr, cleanup };
}

export async function startTarget(target: Target, nodeFlags: readonly string[] = []): Promise<RunningTarget> {
  const port = await freePort();
  const spawned = spawnServer(target.server, port, target.env, target.script, nodeFlags);
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitReady(url, spawned.child, spawned.stderr, target.server);
  return {
    url,
    child: spawned.child,
    heap: () => readHeap(spawned.child),
    stop: async () => {
      await stopChild(spawned.child);
      spawned.cleanup();
    },
  };
}

/** Bounds every wait for a target: a broken one fails the bench instead of hanging it. */
const READY_TIMEOUT_MS = 20_000;

/** Polls with the request each kind answers first; resolves when a valid answer comes back. */
export async function waitReady(
  url: string,
  child: ChildProcess,
  stderr: () => string,
  kind: ServerKind,
  body = initializeBody(),
  headers: Record<string, string> = POST_HEADERS,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${kind} exited early: ${stderr()}`);
    const answered = await fetch(url, { method: 'POST', headers, body }).then(
      async (response) => response.ok && readAnswer(await response.text())?.result !== undefined,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${kind} did not answer within ${READY_TIMEOUT_MS} ms: ${stderr()}`);
}

/** What the preloaded heap probe reports after two forced GCs, in bytes. */
export interface ProbedMemory {
  heapUsed: number;
  rss: number;
}

/** Asks a target spawned by `spawnServer` for its heap and RSS (after forced GCs). */
export function readMemory(child: ChildProcess): Promise<ProbedMemory> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the heap probe did not answer')), 10_000);
    child.once('message', (message: ProbedMemory) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send('heap');
  });
}

function readHeap(child: ChildProcess): Promise<number> {
  return readMemory(child).then((memory) => memory.heapUsed);
}

export interface WaitHealthyOptions {
  timeoutMs: number;
  /** Between polls; small where the wait itself is what is measured (cold start). */
  pollMs?: number;
}

/** Polls a GET endpoint (`/health`, `/health/ready`) until it answers 200, bounded in time. */
export async function waitHealthy(
  url: string,
  name: string,
  exited: () => boolean,
  stderr: () => string,
  { timeoutMs, pollMs = 25 }: WaitHealthyOptions,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`${name} exited before it was ready: ${stderr()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      last = `HTTP ${response.status}`;
      await response.text();
      if (response.status === 200) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`${name} was not ready at ${url} within ${timeoutMs} ms (${last}): ${stderr()}`);
}

export { freePort, stopChild };
