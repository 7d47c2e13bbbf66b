// @ts-check
// Tests of scripts/lib/trace-watch.mjs, the loop behind `pnpm traces`; run with `node --test scripts/lib/`.
// The end-to-end case is doc/WORKSHOP.md module 13 step 5 for real: a server started by hand with
// its default batch exporter, the real `pnpm ask` (launcher, agent, demo model), all exporting OTLP
// to test-infra's receiver, and the server's spans arriving seconds after the agent's. It holds the
// step's two quoted outputs (the blocks under `<!-- checked-by: scripts/lib/trace-watch.test.mjs -->`)
// to what this run prints, as check-docs would.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, stopChild } from '@mcp-workshop/shared/processes';
import { startOtlpReceiver } from '../../dev/test-infra/dist/index.js';
import { compareOutput } from './expected-output.mjs';
import { addMetrics, MAX_SERIES, metricsText, watchTraces } from './trace-watch.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'services/mcp-server/dist/index.js');
const LAUNCHER = path.join(ROOT, 'dev/launcher/dist/cli.js');
const run = promisify(execFile);
/** The server answers /health within this, or the test fails with its stderr. */
const START_MS = 15_000;
/** One offline `pnpm ask`, cold. */
const ASK_MS = 45_000;
/** The server's default batch delay is 5 s; the trace must be printed well within this after the ask. */
const PRINT_WITHIN_MS = 20_000;
const POLL_MS = 100;
const WORKSHOP = path.join(ROOT, 'doc/WORKSHOP.md');

/** The quoted outputs of doc/WORKSHOP.md that name this test as their check, in document order. */
function quotesHeldHere() {
  const marker = /<!-- checked-by: scripts\/lib\/trace-watch\.test\.mjs -->\n\s*```text\n([\s\S]*?)\n\s*```/g;
  return [...readFileSync(WORKSHOP, 'utf8').matchAll(marker)].map((match) => match[1]);
}

