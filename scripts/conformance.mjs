#!/usr/bin/env node
// @ts-check
/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) against the built
 * server over Streamable HTTP. Partner of `dev/conformance-server` (the catalogue with the fixtures
 * the suite calls).
 *
 *   node scripts/conformance.mjs            dev/conformance-server/dist/index.js (fixtures on), every scenario
 *                                           of `--suite all` (65 in 0.2.0-alpha.12)
 *   node scripts/conformance.mjs --default  services/mcp-server/dist/index.js, the server as shipped, only the
 *                                           8 scenarios that need no fixture (DEFAULT_SERVER_SCENARIOS)
 *
 * It prints the totals the suite's own summary leaves out (scenarios, skipped checks, warnings) and
 * exits non-zero when the suite does, when a scenario wrote no results, or when any check FAILED or
 * was SKIPPED without an allowance (`scripts/lib/conformance-totals.mjs` says which skips are
 * allowed and why). Root scripts `pnpm conformance` and `pnpm conformance:default` build first. The
 * server runs on the Node that runs this script; the suite needs Node >= 22, which `dev/node22`
 * provides on Linux x64.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, stopChild } from '@mcp-workshop/shared/processes';
import { conformanceTotals } from './lib/conformance-totals.mjs';
import { findSuiteNode } from './lib/suite-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The catalogue as shipped, and the same catalogue with the conformance fixtures. */
const SERVER_ENTRY = path.join(ROOT, 'services/mcp-server/dist/index.js');
const FIXTURES_SERVER_ENTRY = path.join(ROOT, 'dev/conformance-server/dist/index.js');
const SUITE_CLI = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Start-up is well under a second; 20 s leaves room for a cold CI disk without hanging forever. */
const STARTUP_TIMEOUT_MS = 20_000;
const HEALTH_POLL_MS = 100;
const HEALTH_REQUEST_TIMEOUT_MS = 1_000;
/** A full run takes about 10 s; a broken server-to-client channel costs 60 s per scenario, so cap it. */
const SUITE_TIMEOUT_MS = 10 * 60_000;
/** One scenario of the default run; the slowest passing one takes a few seconds. */
const SCENARIO_TIMEOUT_MS = 2 * 60_000;
/** The server closes its sessions and the database on SIGTERM; after this it is killed. */
const SHUTDOWN_TIMEOUT_MS = 5_000;

/**
 * Scenarios the plain server (no fixtures) must pass: protocol behaviour that does not depend on
 * any `test_*` tool, resource or prompt. `tools-list`, `resources-list` and `prompts-list` check
 * the workshop's own items (name, description, inputSchema).
 */
const DEFAULT_SERVER_SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The environment the server starts with: ours wins over whatever the caller exported, and every
 * other MCP_* setting is dropped so a stateless mode or a tiny page size cannot leak in. The
 * default MCP_MAX_SESSIONS_PER_CLIENT (50) matters: the suite never sends DELETE, so one run
 * leaves ~33 sessions open from one address until they expire, which is also why each run gets
 * a fresh server.
 */
function serverEnv({ port, dataDir }) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('MCP_')) delete env[key];
  return {
    ...env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEATHER_PROVIDER: 'offline',
  };
}

function startServer(entry, env) {
  if (!fs.existsSync(entry)) {
    throw new Error(`${path.relative(ROOT, entry)} is missing: run \`pnpm build\` first.`);
  }
  // Server logs go to stderr, so stdout carries only the suite's report.
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(process.stderr);
  child.stderr.pipe(process.stderr);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited };
}

async function waitForHealth(baseUrl, server) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  /** @type {Error | undefined} */
  let lastError;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`The server exited with code ${server.child.exitCode} before it was healthy.`);
    }
    try {
      const response = await fetch(`${baseUrl}/health`, {
        signal: AbortSignal.timeout(HEALTH_REQUEST_TIMEOUT_MS),
      });
      if (response.ok) return;
      lastError = new Error(`GET /health answered ${response.status}`);
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
    }
    await sleep(HEALTH_POLL_MS);
  }
  throw new Error(
    `The server was not healthy within ${STARTUP_TIMEOUT_MS} ms: ${lastError?.message ?? 'no answer'}`,
  );
}

async function stopServer(server) {
  await stopChild(server.child, { graceMs: SHUTDOWN_TIMEOUT_MS });
  if (server.child.signalCode === 'SIGKILL') {
    console.error(`The server did not stop within ${SHUTDOWN_TIMEOUT_MS} ms of SIGTERM; it was killed.`);
  }
}

/** Runs the suite CLI once; resolves with its exit code (1 if it had to be killed). */
function runSuite(node, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [SUITE_CLI, 'server', ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => {
      console.error(`The conformance suite did not finish within ${timeoutMs / 1000} s; stopping it.`);
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}

/** Reads every `<out>/server-<scenario>-<timestamp>/checks.json` the suite wrote (`-o <out>`). */
function readResults(resultsDir) {
  const results = [];
  if (!fs.existsSync(resultsDir)) return results;
  for (const entry of fs.readdirSync(resultsDir, { withFileTypes: true })) {
    const file = path.join(resultsDir, entry.name, 'checks.json');
    if (!entry.isDirectory() || !fs.existsSync(file)) continue;
    const scenario = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    results.push({ scenario, checks: JSON.parse(fs.readFileSync(file, 'utf8')) });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

async function main() {
  const { values } = parseArgs({ options: { default: { type: 'boolean', default: false } }, strict: true });
  const fixtures = !values.default;
  const suiteNode = findSuiteNode();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  const dataDir = path.join(workDir, 'data');
  const resultsDir = path.join(workDir, 'results');
  fs.mkdirSync(dataDir);

  const server = startServer(fixtures ? FIXTURES_SERVER_ENTRY : SERVER_ENTRY, serverEnv({ port, dataDir }));
  const onSignal = () => server.child.kill('SIGTERM');
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await waitForHealth(baseUrl, server);
    const common = ['--url', `${baseUrl}/mcp`, '--output-dir', resultsDir];
    let exitCode = 0;
    let expected;
    if (fixtures) {
      exitCode = await runSuite(suiteNode, [...common, '--suite', 'all'], SUITE_TIMEOUT_MS);
      // The suite decides which scenarios "all" holds; a scenario that crashes still writes a FAILURE.
      expected = readResults(resultsDir).length;
    } else {
      for (const scenario of DEFAULT_SERVER_SCENARIOS) {
        const code = await runSuite(suiteNode, [...common, '--scenario', scenario], SCENARIO_TIMEOUT_MS);
        exitCode = Math.max(exitCode, code);
      }
      expected = DEFAULT_SERVER_SCENARIOS.length;
    }
    const label = fixtures ? 'Conformance, fixtures on, --suite all' : 'Conformance, default server';
    // One rule for both runs: none of the default run's scenarios reports a SKIPPED check
    // (0.2.0-alpha.12), so a skip there is as wrong as in the fixtures run.
    const totals = conformanceTotals(readResults(resultsDir), expected);
    console.log(`\n=== ${label} ===`);
    for (const line of totals.lines) console.log(line);
    // The suite's code decides first; a run with a missing scenario, a failure or a skip fails too.
    if (exitCode === 0 && !totals.passed) exitCode = 1;
    return exitCode;
  } finally {
    await stopServer(server);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
