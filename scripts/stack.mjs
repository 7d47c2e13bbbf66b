#!/usr/bin/env node
// @ts-check
/**
 * `pnpm start` and `pnpm dev`: `turbo run start|dev` (the MCP server, the agent with its chat page and
 * view sandbox, the demo model), then, once all three answer on their health URLs, a short banner with
 * the URLs and what to do next (scripts/lib/stack.mjs plans both). Moving a port (PORT, AGENT_PORT,
 * DEMO_MODEL_PORT, AGENT_VIEW_SANDBOX_PORT) moves the agent's URLs with it.
 *
 * Ctrl-C: the terminal signals turbo with this process; turbo stops the services, and this process
 * waits for it and exits 0, since a stop that was asked for is not a failure.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { stackBanner, stackEnv, stackUrls } from './lib/stack.mjs';

const TASKS = ['start', 'dev'];
/** Between two looks at the services' health while they start. */
const POLL_INTERVAL_MS = 500;
/** A health request that hangs longer than this counts as "not yet". */
const PROBE_TIMEOUT_MS = 2_000;

const task = process.argv[2] ?? '';
if (!TASKS.includes(task)) {
  console.error(`usage: node scripts/stack.mjs ${TASKS.join('|')}`);
  process.exit(2);
}

const env = stackEnv(process.env);
const turboCli = createRequire(import.meta.url).resolve('turbo/bin/turbo');
/**
 * The three services the stack runs, the only packages with `start` and `dev` scripts (package-boundaries
 * holds it): turbo then builds them and what they depend on, not the whole workspace. Unfiltered, it also
 * built the bench and the test packages, which no service needs, and a Ctrl-C during one of those builds
 * killed it with ELIFECYCLE.
 */
const SERVICES = ['@mcp-workshop/mcp-server', '@mcp-workshop/agent', '@mcp-workshop/demo-model'];
const filters = SERVICES.map((name) => `--filter=${name}`);
const turbo = spawn(process.execPath, [turboCli, 'run', task, ...filters, ...process.argv.slice(3)], {
  env,
  stdio: 'inherit',
});
const turboExited = new Promise((resolve) => turbo.once('exit', (code, signal) => resolve({ code, signal })));
let interrupted = false;
let over = false;
turboExited.then(() => {
  over = true;
});

// A terminal's Ctrl-C reaches turbo too (same process group): only note it. A SIGTERM sent to this
// process alone is passed on, and turbo's wrapper hands it to turbo.
process.on('SIGINT', () => {
  interrupted = true;
});
process.on('SIGTERM', () => {
  interrupted = true;
  turbo.kill('SIGTERM');
});

/** Whether `url` answers 2xx now. */
const answers = (url) =>
  fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
    (response) => response.ok,
    () => false,
  );

/** The agent's view sandbox port as it reports it, for AGENT_VIEW_SANDBOX_PORT=0. */
async function sandboxPort(urls) {
  const status = await fetch(urls.agentStatus, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    .then((response) => /** @type {Promise<{ viewSandbox?: { port?: number } }>} */ (response.json()))
    .catch(() => undefined);
  return status?.viewSandbox?.port;
}

/** Waits until the server, the model and the agent (connected: its /health) answer, then prints the banner. */
async function announceWhenUp() {
  const urls = stackUrls(env);
  // No deadline of its own: a first `pnpm start` builds everything first; the wait ends with turbo.
  while (!over && !interrupted) {
    const up = await Promise.all([urls.mcpHealth, urls.modelHealth, urls.agentHealth].map(answers));
    if (up.every(Boolean)) {
      if (!over && !interrupted) console.log(stackBanner(task, stackUrls(env, await sandboxPort(urls))));
      return;
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

void announceWhenUp();
const { code, signal } = await turboExited;
process.exit(interrupted ? 0 : (code ?? (signal ? 1 : 0)));
