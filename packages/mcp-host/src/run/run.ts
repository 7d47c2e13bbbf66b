/**
 * @module run/run
 * `runCatalogue(catalogue)`: the whole life of a server process for any catalogue. It reads the
 * command line and the environment (the host's settings plus the catalogue's), builds the
 * catalogue's services, then serves MCP over Streamable HTTP (default) or stdio (`--stdio`), and
 * stops cleanly on SIGINT and SIGTERM (stdio also when the client closes stdin). The only file of
 * the runner with process-level I/O: a catalogue's start entry is one call to it.
 *
 *   node dist/index.js            Streamable HTTP on http://HOST:PORT/mcp
 *   node dist/index.js --stdio    MCP on stdin/stdout; logs go to stderr
 */
import { parseArgs } from 'node:util';
import { EnvError } from '@mcp-workshop/shared';
import { telemetryEnabled } from '@mcp-workshop/telemetry';
import type { Catalogue } from '../kit/catalogue.js';
import { createLogger, type Logger } from '../logger.js';
import type { HostTelemetry } from '../telemetry/types.js';
import { type EnvShape, loadRunEnv } from './env.js';
import { prepareCatalogue } from './prepare.js';
import { serveHttp } from './serve-http.js';

export interface RunOptions {
  /** The `service` field of every log line (default `mcp-server`). */
  service?: string;
  /** The command line (default: `process.argv.slice(2)`). */
  args?: string[];
}

const usage = (name: string) => `Usage: ${name} [--stdio] [--help]

  (no flag)   serve MCP over Streamable HTTP at http://$HOST:$PORT/mcp (default 127.0.0.1:3000)
  --stdio     serve MCP over stdin/stdout, for Claude Desktop, VS Code, Codex CLI and Inspector
  --help      show this text

Settings come from environment variables; see the README's table.`;

/** Serves `catalogue` for the life of the process; a setting to fix ends it with exit code 1 and says which. */
export function runCatalogue<Shape extends EnvShape, Deps>(
  catalogue: Catalogue<Shape, Deps>,
  options: RunOptions = {},
): void {
  run(catalogue, options).catch(exitWithError);
}

async function run<Shape extends EnvShape, Deps>(
  catalogue: Catalogue<Shape, Deps>,
  options: RunOptions,
): Promise<void> {
  const { values } = parseArgs({
    args: options.args ?? process.argv.slice(2),
    options: {
      stdio: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    // stderr, so even `--stdio --help` never puts non-protocol bytes on stdout.
    console.error(usage(catalogue.name));
    return;
  }
  const env = loadRunEnv(catalogue.env);
  const info = { name: catalogue.name, version: catalogue.version };
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; off, OpenTelemetry is never even loaded.
  const telemetry: HostTelemetry | undefined = telemetryEnabled(env)
    ? (await import('@mcp-workshop/mcp-host/telemetry')).startHostTelemetry(env, info)
    : undefined;
  const logger = createLogger(env.LOG_LEVEL, {
    ...(options.service && { service: options.service }),
    ...(telemetry && { fields: telemetry.logFields }),
  });
  const prepared = prepareCatalogue(catalogue, { env, logger, telemetry });
  const cancelOpen = prepared.openSoon(exitWithError);
  const stopWith = (close: () => Promise<void>) => async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    cancelOpen();
    await close();
    await prepared.close();
    // The last spans and metrics are sent before the process goes.
    await telemetry?.shutdown();
    process.exit(0);
  };

  // Each mode imports only its own transport: stdio never loads express, HTTP never the stdio reader.
  if (values.stdio) {
    const { startStdioHost } = await import('../stdio.js');
    // The one server instance is built at once: it must find the skills read.
    await prepared.services.load?.();
    const handle = startStdioHost(prepared.buildServer, logger, { tasks: prepared.runtime });
    logger.info({ version: catalogue.version, ...prepared.services.describe?.() }, 'serving MCP over stdio');
    const stop = stopWith(() => handle.close());
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
    // The client closing stdin ends the session: exit instead of lingering as an orphan.
    process.stdin.once('end', () => void stop('stdin closed'));
    return;
  }
  const host = await serveHttp({ env, logger, prepared }).catch((error: unknown) => {
    // Said through the logger, so the line carries this server's own name (`service`).
    if (error instanceof EnvError) logger.fatal(error.message);
    else logger.fatal({ err: error }, 'could not start the HTTP server');
    process.exit(1);
  });
  const stop = stopWith(() => host.close());
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** A setting to fix is one plain line; anything else (a bug) shows its stack. Either way, exit code 1. */
export function exitWithError(error: unknown): never {
  const known =
    error instanceof EnvError || (error instanceof Error && error.name === 'IssuerDiscoveryError');
  console.error(known && error instanceof Error ? error.message : error);
  process.exit(1);
}

export type { Logger };
