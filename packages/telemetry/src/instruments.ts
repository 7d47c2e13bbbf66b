/**
 * @module instruments
 * The metrics of the MCP conventions, and one more: tool errors counted per tool. A failed tool
 * answers `isError: true` inside a successful HTTP exchange, so an HTTP dashboard counts it as
 * a success; this counter is where it shows up.
 */
import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import { blamesCaller } from './attributes.js';

/** The conventions' boundaries for MCP operation durations, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export interface McpInstruments {
  duration: Histogram;
  toolErrors: Counter;
}

/** `mcp.{side}.operation.duration` and `mcp.{side}.tool.errors`. */
export function createMcpInstruments(meter: Meter, side: 'client' | 'server'): McpInstruments {
  return {
    duration: meter.createHistogram(`mcp.${side}.operation.duration`, {
      unit: 's',
      description:
        side === 'client'
          ? 'Time from sending an MCP request until its response arrives.'
          : 'Time from receiving an MCP request until its response is sent.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    toolErrors: meter.createCounter(`mcp.${side}.tool.errors`, {
      unit: '{error}',
      description: 'Tool calls whose result said isError: true, by tool.',
    }),
  };
}

/** Per the conventions, request ids and session ids are span attributes only, never metric ones. */
const NOT_ON_METRICS = new Set(['jsonrpc.request.id', 'mcp.session.id', 'mcp.resource.uri']);

/**
 * A request refused for the caller's sake (unknown tool, invalid params) may name a tool or prompt
 * that does not exist: any string a client likes. Kept on the span, it stays off the metric, where
 * each new name would be a series. A tool that ran and failed inside keeps its name.
 */
const NAMES_OF_REFUSED = ['gen_ai.tool.name', 'gen_ai.prompt.name', 'gen_ai.operation.name'];

export function metricAttributes(attributes: Attributes): Attributes {
  const code = attributes['rpc.response.status_code'];
  const refused = code !== undefined && blamesCaller(Number(code));
  return Object.fromEntries(
    Object.entries(attributes).filter(
      ([key]) => !NOT_ON_METRICS.has(key) && !(refused && NAMES_OF_REFUSED.includes(key)),
    ),
  );
}
