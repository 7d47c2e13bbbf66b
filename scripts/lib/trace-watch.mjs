// @ts-check
/**
 * @module trace-watch
 * The loop behind `pnpm traces`: takes what an OTLP receiver (dev/test-infra) has received, hands
 * the spans to a trace assembler and writes each trace, whole, as it is due; and writes the MCP
 * metrics whenever new ones arrive. `stop()` writes what is still held (Ctrl-C must not lose a
 * trace). Partner files: trace-assembler.mjs (when), trace-tree.mjs (how it looks).
 */
import { createTraceAssembler } from './trace-assembler.mjs';
import { formatTrace } from './trace-tree.mjs';

/** How often the receiver is read: a trace appears at most this long after it is due. */
export const POLL_MS = 250;
/** Metric series kept (one per service, instrument and attribute set); a flood of made-up series is not. */
export const MAX_SERIES = 500;
/** The attributes a metric line is split by. */
const METRIC_KEYS = ['mcp.method.name', 'gen_ai.tool.name', 'error.type'];

/** The text of one trace as it is due: the note says when it is a reprint or lost spans. */
export function traceText({ traceId, spans, dropped, reprint }) {
  const notes = [];
  if (reprint > 0) {
    notes.push(`again: ${reprint} more span${reprint === 1 ? '' : 's'} arrived after it was printed`);
  }
  if (dropped > 0) notes.push(`${dropped} spans over the limit not shown`);
  return formatTrace(traceId, spans, { note: notes.join('; ') || undefined });
}

/**
 * Adds received metrics to `series` (a Map of `name{labels} · service` → value): the duration
 * histograms' counts, and the tool-error counters an HTTP dashboard cannot show. Exports are
 * cumulative, so a later value of a series replaces the earlier one.
 */
export function addMetrics(series, metrics, maxSeries = MAX_SERIES) {
  for (const metric of metrics) {
    if (!metric.name.startsWith('mcp.')) continue;
    for (const point of metric.points) {
      const labels = METRIC_KEYS.filter((key) => Object.hasOwn(point.attributes, key))
        .map((key) => `${key}=${point.attributes[key]}`)
        .join(',');
      const key = `${metric.name}{${labels}} · ${metric.resource['service.name']}`;
      if (!series.has(key) && series.size >= maxSeries) continue;
      series.set(key, metric.kind === 'histogram' ? `count ${point.count}` : String(point.value));
    }
  }
}

/** The series, one `series = value` line each, sorted. */
export function metricsText(series) {
  return [...series]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key} = ${value}`)
    .join('\n');
}

/**
 * Watches `receiver` until `stop()`. `write(text)` gets each trace and each metrics table; `now`
 * and the assembler's limits can be set for tests. The receiver is emptied as it is read, so a
 * long session does not grow.
 */
/**
 * @param {Pick<import('../../dev/test-infra/dist/index.js').OtlpReceiver, 'spans' | 'metrics' | 'clear'>} receiver
 * @param {{ write: (text: string) => void, now?: () => number, pollMs?: number,
 *   limits?: Parameters<typeof createTraceAssembler>[0] }} options
 */
export function watchTraces(receiver, { write, now = Date.now, pollMs = POLL_MS, limits }) {
  const assembler = createTraceAssembler(limits);
  const series = new Map();
  const tick = () => {
    const spans = receiver.spans;
    const metrics = receiver.metrics;
    // Nothing else runs between reading and clearing: no span is lost in between.
    if (spans.length > 0 || metrics.length > 0) receiver.clear();
    assembler.add(spans, now());
    for (const trace of assembler.due(now())) write(traceText(trace));
    if (metrics.length > 0) {
      addMetrics(series, metrics);
      write(metricsText(series));
    }
  };
  const timer = setInterval(tick, pollMs);
  let stopped = false;
  return {
    /** Reads what has arrived, writes every trace still held, and stops watching. */
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      tick();
      for (const trace of assembler.flush(now())) write(traceText(trace));
    },
  };
}
