/**
 * @module serve
 * Serves a built catalogue over Streamable HTTP from a validated environment: sign-in when
 * MCP_AUTH_ISSUER is set, the limits and shares from MCP_*, the task database opened once serving,
 * and a clean stop on SIGINT and SIGTERM. `main.ts` calls it for `node dist/index.js`; `pnpm dev`
 * calls it with `reloadable` and swaps the catalogue on each save (`HostApp.reload`).
 */
import type { HttpHost } from '@mcp-workshop/mcp-host/http';
import type { Logger } from '@mcp-workshop/mcp-host/logger';
import type { HostTelemetry } from '@mcp-workshop/mcp-host/telemetry';
import { redactDatabaseUrl } from '@mcp-workshop/task-store';
import type { ServerDeps } from './deps.js';
import { EnvError, type ServerEnv } from './env.js';
import { cataloguePolicy, type HostedCatalogue } from './hosted.js';

/**
 * How long after serving starts the task database opens. Opening blocks the event loop for
 * 0.1–0.2 s on a 2-core machine (WebAssembly, schema check), so it waits until a host's first
 * requests (initialize, tools/list) are answered; a task call before then opens it on the spot.
 */
const OPEN_TASKS_AFTER_MS = 500;
/** How long to wait before starting MCP Tasks again when the database was not there: soon once, then every 5 s. */
const FIRST_RUNS_RETRY_MS = 500;
const RUNS_RETRY_MS = 5_000;

export interface ServeHttpOptions {
  env: ServerEnv;
  logger: Logger;
  deps: ServerDeps;
  catalogue: HostedCatalogue;
  telemetry?: HostTelemetry | undefined;
  /** Lets the caller swap the catalogue while serving (`pnpm dev`). */
  reloadable?: boolean;
}

/** Listens on HOST:PORT and resolves once serving; a port in use ends the process with a message saying so. */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpHost> {
  const { env, logger, deps, catalogue, telemetry } = options;
  // The narrow entry: the package's main one also exports the in-process client, which a cold start never needs.
  const { startHttpHost } = await import('@mcp-workshop/mcp-host/http');
  const auth = await discoverAuth(env, logger);
  // Before the first server is built: each one serves the skills loaded by then.
  await deps.skills.load();
  const hosting = startHttpHost({
    ...catalogue,
    logger,
    port: env.PORT,
    hostname: env.HOST,
    stateless: env.MCP_STATELESS,
    sessionTtlSeconds: env.MCP_SESSION_TTL_SECONDS,
    ...(env.MCP_STALLED_RESPONSE_SECONDS && { stalledResponseMs: env.MCP_STALLED_RESPONSE_SECONDS * 1000 }),
    maxSessions: env.MCP_MAX_SESSIONS,
    maxSessionsPerClient: env.MCP_MAX_SESSIONS_PER_CLIENT,
    maxStreams: env.MCP_MAX_STREAMS,
    maxStreamsPerClient: env.MCP_MAX_STREAMS_PER_CLIENT,
    allowedHosts: env.MCP_ALLOWED_HOSTS,
    allowedOrigins: env.MCP_ALLOWED_ORIGINS,
    ...(env.MCP_TRUST_PROXY && { trustProxy: env.MCP_TRUST_PROXY }),
    ...(auth && { auth }),
    ...(options.reloadable && { reloadable: true }),
    rateLimits: {
      callsPerMinute: env.MCP_RATE_LIMIT_PER_MINUTE,
      handshakesPerMinute: env.MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE,
      authFailuresPerMinute: env.MCP_AUTH_FAILURE_LIMIT_PER_MINUTE,
    },
  });
  let host: HttpHost;
  try {
    host = await hosting;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      logger.fatal(
        `Port ${env.PORT} on ${env.HOST} is already in use. Stop the other process or set PORT=<free port>.`,
      );
    } else {
      logger.fatal({ err: error }, 'could not start the HTTP server');
    }
    process.exit(1);
  }
  logger.info(
    {
      url: `http://${env.HOST}:${host.port}/mcp`,
      mode: env.MCP_STATELESS ? 'stateless' : 'stateful',
      ...taskLocation(env),
    },
    'MCP server listening',
  );
  const cancelOpen = openTasksSoon(deps);

  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    cancelOpen();
    await host.close();
    await deps.close();
    // The last spans and metrics are sent before the process goes.
    await telemetry?.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return host;
}

/** With MCP_AUTH_ISSUER set, finds the issuer's metadata before serving; an issuer that can't be found stops start-up. */
async function discoverAuth(env: ServerEnv, logger: Logger) {
  if (!env.MCP_AUTH_ISSUER || !env.MCP_RESOURCE_URL) return undefined;
  const { discoverIssuer } = await import('@mcp-workshop/mcp-host/issuer');
  // Started together with the issuer (`pnpm start:secure`, compose, or one pasted block), the
  // server waits for it, within the host's bound, instead of dying on the first refused connection.
  const issuer = await discoverIssuer(env.MCP_AUTH_ISSUER, {
    onWait: ({ issuerUrl, attempt, delayMs, reason }) =>
      logger.warn(
        { issuer: issuerUrl, attempt, retryInMs: delayMs, reason },
        'the authorization server does not answer yet; waiting for it',
      ),
  });
  logger.info({ issuer: issuer.issuer, resource: env.MCP_RESOURCE_URL }, 'OAuth sign-in is on');
  return { issuer, resource: env.MCP_RESOURCE_URL, policy: cataloguePolicy() };
}

/** Where tasks live, for the start-up log line: never the database password. */
export function taskLocation(env: ServerEnv): { dataDir: string } | { database: string } {
  return env.DATABASE_URL ? { database: redactDatabaseUrl(env.DATABASE_URL) } : { dataDir: env.DATA_DIR };
}

/**
 * Opens the task database in the background. A wrong setting (DATA_DIR, a failed migration) stops
 * the server; Postgres merely unreachable does not: `openTasks` logs a warning and resolves, and the
 * next task call or `/health/ready` check tries again.
 */
export function openTasksSoon(deps: ServerDeps): () => void {
  let timer = setTimeout(() => {
    deps.openTasks().then(startRuns).catch(exitWithError);
  }, OPEN_TASKS_AFTER_MS);
  // MCP Tasks start working once the database is open: unfinished ones resume. A database that is
  // down (Postgres) or still busy with a server that is leaving (SQLite) delays that, never the
  // server: it tries again until it works or the server stops. A first miss is usually the latter
  // and gone a moment later, so only a second one is worth a warning.
  let misses = 0;
  const startRuns = (): Promise<void> =>
    deps.runs.start().catch((error: unknown) => {
      misses++;
      const delay = misses === 1 ? FIRST_RUNS_RETRY_MS : RUNS_RETRY_MS;
      const message = `MCP Tasks could not start; trying again in ${delay / 1000} s`;
      if (misses === 1) deps.logger.debug({ err: error }, message);
      else deps.logger.warn({ err: error }, message);
      timer = setTimeout(() => void startRuns(), delay);
      timer.unref();
    });
  // Never the reason the process stays alive: stdio exits when its client closes stdin.
  timer.unref();
  // A stop within the delay cancels it: opening a store that was just closed is an error, and it
  // would end the process with exit code 1 before the last spans are sent.
  return () => clearTimeout(timer);
}

export function exitWithError(error: unknown): never {
  const known =
    error instanceof EnvError || (error instanceof Error && error.name === 'IssuerDiscoveryError');
  console.error(known && error instanceof Error ? error.message : error);
  process.exit(1);
}
