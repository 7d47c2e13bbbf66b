#!/usr/bin/env node
// @ts-check
/**
 * `pnpm scale:local`: module 12's topology without Docker. Starts mcp-server replicas on 127.0.0.1
 * (3100, 3101, 3102) sharing DATABASE_URL, waits until each is ready, then runs HAProxy on
 * 127.0.0.1:3020 with deploy/haproxy/haproxy.local.cfg; prints what runs where, prefixes each
 * process's output with its name, and stops them all on Ctrl-C (or when one of them dies).
 * Exit codes: 0 after Ctrl-C, 1 when something failed, 2 on a usage mistake.
 * The pure half is scripts/lib/scale-local.mjs; the real run is tested in services/scale-e2e.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { stopChild } from '@mcp-workshop/shared/processes';
import { findHaproxy } from '../dev/test-infra/dist/index.js';
import {
  expectedLocalConfig,
  LOCAL_CONFIG,
  localHaproxyConfig,
  parseScaleArgs,
  redactUrl,
  requireDatabaseUrl,
  SERVER_ENTRY,
  SHIPPED_CONFIG,
  USAGE,
  UsageError,
} from './lib/scale-local.mjs';
import { describeResult, waitForAll } from './lib/wait-for.mjs';

/** A cold replica imports mathjs and runs the migrations; a busy laptop gets a minute, not forever. */
const READY_TIMEOUT_MS = 60_000;
/** HAProxy binds at once; its first health checks take 500 ms (inter in haproxy.cfg). */
const LB_READY_TIMEOUT_MS = 15_000;
/** After SIGTERM, how long a replica may take to close its sessions and its pool before SIGKILL. */
const STOP_GRACE_MS = 5_000;

/** A problem that stops the run after it was explained: printed as it is, exit 1. */
class StartError extends Error {}

const say = (line) => console.log(`scale:local: ${line}`);

async function main() {
  let options;
  try {
    const parsed = parseScaleArgs(process.argv.slice(2));
    if (parsed.writeConfig) {
      fs.writeFileSync(LOCAL_CONFIG, expectedLocalConfig());
      say(
        `wrote ${path.relative(process.cwd(), LOCAL_CONFIG)} from ${path.relative(process.cwd(), SHIPPED_CONFIG)}`,
      );
      return 0;
    }
    options = { ...parsed, databaseUrl: requireDatabaseUrl(process.env.DATABASE_URL) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`scale:local: ${error.message}\n${USAGE}`);
    return 2;
  }
  try {
    return await run(options);
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    console.error(`scale:local: ${error.message}`);
    return 1;
  }
}

