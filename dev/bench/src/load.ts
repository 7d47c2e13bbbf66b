/**
 * @module load
 * Drives one prepared `tools/call` with autocannon (a well-kept HTTP load generator): a fixed
 * number of connections for a bounded time, or a bounded number of requests. First it checks that
 * the call really succeeds, so a fast error is never mistaken for a fast server.
 */
import autocannon from 'autocannon';
import { readAnswer } from './rpc.js';
import type { PreparedCall } from './targets.js';

export interface LoadResult {
  /** Per-second samples averaged; for a run bounded by `amount`, requests over elapsed time. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors, timeouts and non-2xx answers, all counted as failures. */
  errors: number;
  total: number;
}

/** Fails loudly unless the call answers with a result whose isError is not true. */
export async function verifyCall(call: PreparedCall): Promise<void> {
  const response = await fetch(call.url, { method: 'POST', headers: call.headers, body: call.body });
  const text = await response.text();
  const answer = readAnswer(text);
  if (!response.ok || !answer?.result || answer.result.isError === true) {
    throw new Error(`the call to ${call.url} did not succeed (${response.status}): ${text.slice(0, 300)}`);
  }
}

export interface LoadOptions {
  connections: number;
  /** Seconds; used when `amount` is not set. */
  durationSeconds?: number;
  /** Requests in all; stops the run when reached. */
  amount?: number;
  /** With `amount`: stops the run after this many seconds even if the amount is not reached. */
  maxSeconds?: number;
}

export async function runLoad(call: PreparedCall, options: LoadOptions): Promise<LoadResult> {
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: call.url,
        method: 'POST',
        headers: call.headers,
        body: call.body,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 1 }),
        // A stuck request counts as an error after this, rather than stalling the run.
        timeout: 10,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    // autocannon stops on its 1 s sampling tick, so its own duration of a counted run is rounded
    // up to whole seconds; such a run is timed from the start to its last answer instead.
    if (options.amount) instance.on('response', () => (lastAnswerAt = performance.now()));
    // A run bounded by a count is bounded in time too: a slow target cannot stall the bench.
    if (options.amount && options.maxSeconds) {
      const timer = setTimeout(() => instance.stop(), options.maxSeconds * 1000);
      instance.once('done', () => clearTimeout(timer));
    }
  });
  const elapsedSeconds = Math.max(lastAnswerAt - startedAt, 1) / 1000;
  return {
    requestsPerSecond: options.amount ? result.requests.total / elapsedSeconds : result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
