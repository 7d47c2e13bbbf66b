/**
 * @module main
 * What the entry (`index.ts`) runs, and the only file that does process-level I/O: it reads the
 * environment and the command line, then serves MCP over HTTP (default) or stdio (`--stdio`).
 *
 *   node dist/index.js            Streamable HTTP on http://HOST:PORT/mcp
 *   node dist/index.js --stdio    MCP on stdin/stdout; logs go to stderr
 */
import { parseArgs } from 'node:util';
import { createLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { redactDatabaseUrl } from '@mcp-workshop/task-store';
import { telemetryEnabled } from '@mcp-workshop/telemetry';
import { createDeps, type ServerDeps } from './deps.js';
import { EnvError, loadEnv, type ServerEnv } from './env.js';
import { cataloguePolicy, hostedCatalogue } from './hosted.js';
import { weatherViewDomains } from './resources/views.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

const USAGE = `Usage: ${SERVER_NAME} [--stdio] [--help]

  (no flag)   serve MCP over Streamable HTTP at http://$HOST:$PORT/mcp (default 127.0.0.1:3000)
  --stdio     serve MCP over stdin/stdout, for Claude Desktop, VS Code, Codex CLI and Inspector
  --help      show this text

Settings come from environment variables; see the README's table.`;

/**
 * How long after serving starts the task database opens. Opening blocks the event loop for
 * 0.1–0.2 s on a 2-core machine (WebAssembly, schema check), so it waits until a host's first
 * requests (initialize, tools/list) are answered; a task call before then opens it on the spot.
 */
const OPEN_TASKS_AFTER_MS = 500;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stdio: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    // stderr, so even `--stdio --help` never puts non-protocol bytes on stdout.
    console.error(USAGE);
    return;
  }

  const env = loadEnv();
  const info = { name: SERVER_NAME, version: SERVER_VERSION };
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; off, OpenTelemetry is never even loaded.
  const telemetry = telemetryEnabled(env)
    ? (await import('@mcp-workshop/mcp-host/telemetry')).startHostTelemetry(env, info)
    : undefined;
  const logger = createLogger(env.LOG_LEVEL, { ...(telemetry && { fields: telemetry.logFields }) });
  const deps = createDeps(env, logger, telemetry);
  const catalogue = hostedCatalogue(deps, {
    pageSize: env.MCP_PAGE_SIZE,
    conformance: env.MCP_CONFORMANCE,
    ...(telemetry && { telemetry }),
    // The weather view's CSP names Open-Meteo only when that provider answers.
    views: {
      weatherConnectDomains: weatherViewDomains({
        provider: env.WEATHER_PROVIDER,
        geocodingUrl: env.OPEN_METEO_GEOCODING_URL,
        forecastUrl: env.OPEN_METEO_FORECAST_URL,
      }),
    },
  });

  // Each mode imports only its own transport: stdio never loads express, HTTP never the stdio reader.
  if (values.stdio) {
    const { startStdioHost } = await import('@mcp-workshop/mcp-host/stdio');
    const handle = startStdioHost(catalogue.buildServer, logger);
    logger.info({ version: SERVER_VERSION, ...taskLocation(env) }, 'serving MCP over stdio');
    const cancelOpen = openTasksSoon(deps);
    const stop = async () => {
      cancelOpen();
      await handle.close();
      await deps.tasks.close();
      await telemetry?.shutdown();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // The client closing stdin ends the session: exit instead of lingering as an orphan.
    process.stdin.once('end', stop);
    return;
  }

  // The narrow entry: the package's main one also exports the in-process client, which a cold start never needs.
  const { startHttpHost } = await import('@mcp-workshop/mcp-host/http');
  const auth = await discoverAuth(env, logger);
  const hosting = startHttpHost({
    ...catalogue,
    logger,
    port: env.PORT,
    hostname: env.HOST,
    stateless: env.MCP_STATELESS,
    sessionTtlSeconds: env.MCP_SESSION_TTL_SECONDS,
    maxSessions: env.MCP_MAX_SESSIONS,
    maxSessionsPerClient: env.MCP_MAX_SESSIONS_PER_CLIENT,
    maxStreams: env.MCP_MAX_STREAMS,
    maxStreamsPerClient: env.MCP_MAX_STREAMS_PER_CLIENT,
    allowedHosts: env.MCP_ALLOWED_HOSTS,
    allowedOrigins: env.MCP_ALLOWED_ORIGINS,
    ...(env.MCP_TRUST_PROXY && { trustProxy: env.MCP_TRUST_PROXY }),
    ...(auth && { auth }),
    rateLimits: {
      callsPerMinute: env.MCP_RATE_LIMIT_PER_MINUTE,
      handshakesPerMinute: env.MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE,
      authFailuresPerMinute: env.MCP_AUTH_FAILURE_LIMIT_PER_MINUTE,
    },
  });
  let host: Awaited<typeof hosting>;
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
    await deps.tasks.close();
    // The last spans and metrics are sent before the process goes.
    await telemetry?.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
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
function taskLocation(env: ServerEnv): { dataDir: string } | { database: string } {
  return env.DATABASE_URL ? { database: redactDatabaseUrl(env.DATABASE_URL) } : { dataDir: env.DATA_DIR };
}

/**
 * Opens the task database in the background. A wrong setting (DATA_DIR, a failed migration) stops
 * the server; Postgres merely unreachable does not: `openTasks` logs a warning and resolves, and the
 * next task call or `/health/ready` check tries again.
 */
function openTasksSoon(deps: ServerDeps): () => void {
  const timer = setTimeout(() => {
    deps.openTasks().catch(exitWithError);
  }, OPEN_TASKS_AFTER_MS);
  // Never the reason the process stays alive: stdio exits when its client closes stdin.
  timer.unref();
  // A stop within the delay cancels it: opening a store that was just closed is an error, and it
  // would end the process with exit code 1 before the last spans are sent.
  return () => clearTimeout(timer);
}

function exitWithError(error: unknown): never {
  const known =
    error instanceof EnvError || (error instanceof Error && error.name === 'IssuerDiscoveryError');
  console.error(known && error instanceof Error ? error.message : error);
  process.exit(1);
}

main().catch(exitWithError);