/** Fails with check-docs' diff when `actual` drifted from the quote. */
function assertQuote(quote, actual) {
  const { ok, diff } = compareOutput(quote, actual, { roots: [ROOT] });
  assert.ok(ok, `doc/WORKSHOP.md module 13 step 5 drifted from a real run:\n${diff}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every POLL_MS until it is true or `ms` have passed; bounded in count and time. */
async function waitUntil(check, ms, what) {
  for (let tries = Math.ceil(ms / POLL_MS); tries > 0; tries -= 1) {
    if (check()) return;
    await sleep(POLL_MS);
  }
  assert.fail(`${what}: not within ${ms} ms`);
}

describe('watchTraces with a server started by hand (module 13, step 5)', { timeout: 120_000 }, () => {
  let receiver;
  let server;
  let dataDir;
  let serverPort;
  let serverLog = '';

  before(async () => {
    for (const file of [SERVER, LAUNCHER]) {
      if (!existsSync(file)) throw new Error(`${file} is missing: run "pnpm build" first.`);
    }
    receiver = await startOtlpReceiver();
    dataDir = mkdtempSync(path.join(tmpdir(), 'trace-watch-'));
    serverPort = await freePort();
    const child = spawn(process.execPath, [SERVER], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(serverPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'debug',
        // No OTEL_BSP_SCHEDULE_DELAY: the SDK's default (5 s), as for a server started by hand.
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => {
      serverLog += chunk;
    });
    child.stderr.on('data', (chunk) => {
      serverLog += chunk;
    });
    server = { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
    const deadline = Date.now() + START_MS;
    while (Date.now() < deadline) {
      const ok = await fetch(`http://127.0.0.1:${serverPort}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return;
      await sleep(POLL_MS);
    }
    throw new Error(`the server did not answer /health within ${START_MS} ms:\n${serverLog}`);
  });

  after(async () => {
    if (server) await stopChild(server.child, { graceMs: 5_000 });
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints one tree with the agent’s and the server’s spans, though the server’s come seconds later', async () => {
    const written = [];
    /** Which services' spans each read of the receiver found, in order: the test's own evidence. */
    const reads = [];
    const observed = {
      get spans() {
        const spans = receiver.spans;
        if (spans.length > 0) reads.push(spans.map((s) => [s.traceId, s.resource['service.name']]));
        return spans;
      },
      get metrics() {
        return receiver.metrics;
      },
      clear: () => receiver.clear(),
    };
    const watch = watchTraces(observed, { write: (text) => written.push(text) });
    try {
      const { stdout } = await run(
        process.execPath,
        [LAUNCHER, 'ask', '--json', 'What time is it in Tokyo?'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            // The launcher finds the server already listening there and uses it, as on :3000.
            PORT: String(serverPort),
            DEMO_MODEL_PORT: String(await freePort()),
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          },
          timeout: ASK_MS,
        },
      );
      const { traceId } = JSON.parse(stdout);
      assert.match(traceId, /^[0-9a-f]{32}$/);
      const header = `trace ${traceId}`;
      const printed = () => written.filter((text) => text.startsWith(header));
      const firstRead = (service) =>
        reads.findIndex((read) => read.some(([id, name]) => id === traceId && name === service));
      await waitUntil(
        () => firstRead('mcp-workshop-server') >= 0 && printed().length > 0,
        PRINT_WITHIN_MS,
        `${header} printed, and the server's spans received`,
      );
      // The case at hand: the agent's spans of this trace were read before any of the server's.
      const agentRead = firstRead('mcp-workshop-agent');
      assert.ok(agentRead >= 0 && firstRead('mcp-workshop-server') > agentRead, JSON.stringify(reads));

      // Anything that would still come for this trace has had time to; the server stops and flushes.
      await stopChild(server.child, { graceMs: 5_000 });
      await sleep(1_500);
      watch.stop();

      assert.equal(printed().length, 1, written.join('\n---\n'));
      const [tree = ''] = printed();
      const client = tree.match(
        /^ {2}tools\/call get_time \[CLIENT\] span=([0-9a-f]{16}) · mcp-workshop-agent/m,
      );
      assert.ok(client, tree);
      // The server's span sits under the agent's, and names it as its parent (it came in traceparent).
      assert.match(
        tree,
        new RegExp(
          `^ {4}tools/call get_time \\[SERVER\\] span=([0-9a-f]{16}) parent=${client[1]} · mcp-workshop-server .*jsonrpc\\.request\\.id=`,
          'm',
        ),
      );
      assert.doesNotMatch(tree, /no server span arrived|gen_ai\.tool\.call\./);
      // The server's "tool call answered" log line carries this trace's id and the server span's id.
      const serverSpanId = tree.match(/\[SERVER\] span=([0-9a-f]{16})/)?.[1];
      const logLine = serverLog
        .split('\n')
        .find((line) => line.includes('"msg":"tool call answered"') && line.includes(traceId));
      assert.ok(logLine?.includes(`"span_id":"${serverSpanId}"`), `${logLine}\n${tree}`);

      // What the module quotes is what a real run prints: the tree, and the server's log line.
      const quotes = quotesHeldHere();
      assert.equal(quotes.length, 2, 'doc/WORKSHOP.md quotes a tree and a log line for step 5');
      assertQuote(quotes[0] ?? '', tree);
      assertQuote(quotes[1] ?? '', logLine ?? '');
    } finally {
      watch.stop();
    }
  });
});

