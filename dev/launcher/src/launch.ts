/**
 * @module launch
 * Carries out a `LaunchPlan`: reuses a service that already listens, or starts it as its own
 * process, and returns what the agent needs to reach them (MCP_SERVER_URL, DEMO_MODEL_URL) plus a
 * note for each decision, so the person sees which server and which model answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeDevStack, readDevBlock } from './dev-stack.js';
import type { LauncherEnv } from './env.js';
import type { Command, LaunchPlan, Lookup } from './plan.js';
import { planLaunch } from './plan.js';
import { isListening } from './probe.js';
import { dialable, type RunningService, startService } from './service-process.js';
import { DEMO_MODEL, MCP_SERVER, type ServiceSpec } from './services.js';
import { staleCatalogueWarning } from './staleness.js';

/** The catalogue's package folder, whose sources a running server is compared with. */
const CATALOGUE_ROOT = dirname(
  createRequire(import.meta.url).resolve('@mcp-workshop/mcp-server/package.json'),
);

export interface Launched {
  /** Variables to set for the agent on top of the caller's environment. */
  agentEnv: Record<string, string>;
  /** One line per decision, e.g. "started the workshop MCP server at …". */
  notes: string[];
  /** Lines the person must not miss (stderr): `pnpm dev`'s last save failed, and where. */
  warnings: string[];
  /** Stops what was started, all at once, and removes a temporary database once its server is gone. */
  stop(): Promise<void>;
}

/** Stops one service it started, and whatever goes with it; never rejects. */
type Stop = () => Promise<void>;

export async function launch(
  command: Command,
  env: LauncherEnv,
  source: NodeJS.ProcessEnv,
): Promise<Launched> {
  const plan: LaunchPlan = planLaunch(command, env);
  const agentEnv: Record<string, string> = {};
  const notes: string[] = [];
  const warnings: string[] = [];
  const stops: Stop[] = [];
  // In parallel: the person waits for the slower stop only, as for the starts.
  const stop = async () => {
    await Promise.all(stops.splice(0).map((fn) => fn().catch(() => undefined)));
  };
  try {
    // Both start at once: each is a cold Node process, and `pnpm ask` waits for the slower one only.
    const [server, model] = await Promise.allSettled([
      plan.server ? startServer(command, plan.server, env, source, stops) : undefined,
      plan.demoModel ? reuseOrStart(DEMO_MODEL, plan.demoModel, source, stops) : undefined,
    ]);
    if (server.status === 'rejected') throw server.reason;
    if (model.status === 'rejected') throw model.reason;
    if (server.value) {
      const { found, where } = server.value;
      agentEnv.MCP_SERVER_URL = found.url;
      // `pnpm dev`'s server reloads on save: no staleness to judge, but its last save may have failed.
      const dev = found.started ? undefined : await readDevBlock(new URL(found.url).origin);
      if (found.started) {
        notes.push(`started the workshop MCP server at ${found.url} (process ${found.pid}, ${where}).`);
      } else if (dev) {
        const told = describeDevStack(found.url, dev);
        notes.push(told.note);
        warnings.push(...told.warnings);
      } else {
        notes.push(`using the MCP server already listening at ${found.url}; stop it for a fresh one.`);
        // A server this launcher did not start may predate the last save: never talk to it in silence.
        const stale = await staleCatalogueWarning(new URL(found.url).origin, CATALOGUE_ROOT);
        if (stale) notes.push(`WARNING: ${stale}`);
      }
    }
    if (model.value) {
      const found = model.value;
      agentEnv.DEMO_MODEL_URL = found.url;
      notes.push(
        found.started
          ? `No OPENAI_API_KEY or OPENAI_BASE_URL: started the offline demo model at ${found.url} ` +
              `(process ${found.pid}). It is a scripted stand-in, not a language model.`
          : `No OPENAI_API_KEY or OPENAI_BASE_URL: using the offline demo model already listening at ${found.url}.`,
      );
    }
    return { agentEnv, notes, warnings, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A server started fresh (the demo's, the eval's: no port to look at first) gets a throw-away
 * database; otherwise the server's own DATA_DIR (or its default) holds the tasks.
 */
async function startServer(
  command: Command,
  lookup: Lookup,
  env: LauncherEnv,
  source: NodeJS.ProcessEnv,
  stops: Stop[],
): Promise<{ found: Found; where: string }> {
  if (lookup.probePort !== undefined) {
    const where = `tasks in ${env.DATA_DIR ?? 'services/mcp-server/data'}`;
    return { found: await reuseOrStart(MCP_SERVER, lookup, source, stops), where };
  }
  const dataDir = mkdtempSync(join(tmpdir(), `mcp-workshop-${command}-`));
  const removeDataDir = async () => rmSync(dataDir, { recursive: true, force: true });
  // The database goes once the server that has it open is gone, and with it if it never started.
  const serverStops: Stop[] = [];
  try {
    const found = await reuseOrStart(MCP_SERVER, lookup, { ...source, DATA_DIR: dataDir }, serverStops);
    stops.push(async () => {
      for (const fn of serverStops) await fn().catch(() => undefined);
      await removeDataDir();
    });
    return { found, where: 'a temporary task database' };
  } catch (error) {
    await removeDataDir();
    throw error;
  }
}

interface Found {
  url: string;
  started: boolean;
  pid?: number;
}

async function reuseOrStart(
  spec: ServiceSpec,
  lookup: Lookup,
  env: NodeJS.ProcessEnv,
  stops: Stop[],
): Promise<Found> {
  if (lookup.probePort !== undefined && (await isListening(dialableHost(lookup.host), lookup.probePort))) {
    return { url: `http://${dialable(lookup.host)}:${lookup.probePort}${spec.urlPath}`, started: false };
  }
  // Quiet by default, as the in-terminal agent is; LOG_LEVEL=info or debug shows the services' logs.
  const service: RunningService = await startService(spec, {
    host: lookup.host,
    port: lookup.startPort,
    env: { ...env, ...lookup.env, LOG_LEVEL: env.LOG_LEVEL || 'warn' },
  });
  stops.push(() => service.stop());
  return { url: service.url, started: true, pid: service.pid };
}

/** `dialable` without the URL brackets, for a socket connect. */
function dialableHost(host: string): string {
  return dialable(host).replace(/^\[|\]$/g, '');
}
