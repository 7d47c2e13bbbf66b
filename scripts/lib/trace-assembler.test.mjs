// @ts-check
// Tests of scripts/lib/trace-assembler.mjs, on a clock the test moves; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTraceAssembler, MAX_HOLD_MS, QUIET_MS, SETTLE_MS } from './trace-assembler.mjs';
import { AGENT, agentSpans, serverSpan, span, TRACE } from './trace-spans.fixture.mjs';

const ids = (trace) => trace.spans.map((s) => s.spanId).sort();

describe('createTraceAssembler', () => {
  it('keeps a trace open for the server spans that arrive seconds after the agent’s: one trace with both', () => {
    const assembler = createTraceAssembler();
    assembler.add(agentSpans(), 0);
    // The old `pnpm traces` printed here, after one quiet second, without the server span.
    assert.deepEqual(assembler.due(QUIET_MS + 500), []);
    assert.deepEqual(assembler.due(4_000), []);
    // A long-running server's batch exporter sends up to 5 s later.
    assembler.add([serverSpan()], 4_900);
    assert.deepEqual(assembler.due(4_900 + QUIET_MS - 1), []);
    const [trace, ...more] = assembler.due(4_900 + QUIET_MS);
    assert.ok(trace, 'a trace is due');
    assert.deepEqual(more, []);
    assert.equal(trace.traceId, TRACE);
    assert.deepEqual(ids(trace), ['a000000000000001', 'a000000000000002', 'b000000000000001']);
    assert.equal(trace.reprint, 0);
    assert.equal(assembler.openCount, 0);
  });

  it('prints a whole trace after one quiet second, without waiting the settle time', () => {
    const assembler = createTraceAssembler();
    assembler.add([...agentSpans(), serverSpan()], 0);
    assert.deepEqual(assembler.due(QUIET_MS - 1), []);
    assert.equal(assembler.due(QUIET_MS).length, 1);
  });

  it('prints a trace whose server never exports here once the settle time has passed', () => {
    const assembler = createTraceAssembler();
    assembler.add(agentSpans(), 0);
    assert.deepEqual(assembler.due(SETTLE_MS - 1), []);
    const [trace] = assembler.due(SETTLE_MS);
    assert.ok(trace, 'a trace is due');
    assert.equal(trace.spans.length, 2);
  });

  it('waits for the root when the server’s spans come first, and prints them together', () => {
    const assembler = createTraceAssembler();
    assembler.add([serverSpan()], 0);
    assert.deepEqual(assembler.due(3_000), []);
    assembler.add(agentSpans(), 3_000);
    const [trace] = assembler.due(3_000 + QUIET_MS);
    assert.ok(trace, 'a trace is due');
    assert.equal(trace.spans.length, 3);
  });

  it('holds a trace that never goes quiet no longer than MAX_HOLD_MS', () => {
    const assembler = createTraceAssembler();
    let printed = [];
    // Bounded: one span every half second, for one second longer than the hold.
    for (let at = 0; at <= MAX_HOLD_MS + 1_000 && printed.length === 0; at += 500) {
      assembler.add([span(`d${String(at).padStart(15, '0')}`, 'busy', 'INTERNAL', AGENT)], at);
      printed = assembler.due(at);
    }
    const [held] = printed;
    assert.equal(printed.length, 1);
    assert.ok(held && held.spans.length <= MAX_HOLD_MS / 500 + 1);
  });

  it('reprints the whole tree, marked, when a span arrives after the trace was printed', () => {
    const assembler = createTraceAssembler();
    assembler.add(agentSpans(), 0);
    assert.equal(assembler.due(SETTLE_MS).length, 1);
    assembler.add([serverSpan()], SETTLE_MS + 2_000);
    const [again] = assembler.due(SETTLE_MS + 2_000 + QUIET_MS);
    assert.ok(again, 'a trace is due');
    assert.deepEqual(ids(again), ['a000000000000001', 'a000000000000002', 'b000000000000001']);
    assert.equal(again.reprint, 1);
  });

  it('forgets printed traces after a while and past a count, so memory stays bounded', () => {
    const assembler = createTraceAssembler({ maxRemembered: 2, rememberMs: 10_000 });
    const other = (n) => ({
      ...span(`e00000000000000${n}`, 'x', 'INTERNAL', AGENT),
      traceId: `${n}`.repeat(32),
    });
    for (let n = 1; n <= 4; n += 1) assembler.add([other(n)], 0);
    assert.equal(assembler.due(QUIET_MS).length, 4);
    // Trace 1 was forgotten (only the last two are kept): its late span starts a tree of its own.
    assembler.add([{ ...other(1), spanId: 'f000000000000001' }], 2_000);
    assert.equal(assembler.due(2_000 + QUIET_MS)[0]?.reprint, 0);
    // Trace 4 is remembered, but not past rememberMs.
    assembler.add([{ ...other(4), spanId: 'f000000000000004' }], 20_000);
    assert.equal(assembler.due(20_000 + QUIET_MS)[0]?.spans.length, 1);
  });

  it('prints the oldest traces early when a flood opens more than maxOpen', () => {
    const assembler = createTraceAssembler({ maxOpen: 3 });
    const traces = Array.from({ length: 10 }, (_, n) => ({
      ...agentSpans()[0],
      traceId: n.toString(16).padStart(32, '0'),
    }));
    assembler.add(traces, 0);
    const early = assembler.due(1);
    assert.deepEqual(
      early.map((t) => t.traceId),
      traces.slice(0, 7).map((t) => t.traceId),
    );
    assert.equal(assembler.openCount, 3);
  });

  it('keeps at most maxSpans spans of one trace and counts the rest', () => {
    const assembler = createTraceAssembler({ maxSpans: 5 });
    const many = Array.from({ length: 50 }, (_, n) =>
      span(n.toString(16).padStart(16, '0'), 's', 'INTERNAL', AGENT),
    );
    assembler.add(many, 0);
    const [trace] = assembler.due(QUIET_MS);
    assert.ok(trace, 'a trace is due');
    assert.equal(trace.spans.length, 5);
    assert.equal(trace.dropped, 45);
  });

  it('hands over every trace still held on flush, and nothing twice', () => {
    const assembler = createTraceAssembler();
    assembler.add(agentSpans(), 0);
    const flushed = assembler.flush(10);
    assert.equal(flushed.length, 1);
    assert.deepEqual(assembler.flush(20), []);
    assert.deepEqual(assembler.due(SETTLE_MS * 2), []);
  });
});
