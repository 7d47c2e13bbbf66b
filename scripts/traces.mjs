#!/usr/bin/env node
/**
 * `pnpm traces`: a trace backend for a laptop with no Docker and no internet. It is the OTLP/HTTP
 * receiver the tests use (dev/test-infra), printing each trace as a tree once it has gone quiet.
 *
 *   pnpm traces                  listen on 127.0.0.1:4318 until Ctrl-C; point services at it with
 *                                OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318
 *   pnpm traces ask "question"   the same on a free port, around one `pnpm ask`; prints the trace, exits
 *
 * For a real backend (search, a timeline, metrics), use `docker compose --profile observability up`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOtlpReceiver } from '../dev/test-infra/dist/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAUNCHER = path.join(ROOT, 'dev/launcher/dist/cli.js');
/** The OTLP/HTTP port every backend listens on. */
const DEFAULT_PORT = 4318;
/** A trace is printed once no span of it has arrived for this long. */
const QUIET_MS = 1_000;
/** How long `ask` waits for the server's last spans after the agent has exited. */
const TAIL_MS = 3_000;

/** What each line shows besides the name: enough to read a failed call without opening anything else. */
const SHOWN = [
  'gen_ai.request.model',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.response.finish_reasons',
  'mcp.protocol.version',
  'jsonrpc.request.id',
  'mcp.session.id',
  'error.type',
  'db.system.name',
  'server.address',
];

function print(receiver, traceId) {
  console.log(`trace ${traceId}\n${receiver.formatTrace(traceId, SHOWN, { details: true })}\n`);
}

/** The attributes a metric line is split by. */
const METRIC_KEYS = ['mcp.method.name', 'gen_ai.tool.name', 'error.type'];

/**
 * The MCP metrics received, one line per service, instrument and attribute set: the duration
 * histograms' counts, and the tool-error counters an HTTP dashboard cannot show.
 */
function printMetrics(metrics) {
  const lines = new Map();
  for (const metric of metrics) {
    if (!metric.name.startsWith('mcp.')) continue;
    for (const point of metric.points) {
      const labels = METRIC_KEYS.filter((key) => key in point.attributes)
        .map((key) => `${key}=${point.attributes[key]}`)
        .join(',');
      const value = metric.kind === 'histogram' ? `count ${point.count}` : String(point.value);
      // Cumulative: a later export of the same series replaces the earlier one.
      lines.set(`${metric.name}{${labels}} · ${metric.resource['service.name']}`, value);
    }
  }
  for (const [series, value] of [...lines].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${series} = ${value}`);
}

async function serve() {
  const port = Number(process.env.OTLP_PORT || DEFAULT_PORT);
  const receiver = await startOtlpReceiver({ port }).catch((error) => {
    console.error(
      `Cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}). Is a backend running? Set OTLP_PORT.`,
    );
    process.exit(1);
  });
  console.log(`Receiving OTLP/HTTP on ${receiver.endpoint}. In another terminal:`);
  console.log(
    `  OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.endpoint} pnpm ask "What is the weather in Atlantis?"\n`,
  );
  const lastSeen = new Map();
  let seen = 0;
  let metricsSeen = 0;
  setInterval(() => {
    for (const span of receiver.spans.slice(seen)) lastSeen.set(span.traceId, Date.now());
    seen = receiver.spans.length;
    for (const [traceId, at] of lastSeen) {
      if (Date.now() - at < QUIET_MS) continue;
      lastSeen.delete(traceId);
      print(receiver, traceId);
    }
    if (receiver.metrics.length > metricsSeen) {
      metricsSeen = receiver.metrics.length;
      printMetrics(receiver.metrics);
      console.log('');
    }
    // Printed traces are forgotten, so a long session does not grow without bound.
    if (lastSeen.size === 0 && seen > 0) {
      receiver.clear();
      seen = 0;
      metricsSeen = 0;
    }
  }, 250);
  process.once('SIGINT', () => receiver.close().then(() => process.exit(0)));
}

async function askTraced(question) {
  const receiver = await startOtlpReceiver();
  const env = {
    ...process.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    // The server exports each span as it ends; the agent flushes before it exits.
    OTEL_BSP_SCHEDULE_DELAY: '50',
  };
  const child = spawn(process.execPath, [LAUNCHER, 'ask', '--json', ...question], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) {
    await receiver.close();
    return code ?? 1;
  }
  const { answer, traceId } = JSON.parse(stdout);
  // The launcher stopped the server, which sends its last spans on the way out.
  await receiver
    .waitForSpans((spans) => spans.some((span) => span.traceId === traceId && span.kind === 'SERVER'), {
      timeoutMs: TAIL_MS,
    })
    .catch(() => undefined);
  console.log(`answer: ${answer}\n`);
  print(receiver, traceId);
  // Each process sends its metrics as it stops; both have stopped by now, or are about to.
  await receiver
    .waitForMetrics(
      (metrics) =>
        new Set(metrics.filter((m) => m.name.startsWith('mcp.')).map((m) => m.resource['service.name']))
          .size >= 2,
      { timeoutMs: TAIL_MS },
    )
    .catch(() => undefined);
  printMetrics(receiver.metrics);
  await receiver.close();
  return 0;
}

const [command, ...words] = process.argv.slice(2);
if (command === undefined) await serve();
else if (command === 'ask' && words.length > 0) process.exitCode = await askTraced(words);
else {
  console.error(
    'Usage: pnpm traces            (listen on 127.0.0.1:4318)\n       pnpm traces ask "question"',
  );
  process.exitCode = 2;
}
