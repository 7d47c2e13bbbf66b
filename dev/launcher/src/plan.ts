/**
 * @module plan
 * Decides, without touching anything, which services the launcher must start: the pure half of
 * `launch.ts`. Test: `plan.test.ts`.
 */
import type { LauncherEnv } from './env.js';

/** Where `pnpm start` and docker-compose run the MCP server; `pnpm ask` looks there first. */
export const DEFAULT_SERVER_PORT = 3000;
/** Where `pnpm start` runs the demo model; the agent's DEMO_MODEL_URL defaults to it. */
export const DEFAULT_DEMO_MODEL_URL = 'http://127.0.0.1:3002/v1';

/** What the launcher starts services for; `lint` is `pnpm eval --lint`, which asks no model. */
export type Command = 'ask' | 'chat' | 'demo' | 'eval' | 'lint';

/** One service to look for: reuse it when something listens at host:port, otherwise start it. */
export interface Lookup {
  host: string;
  /** Where to look for a running one; undefined: always start a fresh one (the demo's database). */
  probePort?: number;
  /** Where to start one: an explicit PORT, or 0 for any free port. */
  startPort: number;
  /** Variables a started one gets on top of the caller's environment. */
  env?: Record<string, string>;
}

export interface LaunchPlan {
  /** undefined: the agent's own settings say where the MCP servers are; nothing to start. */
  server?: Lookup;
  /** undefined: a real model is configured, or DEMO_MODEL_URL names one; nothing to start. */
  demoModel?: Lookup;
}

/**
 * `ask` prints the answer only once it is whole, so the pause the demo model leaves between stream
 * events (to show streaming in `chat` and on the web page) would only make it slower.
 */
const UNPACED_DEMO_MODEL = { DEMO_MODEL_CHUNK_DELAY_MS: '0' };

/**
 * - MCP server: nothing to do when MCP_SERVER_URL or MCP_SERVERS_CONFIG is set. Otherwise look
 *   at HOST:PORT (default 127.0.0.1:3000). `ask` and `chat` use a server already listening there;
 *   the demo and the eval always start their own, with a temporary database, on a free port: the
 *   eval's cases really call the tools, and must neither touch nor depend on the person's to-do items.
 * - Model: nothing to do for `lint`, or with OPENAI_API_KEY, OPENAI_BASE_URL or DEMO_MODEL_URL. Otherwise look
 *   for the demo model at DEMO_MODEL_HOST:DEMO_MODEL_PORT (default 127.0.0.1:3002), and start one
 *   if nothing answers: on DEMO_MODEL_PORT when set, else on a free port. `ask` and `eval` start
 *   one that answers without pauses between stream events, unless DEMO_MODEL_CHUNK_DELAY_MS says otherwise.
 */
export function planLaunch(command: Command, env: LauncherEnv): LaunchPlan {
  const plan: LaunchPlan = {};
  if (!env.MCP_SERVER_URL && !env.MCP_SERVERS_CONFIG) {
    plan.server =
      command === 'demo' || command === 'eval' || command === 'lint'
        ? { host: '127.0.0.1', startPort: 0 }
        : { host: env.HOST, probePort: env.PORT ?? DEFAULT_SERVER_PORT, startPort: env.PORT ?? 0 };
  }
  if (command !== 'lint' && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL && !env.DEMO_MODEL_URL) {
    const port = env.DEMO_MODEL_PORT ?? Number(new URL(DEFAULT_DEMO_MODEL_URL).port);
    // DEMO_MODEL_PORT=0 means "any free port": nothing to look for.
    plan.demoModel =
      port === 0
        ? { host: env.DEMO_MODEL_HOST, startPort: 0 }
        : { host: env.DEMO_MODEL_HOST, probePort: port, startPort: env.DEMO_MODEL_PORT ?? 0 };
    if ((command === 'ask' || command === 'eval') && env.DEMO_MODEL_CHUNK_DELAY_MS === undefined) {
      plan.demoModel.env = UNPACED_DEMO_MODEL;
    }
  }
  return plan;
}
