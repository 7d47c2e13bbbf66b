/**
 * @module test-support/expect
 * Turns an MCP outcome into a value or a failure that says what came back instead, and the small
 * statistics the tests print so their figures can be quoted.
 */
import type { Outcome, ToolResult } from './mcp.js';
import { textOf } from './mcp.js';

/** The tool result of a call that must succeed: not an error of any kind, not `isError`. */
export function expectSuccess(outcome: Outcome<ToolResult>, what: string): ToolResult {
  if (outcome.kind !== 'ok') throw new Error(`${what}: ${outcome.kind}: ${outcome.reason}`);
  if (outcome.value.isError) throw new Error(`${what}: isError: ${textOf(outcome.value)}`);
  return outcome.value;
}

/** min / median / p95 / max in whole milliseconds. */
export function summarize(samples: number[]): string {
  if (samples.length === 0) return 'no samples';
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return `n=${sorted.length} min ${at(0)} ms, median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
}

/** How often each value occurs, e.g. { 'HTTP 502': 3, 'connection: ECONNRESET': 1 }. */
export function tally(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** How many requests each backend served, from HAProxy's httplog lines ("mcp-servers/replica-2"). */
export function requestsPerReplica(haproxyLog: string): Record<string, number> {
  return tally([...haproxyLog.matchAll(/ mcp-servers\/(replica-\d+) /g)].map((match) => match[1] ?? ''));
}
