/**
 * @module main
 * What the entry (`index.ts`) runs: it reads the environment and the command line, builds the
 * catalogue, then serves MCP over HTTP (default, `serve.ts`) or stdio (`--stdio`).
 *
 *   node dist/index.js            Streamable HTTP on http://HOST:PORT/mcp
 *   node dist/index.js --stdio    MCP on stdin/stdout; logs go to stderr
 */
import { parseArgs } from 'node:util';
import { createLogger } from '@mcp-workshop/mcp-host/logger';
import { telemetryEnabled } from '@mcp-workshop/telemetry';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';
import { catalogueOptions, hostedCatalogue } from './hosted.js';
import { exitWithError, openTasksSoon, serveHttp, taskLocation } from './serve.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

const USAGE = `Usage: ${SERVER_NAME} [--stdio] [--help]

  (no flag)   serve MCP over Streamable HTTP at http://$HOST:$PORT/mcp (default 127.0.0.1:3000)
  --stdio     serve MCP over stdin/stdout, for Claude Desktop, VS Code, Codex CLI and Inspector
  --help      show this text

Settings come from environment variables; see the README's table.`;

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
  const catalogue = hostedCatalogue(deps, catalogueOptions(env, telemetry));

  // Each mode imports only its own transport: stdio never loads express, HTTP never the stdio reader.
  if (values.stdio) {
    const { startStdioHost } = await import('@mcp-workshop/mcp-host/stdio');
    // The one server instance is built at once: it must find the skills read.
    await deps.skills.load();
    const handle = startStdioHost(catalogue.buildServer, logger, { tasks: catalogue.tasks });
    logger.info({ version: SERVER_VERSION, ...taskLocation(env) }, 'serving MCP over stdio');
    const cancelOpen = openTasksSoon(deps);
    const stop = async () => {
      cancelOpen();
      await handle.close();
      await deps.close();
      await telemetry?.shutdown();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // The client closing stdin ends the session: exit instead of lingering as an orphan.
    process.stdin.once('end', stop);
    return;
  }

  await serveHttp({ env, logger, deps, catalogue, telemetry });
}

main().catch(exitWithError);