/** One OTLP/JSON export of `spans` ({ spanId, parent, name, kind, mcp }) by `service`, POSTed as an exporter would. */
async function postSpans(receiver, service, traceId, spans) {
  const KINDS = { INTERNAL: 1, SERVER: 2, CLIENT: 3 };
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: spans.map(({ spanId, parent, name, kind, mcp }) => ({
              traceId,
              spanId,
              ...(parent && { parentSpanId: parent }),
              name,
              kind: KINDS[kind],
              startTimeUnixNano: '1700000000000000000',
              endTimeUnixNano: '1700000000020000000',
              attributes: mcp ? [{ key: 'mcp.method.name', value: { stringValue: 'tools/call' } }] : [],
            })),
          },
        ],
      },
    ],
  };
  const response = await fetch(`${receiver.endpoint}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
}

describe('watchTraces with OTLP exports posted by the test', () => {
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  const AGENT_SPANS = [
    { spanId: '00f067aa0ba902b7', name: 'invoke_agent', kind: 'INTERNAL' },
    {
      spanId: '00f067aa0ba902b8',
      parent: '00f067aa0ba902b7',
      name: 'tools/call x',
      kind: 'CLIENT',
      mcp: true,
    },
  ];
  const SERVER_SPANS = [
    {
      spanId: '53995c3f42cd8ad8',
      parent: '00f067aa0ba902b8',
      name: 'tools/call x',
      kind: 'SERVER',
      mcp: true,
    },
  ];
  let receiver;
  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(async () => receiver?.close());

  it('joins two exports of one trace, two seconds apart, into one tree', async () => {
    const written = [];
    const watch = watchTraces(receiver, { write: (text) => written.push(text) });
    try {
      await postSpans(receiver, 'agent', TRACE_ID, AGENT_SPANS);
      await sleep(2_000);
      assert.deepEqual(written, [], 'nothing printed while the server span is on its way');
      await postSpans(receiver, 'server', TRACE_ID, SERVER_SPANS);
      await waitUntil(() => written.length > 0, 5_000, 'the trace printed');
      assert.equal(written.length, 1);
      assert.match(
        written[0] ?? '',
        /^ {4}tools\/call x \[SERVER\] span=53995c3f42cd8ad8 parent=00f067aa0ba902b8 · server /m,
      );
      assert.equal(receiver.spans.length, 0, 'the receiver is emptied as it is read');
    } finally {
      watch.stop();
    }
  });

  it('prints what it still holds on stop, so Ctrl-C loses no trace', async () => {
    const written = [];
    const watch = watchTraces(receiver, { write: (text) => written.push(text) });
    await postSpans(receiver, 'agent', TRACE_ID, AGENT_SPANS);
    watch.stop();
    assert.equal(written.length, 1);
    assert.match(written[0], /^trace 4bf92f3577b34da6a3ce929d0e0e4736\n/);
    assert.match(written[0], /no server span arrived for tools\/call x 00f067aa0ba902b8/);
    watch.stop();
    assert.equal(written.length, 1, 'a second stop writes nothing');
  });
});

describe('addMetrics', () => {
  const histogram = (service, attributes, count) => ({
    name: 'mcp.server.operation.duration',
    kind: 'histogram',
    resource: { 'service.name': service },
    points: [{ attributes, count }],
  });

  it('keeps one line per series, the latest cumulative value winning', () => {
    const series = new Map();
    addMetrics(series, [histogram('s', { 'mcp.method.name': 'tools/list' }, 1)]);
    addMetrics(series, [histogram('s', { 'mcp.method.name': 'tools/list' }, 3)]);
    assert.equal(
      metricsText(series),
      'mcp.server.operation.duration{mcp.method.name=tools/list} · s = count 3',
    );
  });

  it('ignores metrics that are not MCP ones, and keeps no more than MAX_SERIES series', () => {
    const series = new Map();
    addMetrics(series, [{ ...histogram('s', {}, 1), name: 'http.server.duration' }]);
    assert.equal(series.size, 0);
    const flood = Array.from({ length: MAX_SERIES + 50 }, (_, n) =>
      histogram('s', { 'gen_ai.tool.name': `t${n}` }, 1),
    );
    addMetrics(series, flood);
    assert.equal(series.size, MAX_SERIES);
  });
});
