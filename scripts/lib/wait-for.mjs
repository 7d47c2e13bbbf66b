// @ts-check
/**
 * Waits until HTTP endpoints answer 2xx, for scripts/wait-for.mjs and scripts/scale-local.mjs: a
 * server started with `&` in a pasted block needs a moment before the next line's curl can reach it.
 * Every wait has a deadline, and a failure names the endpoint and what it last answered.
 */

/** A cold server start (mathjs, migrations) takes a few seconds; half a minute is slack, not a hang. */
export const DEFAULT_TIMEOUT_S = 30;
/** Longer than any start we know of: a bigger value is a typo, and a typo must not wait for an hour. */
export const MAX_TIMEOUT_S = 600;
/** Often enough that a paste does not feel slow, rarely enough to leave the server alone. */
const POLL_MS = 200;
/** One request may not eat the whole deadline: a server that accepts but never answers is retried. */
const REQUEST_TIMEOUT_MS = 2_000;
/**
 * The last attempt before the deadline still gets this long: a request cut off after a few
 * milliseconds says nothing about the server, and on a busy machine it would hide the answer
 * that matters ("HTTP 503") behind a timeout. The deadline may run over by this much.
 */
const MIN_REQUEST_MS = 500;

export const USAGE = `usage: node scripts/wait-for.mjs [--timeout SECONDS] URL...
Waits until every URL answers HTTP 2xx (default timeout ${DEFAULT_TIMEOUT_S} s, at most ${MAX_TIMEOUT_S} s).`;

/** A mistake on the command line: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/** `[--timeout SECONDS] URL...` → { timeoutMs, urls }; throws UsageError on anything else. */
export function parseWaitArgs(argv) {
  let timeoutS = DEFAULT_TIMEOUT_S;
  const urls = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--timeout') {
      const value = argv[++i];
      timeoutS = Number(value);
      if (value === undefined || !Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > MAX_TIMEOUT_S) {
        throw new UsageError(`--timeout needs a number of seconds from 1 to ${MAX_TIMEOUT_S}, not ${value}`);
      }
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      urls.push(parseHttpUrl(arg));
    }
  }
  if (urls.length === 0) throw new UsageError('name at least one URL to wait for');
  return { timeoutMs: timeoutS * 1000, urls };
}

function parseHttpUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`only http and https URLs can be waited for, not ${text}`);
  }
  return url.href;
}

/**
 * Polls `url` until it answers 2xx or `timeoutMs` has passed. Resolves { ok, url, ms, last }:
 * `last` is the final answer ("HTTP 200", "HTTP 503", "connect ECONNREFUSED 127.0.0.1:3100").
 */
export async function waitForUrl(url, { timeoutMs = DEFAULT_TIMEOUT_S * 1000, pollMs = POLL_MS } = {}) {
  const started = performance.now();
  const deadline = started + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const left = deadline - performance.now();
    const requestMs = Math.round(Math.min(REQUEST_TIMEOUT_MS, Math.max(MIN_REQUEST_MS, left)));
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(requestMs) });
      // Only the status matters; dropping the body frees the connection.
      await response.body?.cancel();
      last = `HTTP ${response.status}`;
      if (response.status >= 200 && response.status < 300) {
        return { ok: true, url, ms: Math.round(performance.now() - started), last };
      }
    } catch (error) {
      last = describeFailure(error, requestMs, last);
    }
    if (performance.now() + pollMs >= deadline) {
      return { ok: false, url, ms: Math.round(performance.now() - started), last };
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Waits for every URL at once, under the same deadline. */
export function waitForAll(urls, options) {
  return Promise.all(urls.map((url) => waitForUrl(url, options)));
}

/**
 * fetch hides the reason in `cause` ("fetch failed"); the cause is what a reader can act on. A
 * timeout after a real answer keeps that answer in front: "HTTP 503, then no answer within 500 ms".
 */
function describeFailure(error, requestMs, previous) {
  if (error?.name === 'TimeoutError') {
    const silence = `no answer within ${requestMs} ms`;
    return previous.startsWith('HTTP ') ? `${previous.split(',')[0]}, then ${silence}` : silence;
  }
  const cause = error?.cause;
  return cause?.message ?? cause?.code ?? error?.message ?? String(error);
}

/** The line printed for one result, e.g. "ready: http://127.0.0.1:3100/health (HTTP 200 after 412 ms)". */
export function describeResult({ ok, url, ms, last }) {
  return ok
    ? `ready: ${url} (${last} after ${ms} ms)`
    : `not ready: ${url} did not answer 2xx within ${ms} ms (last: ${last}). Is the server running? Its own output says why not.`;
}
