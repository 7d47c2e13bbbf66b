#!/usr/bin/env node
// @ts-check
/**
 * `node scripts/wait-for.mjs [--timeout SECONDS] URL...`: waits until every URL answers HTTP 2xx, so
 * a pasted block can start servers with `&` and curl them on the next line. Prints one line per URL
 * on stderr; exits 0 when all are ready, 1 when one is not by the deadline, 2 on a usage mistake.
 * The polling lives in scripts/lib/wait-for.mjs (tested by wait-for.test.mjs).
 */
import { describeResult, parseWaitArgs, USAGE, UsageError, waitForAll } from './lib/wait-for.mjs';

async function main() {
  let options;
  try {
    options = parseWaitArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`wait-for: ${error.message}\n${USAGE}`);
    return 2;
  }
  const results = await waitForAll(options.urls, { timeoutMs: options.timeoutMs });
  for (const result of results) console.error(describeResult(result));
  return results.every((result) => result.ok) ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
