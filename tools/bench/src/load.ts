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
  requestsPerSecond: number;
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
}

export async function runLoad(call: PreparedCall, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: call.url,
    method: 'POST',
    headers: call.headers,
    body: call.body,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 1 }),
    // A stuck request counts as an error after this, rather than stalling the run.
    timeout: 10,
  });
  return {
    requestsPerSecond: result.requests.average,
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
