/**
 * @module main
 * What the entry (`index.ts`) runs: it reads the environment and the command line, builds the
 * catalogue, then serves MCP over HTTP (default, `serve.ts`) or stdio (`--stdio`).
 *
 *   node dist/index.js            Streamable HTTP on http://HOST:PORT/mcp
 *   node dist/index.js --stdio    MCP on stdin/stdout; logs go to stderr
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLogger } from '@mcp-workshop/mcp-host/logger';
import { telemetryEnabled } from '@mcp-workshop/telemetry';
import { createDeps } from './deps.js';
import { EnvError, loadEnv } from './env.js';
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
  if (env.MCP_CONFORMANCE) return startConformanceServer();
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

/**
 * MCP_CONFORMANCE=true: the same catalogue with the conformance suite's fixtures, which live in
 * dev/conformance-server (never in the catalogue). Its entry is imported from the repository, where it
 * is built; it reads the same HOST, PORT, DATA_DIR and other settings. Outside a checkout (an image,
 * a bundle) it is not there, and the server says what to run instead.
 */
async function startConformanceServer(): Promise<void> {
  const entry = new URL('../../../dev/conformance-server/dist/index.js', import.meta.url);
  if (!existsSync(entry)) {
    throw new EnvError(
      'MCP_CONFORMANCE=true serves the catalogue with the conformance fixtures of dev/conformance-server, ' +
        `which is not built here (${fileURLToPath(entry)}). In a checkout, run \`pnpm build\` first; ` +
        'elsewhere, unset MCP_CONFORMANCE.',
    );
  }
  await import(entry.href);
}

main().catch(exitWithError);
