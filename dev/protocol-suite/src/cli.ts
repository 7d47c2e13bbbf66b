#!/usr/bin/env node
/**
 * @module cli
 * `protocol-suite --url <mcp url>`: checks that something answers at the URL, then runs this
 * package's own test file (protocol-suite.test.ts) in vitest with PROTOCOL_SUITE_URL and
 * PROTOCOL_SUITE_REVISIONS set, prints vitest's report and exits with its status.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { HELP, parseCliArgs, UsageError } from './args.js';

/** How long the first request may take before "nothing answers": a live server answers in milliseconds. */
const PROBE_TIMEOUT_MS = 5_000;

/** The package root: dist/cli.js (or src/cli.ts) sits one folder below it. */
const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** Exit statuses, as `--help` states them. */
const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

async function main(): Promise<number> {
  let request: ReturnType<typeof parseCliArgs>;
  try {
    request = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`protocol-suite: ${error.message}`);
    return EXIT.usage;
  }
  if (request.kind === 'help') {
    console.log(HELP);
    return EXIT.passed;
  }

  // One clear line instead of a page of identical connection errors, one per revision.
  const unreachable = await probe(request.url);
  if (unreachable) {
    console.error(`protocol-suite: nothing answers at ${request.url.href} (${unreachable})`);
    return EXIT.failed;
  }

  const vitest = await startVitest('test', ['src/protocol-suite.test.ts'], {
    root: PACKAGE_DIR,
    config: join(PACKAGE_DIR, 'vitest.config.ts'),
    run: true,
    watch: false,
    // Set in the test workers' environment; an empty value overrides one inherited from the shell.
    env: {
      PROTOCOL_SUITE_URL: request.url.href,
      PROTOCOL_SUITE_REVISIONS: request.revisions.join(','),
    },
  });
  const failed = vitest.state.getCountOfFailedTests() > 0 || (process.exitCode ?? 0) !== 0;
  const ran = vitest.state.getFiles().length > 0;
  return failed || !ran ? EXIT.failed : EXIT.passed;
}

/** Undefined when the URL answers with any HTTP status; else why it did not (refused, timed out, …). */
async function probe(url: URL): Promise<string | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'probe', method: 'ping' }),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (error as Error).message;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(EXIT.failed);
  },
);
