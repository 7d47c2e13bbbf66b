// @ts-check
/**
 * @module trace-assembler
 * Gathers spans into traces for `pnpm traces`, which prints each trace once it is whole. Spans of
 * one question come from several processes at different times: the agent flushes as it exits, a
 * long-running server's batch exporter sends up to OTEL_BSP_SCHEDULE_DELAY (5 s by default)
 * later. So a trace is held until it looks whole (trace-tree.mjs `looksComplete`) and has been
 * quiet a moment, or, when it does not look whole, until it has been quiet long enough for any
 * exporter to have sent. Pure: the caller passes the clock. Partner file: trace-watch.mjs.
 */
import { looksComplete } from './trace-tree.mjs';

/** A whole-looking trace is printed once no span of it arrived for this long (spans of one batch arrive together). */
export const QUIET_MS = 1_000;
/** One that still lacks spans waits this long after its last: the SDK's default 5 s batch delay, and a margin. */
export const SETTLE_MS = 6_500;
/** No trace is held longer than this after its first span, however long it keeps growing. */
export const MAX_HOLD_MS = 30_000;
/** Traces held at once; past this the oldest is printed as it is, so a flood cannot grow memory. */
export const MAX_OPEN_TRACES = 500;
/** Spans kept per trace; more are counted, not kept. */
export const MAX_SPANS_PER_TRACE = 2_000;
/** A printed trace is kept this long, and at most this many, so a span that arrives later still joins its tree. */
export const REMEMBER_MS = 120_000;
export const MAX_REMEMBERED = 100;

/**
 * `add(spans, now)` as they arrive; `due(now)` returns the traces to print now, oldest first, as
 * `{ traceId, spans, dropped, reprint }`: `reprint` counts the spans that arrived after the trace was
 * last printed (0 the first time), and the spans are always the whole trace so far. `flush()`
 * returns every trace still held, for the way out.
 */
export function createTraceAssembler(limits = {}) {
  const {
    quietMs = QUIET_MS,
    settleMs = SETTLE_MS,
    maxHoldMs = MAX_HOLD_MS,
    maxOpen = MAX_OPEN_TRACES,
    maxSpans = MAX_SPANS_PER_TRACE,
    rememberMs = REMEMBER_MS,
    maxRemembered = MAX_REMEMBERED,
  } = limits;
  /**
   * traceId → { spans, dropped, first, last, reprint, seenBefore }; Map order is the order of first
   * spans. It can pass maxOpen between two `due()` calls by what one poll read; `due()` trims it.
   */
  const open = new Map();
  /** traceId → { spans, dropped, printedAt }, oldest first. */
  const printed = new Map();

  const forget = (now) => {
    for (const [traceId, trace] of printed) {
      if (printed.size <= maxRemembered && now - trace.printedAt < rememberMs) break;
      printed.delete(traceId);
    }
  };

  const release = (traceId, trace, now) => {
    open.delete(traceId);
    printed.delete(traceId);
    printed.set(traceId, { spans: trace.spans, dropped: trace.dropped, printedAt: now });
    return { traceId, spans: [...trace.spans], dropped: trace.dropped, reprint: trace.reprint };
  };

  return {
    add(spans, now) {
      forget(now);
      for (const span of spans) {
        let trace = open.get(span.traceId);
        if (!trace) {
          const before = printed.get(span.traceId);
          printed.delete(span.traceId);
          trace = {
            spans: before ? [...before.spans] : [],
            dropped: before?.dropped ?? 0,
            first: now,
            last: now,
            reprint: 0,
            seenBefore: Boolean(before),
          };
          open.set(span.traceId, trace);
        }
        trace.last = now;
        if (trace.seenBefore) trace.reprint += 1;
        if (trace.spans.length < maxSpans) trace.spans.push(span);
        else trace.dropped += 1;
      }
    },
    due(now) {
      const ready = [];
      for (const [traceId, trace] of open) {
        const quiet = now - trace.last;
        const whole = looksComplete(trace.spans);
        const crowded = open.size - ready.length > maxOpen;
        if (crowded || now - trace.first >= maxHoldMs || quiet >= (whole ? quietMs : settleMs)) {
          ready.push([traceId, trace]);
        }
      }
      const out = ready.map(([traceId, trace]) => release(traceId, trace, now));
      forget(now);
      return out;
    },
    flush(now = Date.now()) {
      const out = [...open].map(([traceId, trace]) => release(traceId, trace, now));
      forget(now);
      return out;
    },
    /** How many traces are held: for tests and for the way out. */
    get openCount() {
      return open.size;
    },
  };
}
