/**
 * @module run/prepare
 * Puts a catalogue together with the host, once per process: its services (built once and kept
 * across reloads), the MCP Tasks runtime over its task backend (handed every tool's task work from
 * the tool list), and the server factory the transports call. `reload` swaps in a new catalogue
 * value (`pnpm dev`): the next servers are built from it and tasks run its tools' new work.
 * Every way of serving (HTTP, stdio, in-process tests) starts here.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { ScopePolicy } from '../auth/policy.js';
import type { AppOptions } from '../http/app.js';
import {
  type Catalogue,
  type CatalogueServices,
  type RegisterContext,
  taskWorksOf,
} from '../kit/catalogue.js';
import { cataloguePolicy, createCatalogueServer } from '../kit/server.js';
import type { Logger } from '../logger.js';
import { createTaskRuntime, type TaskRuntime } from '../tasks/runtime.js';
import type { HostTelemetry } from '../telemetry/types.js';
import type { EnvShape, RunEnv } from './env.js';

/** How long after serving starts the catalogue opens what it needs (its database): after the first requests. */
const OPEN_AFTER_MS = 500;
/** How long to wait before starting MCP Tasks again when the database was not there: soon once, then every 5 s. */
const FIRST_RUNS_RETRY_MS = 500;
const RUNS_RETRY_MS = 5_000;

export interface PrepareOptions<Shape extends EnvShape> {
  env: RunEnv<Shape>;
  logger: Logger;
  telemetry?: HostTelemetry | undefined;
  /** Fixes the clock the catalogue's services use (tests). */
  now?: () => Date;
  /** The lists may change while connected: a reloading host (`pnpm dev`) sets it. */
  listChanged?: boolean;
}

export interface PreparedCatalogue<Deps = unknown> {
  services: CatalogueServices<Deps>;
  /** The MCP Tasks runtime, when the catalogue has a task backend. */
  runtime: TaskRuntime | undefined;
  /** What `startHttpHost` needs from the catalogue. */
  hostOptions(): Pick<AppOptions, 'buildServer' | 'info' | 'publishEvents' | 'checkReady' | 'tasks'>;
  /** The scopes the catalogue's tools, prompts and resources need now. */
  policy(): ScopePolicy;
  /** Builds one server instance of the current catalogue. */
  buildServer(): McpServer;
  /**
   * Prepares `next` (a reloaded catalogue) on the same services: its server factory and scopes for
   * the host's own reload, and `commit`, called once the host took it, after which new servers and
   * tasks use it. A reload the host refused (a factory that throws) is never committed.
   */
  reload(next: Catalogue): { buildServer: () => McpServer; policy: ScopePolicy; commit(): void };
  /**
   * Opens the catalogue's services in the background, then starts MCP Tasks (retrying while the
   * database is away). An error the operator must fix (an `EnvError`) goes to `onFatal`.
   */
  openSoon(onFatal: (error: unknown) => void): () => void;
  /** Stops the tasks, then closes the services: what a server does last. */
  close(): Promise<void>;
}

export function prepareCatalogue<Shape extends EnvShape, Deps>(
  catalogue: Catalogue<Shape, Deps>,
  options: PrepareOptions<Shape>,
): PreparedCatalogue<Deps> {
  const { env, logger, telemetry } = options;
  const services = catalogue.services({ env, logger, telemetry, now: options.now });
  const backend = services.tasks;
  const runtime = backend
    ? createTaskRuntime({
        runs: backend.storage,
        queue: backend.queue,
        logger,
        maxActivePerOwner: env.MCP_MAX_ACTIVE_TASKS_PER_USER,
        ...(backend.changes && { changes: backend.changes }),
      })
    : undefined;
  const context: RegisterContext<Deps> = { deps: services.deps, logger, runs: runtime };
  let current = catalogue;
  runtime?.setWorks(taskWorksOf(current, context));

  const build = (from: Catalogue<Shape, Deps>) => () =>
    createCatalogueServer(from, services, context, {
      env,
      pageSize: env.MCP_PAGE_SIZE,
      listChanged: options.listChanged ?? false,
      telemetry,
    });
  let buildServer = build(current);

  return {
    services,
    runtime,
    hostOptions: () => ({
      buildServer: () => buildServer(),
      info: { name: current.name, version: current.version },
      ...(services.publishEvents && { publishEvents: services.publishEvents.bind(services) }),
      ...(services.checkReady && { checkReady: services.checkReady.bind(services) }),
      ...(runtime && { tasks: runtime }),
    }),
    policy: () => cataloguePolicy(current),
    buildServer: () => buildServer(),
    reload(next) {
      // The same services and deps; only the catalogue's code is new.
      const typed = next as Catalogue<Shape, Deps>;
      const nextBuild = build(typed);
      return {
        buildServer: nextBuild,
        policy: cataloguePolicy(typed),
        commit() {
          current = typed;
          buildServer = nextBuild;
          // Runs started from now on, and runs resumed at their next slice, run the new code.
          runtime?.setWorks(taskWorksOf(typed, context));
        },
      };
    },
    openSoon(onFatal) {
      let timer = setTimeout(() => {
        Promise.resolve(services.open?.()).then(startRuns).catch(onFatal);
      }, OPEN_AFTER_MS);
      // MCP Tasks start working once the database is open: unfinished ones resume. A database that
      // is down (Postgres) or still busy with a server that is leaving (SQLite) delays that, never
      // the server. A first miss is usually the latter and gone a moment later, so only a second
      // one is worth a warning.
      let misses = 0;
      const startRuns = (): Promise<void> =>
        (runtime?.start() ?? Promise.resolve()).catch((error: unknown) => {
          misses++;
          const delay = misses === 1 ? FIRST_RUNS_RETRY_MS : RUNS_RETRY_MS;
          const message = `MCP Tasks could not start; trying again in ${delay / 1000} s`;
          if (misses === 1) logger.debug({ err: error }, message);
          else logger.warn({ err: error }, message);
          timer = setTimeout(() => void startRuns(), delay);
          timer.unref();
        });
      // Never the reason the process stays alive: stdio exits when its client closes stdin.
      timer.unref();
      // A stop within the delay cancels it: opening a store that was just closed is an error.
      return () => clearTimeout(timer);
    },
    async close() {
      // Tasks first: a run in progress stays `working` and resumes at the next start (or on another replica).
      await runtime?.stop();
      await services.close?.();
    },
  };
}
