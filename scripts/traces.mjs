#!/usr/bin/env node
// @ts-check
/**
 * `pnpm traces`: a trace backend for a laptop with no Docker and no internet. It is the OTLP/HTTP
 * receiver the tests use (dev/test-infra), printing each trace as one tree once it is whole: the
 * server's spans may arrive seconds after the agent's (scripts/lib/trace-assembler.mjs says how long
 * it waits), and they join the same tree.
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
import { awaitingServer, formatTrace } from './lib/trace-tree.mjs';
import { addMetrics, metricsText, watchTraces } from './lib/trace-watch.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAUNCHER = path.join(ROOT, 'dev/launcher/dist/cli.js');
/** The OTLP/HTTP port every backend listens on. */
const DEFAULT_PORT = 4318;
/** How long `ask` waits for the server's last spans after the agent has exited. */
const TAIL_MS = 3_000;

/** Prints what `watchTraces` hands over, each block followed by a blank line. */
const write = (text) => console.log(`${text}\n`);

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
  console.log(
    'Each trace is printed once it looks whole, or after a few quiet seconds (a server sends its spans in batches).\n',
  );
  const watch = watchTraces(receiver, { write });
  const stop = () => {
    // What is still held is printed, not lost.
    watch.stop();
    receiver.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
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
  const ofTrace = (spans) => spans.filter((span) => span.traceId === traceId);
  // The launcher stopped the server, which sends its last spans on the way out: wait until every
  // MCP call has its server span (or, for a server that does not export here, until TAIL_MS).
  await receiver
    .waitForSpans((spans) => ofTrace(spans).length > 0 && awaitingServer(ofTrace(spans)).length === 0, {
      timeoutMs: TAIL_MS,
    })
    .catch(() => undefined);
  console.log(`answer: ${answer}\n`);
  if (traceId) write(formatTrace(traceId, ofTrace(receiver.spans)));
  // Each process sends its metrics as it stops; both have stopped by now, or are about to.
  await receiver
    .waitForMetrics(
      (metrics) =>
        new Set(metrics.filter((m) => m.name.startsWith('mcp.')).map((m) => m.resource['service.name']))
          .size >= 2,
      { timeoutMs: TAIL_MS },
    )
    .catch(() => undefined);
  const series = new Map();
  addMetrics(series, receiver.metrics);
  console.log(metricsText(series));
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