/** @param {{ lbPort: number, replicaPorts: number[], databaseUrl: string }} options */
async function run({ lbPort, replicaPorts, databaseUrl }) {
  if (!fs.existsSync(SERVER_ENTRY)) throw new StartError(`${SERVER_ENTRY} is missing: run pnpm build first`);
  // Checked before anything starts, so a busy port leaves nothing behind and names the culprit.
  for (const port of [...replicaPorts, lbPort]) {
    if (!(await portFree(port))) {
      throw new StartError(
        `127.0.0.1:${port} is in use: stop what listens there (the servers of step 3? kill %1 %2) or pick other ports (--port, --replica-ports)`,
      );
    }
  }
  const haproxy = findHaproxy();
  if (!haproxy) {
    throw new StartError(
      'HAProxy not found: sudo apt-get install -y haproxy (or brew install haproxy), or set HAPROXY_BIN',
    );
  }

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-scale-local-'));
  const children = [];
  let stopping = false;
  let failure;
  /** @type {(value?: unknown) => void} */
  let wake = () => {};
  const finished = new Promise((resolve) => {
    wake = resolve;
  });
  const start = (name, command, args, env) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
    }
    child.once('error', (error) => {
      failure ??= `${name} could not start: ${error.message}`;
      wake();
    });
    exited.then((code) => {
      if (stopping) return;
      failure ??= `${name} (pid ${child.pid}) exited (${child.signalCode ?? `code ${code}`}); stopping the others`;
      wake();
    });
    const entry = { name, child, exited };
    children.push(entry);
    return entry;
  };
  const stopAll = async () => {
    stopping = true;
    // HAProxy first, so no request is routed to a replica that is going away; then the replicas together.
    const [lb, ...replicas] = [...children].reverse();
    if (lb) await stopChild(lb.child, { graceMs: STOP_GRACE_MS });
    await Promise.all(replicas.map((entry) => stopChild(entry.child, { graceMs: STOP_GRACE_MS })));
    fs.rmSync(root, { recursive: true, force: true });
  };
  let signalled = false;
  const onSignal = (signal) => {
    if (signalled) return;
    signalled = true;
    say(`${signal}: stopping HAProxy and the replicas`);
    wake();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const replicas = replicaPorts.map((port, index) =>
      start(`replica-${index + 1}`, process.execPath, [SERVER_ENTRY], {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        // Unused for tasks with DATABASE_URL, but each replica keeps its other files apart.
        DATA_DIR: path.join(root, `replica-${index + 1}`),
        // HAProxy's request lines are the interesting output here; a replica's info lines would drown them.
        LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
        OTEL_RESOURCE_ATTRIBUTES:
          process.env.OTEL_RESOURCE_ATTRIBUTES || `service.instance.id=replica-${index + 1}`,
      }),
    );
    say(`starting ${replicas.length} replicas on ${redactUrl(databaseUrl)}`);
    await readyOrFailure(
      replicaPorts.map((port) => `http://127.0.0.1:${port}/health/ready`),
      READY_TIMEOUT_MS,
      finished,
      () => failure,
      () => signalled,
    );

    const config = localHaproxyConfig(fs.readFileSync(SHIPPED_CONFIG, 'utf8'), lbPort, replicaPorts);
    // The shipped loopback file when the ports are the defaults, so what runs is what the docs show.
    const shipped = fs.existsSync(LOCAL_CONFIG) && fs.readFileSync(LOCAL_CONFIG, 'utf8') === config;
    const configFile = shipped ? LOCAL_CONFIG : path.join(root, 'haproxy.cfg');
    if (!shipped) fs.writeFileSync(configFile, config);
    // -db: in the foreground, so the child is HAProxy itself and our signal reaches it.
    start('haproxy', haproxy, ['-db', '-f', configFile], process.env);
    await readyOrFailure(
      [`http://127.0.0.1:${lbPort}/health`],
      LB_READY_TIMEOUT_MS,
      finished,
      () => failure,
      () => signalled,
    );

    for (const [index, entry] of replicas.entries()) {
      say(`${entry.name}  http://127.0.0.1:${replicaPorts[index]}/mcp  pid ${entry.child.pid}`);
    }
    say(
      `haproxy    http://127.0.0.1:${lbPort}/mcp  pid ${children.at(-1)?.child.pid}  config ${shipped ? path.relative(process.cwd(), configFile) : configFile}`,
    );
    say('all ready; Ctrl-C stops them all');
    await finished;
    if (failure && !signalled) throw new StartError(failure);
    return 0;
  } finally {
    await stopAll();
    say('stopped');
  }
}

/** Waits for the URLs, unless a child dies or Ctrl-C comes first; then it stops waiting at once. */
async function readyOrFailure(urls, timeoutMs, finished, failure, signalled) {
  const waited = await Promise.race([waitForAll(urls, { timeoutMs }), finished.then(() => undefined)]);
  if (signalled()) throw new StartError('interrupted before everything was ready');
  if (failure()) throw new StartError(failure());
  const notReady = waited?.filter((result) => !result.ok) ?? [];
  if (notReady.length > 0) throw new StartError(notReady.map(describeResult).join('\n'));
}

function portFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
