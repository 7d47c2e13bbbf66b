// @ts-check
/**
 * The stack `pnpm start` runs (the MCP server on :3000, the agent on :3001, the demo model on
 * :3002), started from the built services for the runnable blocks marked `stack` in the docs
 * (scripts/check-docs.mjs): the blocks written "with `pnpm start` running" then run as written.
 * Tasks go to a throwaway DATA_DIR, so every run starts from the same empty store.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** In start order: the agent connects to the server, so the server comes first. */
export const STACK_SERVICES = [
  { name: 'mcp-server', dir: 'services/mcp-server', health: 'http://127.0.0.1:3000/health' },
  { name: 'demo-model', dir: 'services/demo-model', health: 'http://127.0.0.1:3002/health' },
  { name: 'agent', dir: 'services/agent', health: 'http://127.0.0.1:3001/health' },
];
/** A built service is up in a second or two; this covers a loaded CI machine. */
const READY_TIMEOUT_MS = 30_000;
const POLL_MS = 200;
/** Settings that would move a service off the ports and URLs the docs use. */
const MOVED_BY =
  /^(PORT|HOST|AGENT_PORT|AGENT_HOST|DEMO_MODEL_PORT|DEMO_MODEL_HOST|DEMO_MODEL_URL|MCP_SERVER_URL|MCP_SERVERS_CONFIG|OPENAI_API_KEY|OPENAI_BASE_URL|OPENAI_MODEL|DATA_DIR|DATABASE_URL|MCP_AUTH_ISSUER|MCP_RESOURCE_URL|AGENT_VIEW_SANDBOX_PORT|AGENT_VIEW_SANDBOX_ORIGIN)$/;

/** Whether anything answers at `url`; with `ready`, only a 2xx counts. */
async function answers(url, { ready = false } = {}) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return !ready || response.ok;
  } catch {
    return false;
  }
}

/**
 * Starts the stack (`services`, each run as `node dist/index.js` in its folder under `root`),
 * resolving once every service answers its health URL with a 2xx, in order. Refuses
 * when something already answers on one of its ports: the blocks would talk to that instead.
 * Returns { stop() }.
 */
export async function startStack(root, services = STACK_SERVICES) {
  for (const service of services) {
    if (await answers(service.health)) {
      throw new Error(
        `something already answers at ${service.health}: stop it (a \`pnpm start\` left running?) so the \`stack\` blocks run against their own`,
      );
    }
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-stack-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !MOVED_BY.test(key)));
  const children = [];
  const stop = () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const service of services) {
      const child = spawn(process.execPath, ['dist/index.js'], {
        cwd: path.join(root, service.dir),
        env: { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr = (stderr + chunk).slice(-2_000);
      });
      children.push(child);
      const deadline = Date.now() + READY_TIMEOUT_MS;
      // Ready, not just listening: the agent answers 503 on /health while it still connects.
      while (!(await answers(service.health, { ready: true }))) {
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`${service.name} did not answer at ${service.health}:\n${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
  return { stop };
}
