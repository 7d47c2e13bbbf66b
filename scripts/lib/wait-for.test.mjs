// @ts-check
// Tests of scripts/lib/wait-for.mjs and the CLI scripts/wait-for.mjs, against real HTTP servers on
// 127.0.0.1; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '@mcp-workshop/shared/processes';
import { MAX_TIMEOUT_S, parseWaitArgs, UsageError, waitForUrl } from './wait-for.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../wait-for.mjs');
/** Every wait below has a deadline well inside node:test's own. */
const SHORT_MS = 1_200;
/** A safety net: a wait that ignored its deadline would hang here instead of failing. */
const WAIT_TESTS_TIMEOUT_MS = 60_000;

/** The CLI as a child, without blocking this process: its servers must keep answering meanwhile. */
function runCli(args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { encoding: 'utf8', timeout: 20_000 },
      (error, _stdout, stderr) => resolve({ status: error ? (error.code ?? null) : 0, stderr }),
    );
  });
}

const servers = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** A server that answers each request with the next status of `statuses` (the last one repeats). */
function listen(port, statuses, { hang = false } = {}) {
  let n = 0;
  const server = http.createServer((_req, res) => {
    if (hang) return; // accepts and never answers
    const status = statuses[Math.min(n++, statuses.length - 1)];
    res.writeHead(status).end('x');
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

describe('parseWaitArgs', () => {
  it('reads URLs and a timeout in seconds', () => {
    assert.deepEqual(parseWaitArgs(['--timeout', '5', 'http://127.0.0.1:3100/health', 'http://[::1]:1/x']), {
      timeoutMs: 5_000,
      urls: ['http://127.0.0.1:3100/health', 'http://[::1]:1/x'],
    });
    assert.equal(parseWaitArgs(['http://127.0.0.1:3100/']).timeoutMs, 30_000);
  });

  it('refuses no URL, a malformed or non-HTTP URL, unknown options and a silly timeout', () => {
    const refused = (argv, message) =>
      assert.throws(
        () => parseWaitArgs(argv),
        (e) => e instanceof UsageError && message.test(e.message),
      );
    refused([], /at least one URL/);
    refused(['127.0.0.1:3100'], /not a URL|only http/);
    refused(['not a url'], /not a URL/);
    refused(['file:///etc/passwd'], /only http and https/);
    refused(['--verbose', 'http://127.0.0.1:1/'], /unknown option --verbose/);
    refused(['--timeout'], /--timeout needs/);
    refused(['--timeout', 'soon', 'http://127.0.0.1:1/'], /--timeout needs/);
    refused(['--timeout', '0', 'http://127.0.0.1:1/'], /--timeout needs/);
    refused(['--timeout', '-3', 'http://127.0.0.1:1/'], /--timeout needs/);
    refused(['--timeout', String(MAX_TIMEOUT_S + 1), 'http://127.0.0.1:1/'], /--timeout needs/);
  });
});

describe('waitForUrl', { timeout: WAIT_TESTS_TIMEOUT_MS }, () => {
  it('waits for a server that starts listening after the wait began', async () => {
    const port = await freePort();
    let settled = false;
    const waiting = waitForUrl(`http://127.0.0.1:${port}/health`, { timeoutMs: 10_000, pollMs: 50 }).finally(
      () => {
        settled = true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(settled, false, 'the wait ended before anything listened');
    await listen(port, [200]);
    const result = await waiting;
    assert.equal(result.ok, true);
    assert.equal(result.last, 'HTTP 200');
  });

  it('keeps waiting through 503 until the answer is 2xx', async () => {
    const port = await freePort();
    await listen(port, [503, 503, 204]);
    const result = await waitForUrl(`http://127.0.0.1:${port}/health/ready`, {
      timeoutMs: 10_000,
      pollMs: 20,
    });
    assert.deepEqual([result.ok, result.last], [true, 'HTTP 204']);
  });

  it('gives up at the deadline on a closed port, naming the refusal', async () => {
    const port = await freePort();
    // Nothing will ever listen: only the deadline can end this wait.
    const result = await waitForUrl(`http://127.0.0.1:${port}/health`, { timeoutMs: SHORT_MS, pollMs: 50 });
    assert.equal(result.ok, false);
    assert.match(result.last, /ECONNREFUSED/);
  });

  it('gives up at the deadline when the answer stays 503, or when the server never answers', async () => {
    const unready = await freePort();
    await listen(unready, [503]);
    const result = await waitForUrl(`http://127.0.0.1:${unready}/`, { timeoutMs: SHORT_MS, pollMs: 50 });
    assert.equal(result.ok, false);
    // A busy machine may cut the last request off; the 503 the server gave stays in front.
    assert.match(result.last, /^HTTP 503(, then no answer within \d+ ms)?$/);

    const silent = await freePort();
    await listen(silent, [200], { hang: true });
    // It never answers: only the deadline, which each request is cut to, can end this wait.
    const hung = await waitForUrl(`http://127.0.0.1:${silent}/`, { timeoutMs: SHORT_MS, pollMs: 50 });
    assert.equal(hung.ok, false);
    assert.match(hung.last, /^no answer within \d+ ms$/);
  });
  it('keeps the last real answer in front when a later request gets none', async () => {
    const port = await freePort();
    let n = 0;
    const server = http.createServer((_req, res) => {
      if (n++ === 0) res.writeHead(503).end('x'); // then it goes silent
    });
    servers.push(server);
    await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
    const result = await waitForUrl(`http://127.0.0.1:${port}/`, { timeoutMs: SHORT_MS, pollMs: 20 });
    assert.equal(result.ok, false);
    assert.match(result.last, /^HTTP 503, then no answer within \d+ ms$/);
  });
});

describe('scripts/wait-for.mjs', () => {
  it('exits 0 once every URL is ready, and 1 with a clear line when one is not', async () => {
    const up = await freePort();
    await listen(up, [200]);
    const down = await freePort();
    const ok = await runCli([`http://127.0.0.1:${up}/health`]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stderr, /^ready: http:\/\/127\.0\.0\.1:\d+\/health \(HTTP 200 after \d+ ms\)$/m);

    const bad = await runCli([
      '--timeout',
      '1',
      `http://127.0.0.1:${up}/`,
      `http://127.0.0.1:${down}/health`,
    ]);
    assert.equal(bad.status, 1, bad.stderr);
    assert.match(
      bad.stderr,
      new RegExp(
        `not ready: http://127\\.0\\.0\\.1:${down}/health did not answer 2xx within \\d+ ms \\(last: .*ECONNREFUSED`,
      ),
    );
  });

  it('exits 2 with the usage on a bad command line', async () => {
    const run = await runCli(['--timeout', 'forever', 'http://127.0.0.1:1/']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--timeout needs .*\nusage: node scripts\/wait-for\.mjs/);
  });
});
