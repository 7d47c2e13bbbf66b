// @ts-check
// Tests of scripts/lib/trace-tree.mjs; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT, agentSpans, serverSpan, span, TRACE } from './trace-spans.fixture.mjs';
import { awaitingServer, formatTrace, looksComplete, MAX_VALUE_CHARS } from './trace-tree.mjs';

describe('formatTrace', () => {
  it('prints one tree with span ids, and the parent id where another process is the parent', () => {
    const text = formatTrace(TRACE, [serverSpan(), ...agentSpans()]);
    assert.deepEqual(text.split('\n'), [
      `trace ${TRACE}`,
      'invoke_agent mcp-workshop-agent [INTERNAL] span=a000000000000001 · mcp-workshop-agent 500 ms',
      '  tools/call get_weather [CLIENT] span=a000000000000002 · mcp-workshop-agent 30 ms ERROR "The tool returned isError: true" jsonrpc.request.id=1 error.type=tool_error gen_ai.tool.call.arguments={"location":"Atlantis"}',
      '    tools/call get_weather [SERVER] span=b000000000000001 parent=a000000000000002 · mcp-workshop-server 10 ms ERROR "The tool returned isError: true" jsonrpc.request.id=1 mcp.session.id=c3ab8ff13720e8ad9047dd39466b3c89 error.type=tool_error gen_ai.tool.call.result={"isError":true}',
    ]);
  });

  it('shows no attribute a span does not carry, and none it was not asked for', () => {
    const [root] = agentSpans();
    root.attributes = {
      'gen_ai.conversation.id': 'secret-ish',
      'gen_ai.request.model': 'offline-demo-model',
    };
    const text = formatTrace(TRACE, [root]);
    assert.match(text, /gen_ai\.request\.model=offline-demo-model$/m);
    assert.doesNotMatch(text, /conversation|tool\.call|undefined|null/);
  });

  it('cuts a long recorded value and says how long it was', () => {
    const [root, client] = agentSpans();
    client.attributes['gen_ai.tool.call.arguments'] = JSON.stringify({ text: 'x'.repeat(5000) });
    const line = formatTrace(TRACE, [root, client]).split('\n')[2] ?? '';
    assert.ok(line.length < 2 * MAX_VALUE_CHARS + 200, `line of ${line.length} characters`);
    assert.match(line, /… \(\d+ chars\)$/);
  });

  it('names an MCP call whose server span has not arrived, and a missing parent', () => {
    const orphan = serverSpan();
    orphan.parentSpanId = 'ffffffffffffffff';
    const text = formatTrace(TRACE, [...agentSpans(), orphan]);
    assert.match(text, /^tools\/call get_weather \[SERVER\] span=b000000000000001 parent=ffffffffffffffff/m);
    assert.match(text, /\(no server span arrived for tools\/call get_weather a000000000000002/);
  });

  it('still prints every span of a parent cycle, once', () => {
    const one = span('c000000000000001', 'one', 'INTERNAL', AGENT, { parent: 'c000000000000002' });
    const two = span('c000000000000002', 'two', 'INTERNAL', AGENT, { parent: 'c000000000000001' });
    const lines = formatTrace(TRACE, [one, two]).split('\n');
    assert.equal(lines.length, 3);
  });

  it('says so when no span arrived', () => {
    assert.equal(formatTrace(TRACE, []), `trace ${TRACE}\n(no span of it arrived)`);
  });
});

describe('looksComplete', () => {
  it('is false while an MCP call lacks its server span, true once it came', () => {
    assert.equal(looksComplete(agentSpans()), false);
    assert.deepEqual(
      awaitingServer(agentSpans()).map((s) => s.spanId),
      ['a000000000000002'],
    );
    assert.equal(looksComplete([...agentSpans(), serverSpan()]), true);
  });

  it('is false for spans whose root has not arrived (the server sent first)', () => {
    assert.equal(looksComplete([serverSpan()]), false);
  });

  it('is true for a trace that starts at the server (curl, no traceparent)', () => {
    const alone = serverSpan();
    delete alone.parentSpanId;
    assert.equal(looksComplete([alone]), true);
  });
});
