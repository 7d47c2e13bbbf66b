// @ts-check
/**
 * @module trace-tree
 * One trace as `pnpm traces` prints it: a tree of spans, children under their parent in start
 * order, each line with the span's id (and its parent's, where the tree cannot show it), where it
 * ran, how long it took, how it failed, and the attributes workshop module 13 reads. Pure: spans
 * in (test-infra's ReceivedSpan shape), text out. Partner file: trace-assembler.mjs.
 */

/**
 * The attributes a line shows, when the span has them; nothing is ever made up for a span that
 * lacks one. The span name already says `{mcp.method.name} {gen_ai.tool.name}`, so those two are
 * left to it. The two `gen_ai.tool.call.*` are only there with
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true (packages/telemetry/src/content.ts).
 */
export const SHOWN_ATTRIBUTES = [
  'gen_ai.request.model',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.response.finish_reasons',
  'mcp.protocol.version',
  'jsonrpc.request.id',
  'mcp.session.id',
  'error.type',
  'db.system.name',
  'server.address',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];

/** A recorded tool result may be 4 KB; a terminal line shows this much of a value and its length. */
export const MAX_VALUE_CHARS = 240;

/** A CLIENT span for an MCP request: a traced server answers it with a SERVER span under it. */
function isMcpClientSpan(span) {
  return span.kind === 'CLIENT' && typeof span.attributes['mcp.method.name'] === 'string';
}

/**
 * The MCP client spans of a trace that have no SERVER span under them yet: the server's spans
 * are still on their way (its batch exporter sends every few seconds), or it does not export here.
 */
export function awaitingServer(spans) {
  const serverParents = new Set(
    spans.filter((span) => span.kind === 'SERVER' && span.parentSpanId).map((span) => span.parentSpanId),
  );
  return spans.filter((span) => isMcpClientSpan(span) && !serverParents.has(span.spanId));
}

/** Whether a trace looks whole: its root has arrived, and every MCP call has its server's span. */
export function looksComplete(spans) {
  const ids = new Set(spans.map((span) => span.spanId));
  const hasRoot = spans.some((span) => !span.parentSpanId);
  const orphans = spans.some((span) => span.parentSpanId && !ids.has(span.parentSpanId));
  return hasRoot && !orphans && awaitingServer(spans).length === 0;
}

/**
 * `trace <id>`, then one line per span. `note` goes in brackets after the id (e.g. that this is
 * a reprint with late spans); a line under the tree names each MCP call whose server span is missing.
 * @param {string} traceId
 * @param {readonly import('../../dev/test-infra/dist/index.js').ReceivedSpan[]} spans
 * @param {{ keys?: string[], note?: string }} [options]
 */
export function formatTrace(traceId, spans, { keys = SHOWN_ATTRIBUTES, note } = {}) {
  const lines = [`trace ${traceId}${note ? ` (${note})` : ''}`];
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const byStart = [...spans].sort((a, b) => compareBigInt(a.startTimeUnixNano, b.startTimeUnixNano));
  const printed = new Set();
  const print = (span, depth) => {
    if (printed.has(span)) return;
    printed.add(span);
    lines.push(`${'  '.repeat(depth)}${lineOf(span, byId.get(span.parentSpanId), keys)}`);
    for (const child of byStart) if (child.parentSpanId === span.spanId) print(child, depth + 1);
  };
  for (const span of byStart) if (!span.parentSpanId || !byId.has(span.parentSpanId)) print(span, 0);
  // Spans whose parents form a cycle (only a broken or hostile exporter sends those) still get a line.
  for (const span of byStart) print(span, 0);
  if (spans.length === 0) lines.push('(no span of it arrived)');
  for (const client of awaitingServer(spans)) {
    lines.push(
      `(no server span arrived for ${client.name} ${client.spanId}: does that server export to this receiver?)`,
    );
  }
  return lines.join('\n');
}

/**
 * `name [KIND] span=<id> parent=<id> · service 12 ms ERROR "message" key=value …`. The parent is
 * named only where the tree does not show it: under a span of another service (the id came across
 * in the request's traceparent), or when the parent never arrived.
 */
function lineOf(span, parent, keys) {
  const service = serviceOf(span);
  const showParent = span.parentSpanId && (!parent || serviceOf(parent) !== service);
  const ms = Number(span.endTimeUnixNano - span.startTimeUnixNano) / 1e6;
  const failed = span.status.code === 'ERROR' ? ` ERROR ${formatValue(span.status.message ?? '')}` : '';
  const attributes = keys
    .filter((key) => Object.hasOwn(span.attributes, key))
    .map((key) => ` ${key}=${formatValue(span.attributes[key])}`)
    .join('');
  return (
    `${span.name} [${span.kind}] span=${span.spanId}${showParent ? ` parent=${span.parentSpanId}` : ''}` +
    ` · ${service} ${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms${failed}${attributes}`
  );
}

function serviceOf(span) {
  const name = span.resource['service.name'];
  return typeof name === 'string' ? name : '?';
}

function compareBigInt(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Bare when unambiguous, and for a recorded argument or result (JSON text already); quoted JSON
 * for another string with spaces, quotes or `=`, and for lists and maps. A value longer than {@link MAX_VALUE_CHARS} is cut, with its length, so one recorded
 * result cannot fill the screen.
 */
export function formatValue(value) {
  let text;
  if (typeof value === 'string') text = /^[^\s"=]+$|^[[{]/.test(value) ? value : JSON.stringify(value);
  else if (typeof value === 'object' && value !== null) {
    text = JSON.stringify(value, (_, item) => (typeof item === 'bigint' ? item.toString() : item));
  } else text = String(value);
  return text.length <= MAX_VALUE_CHARS ? text : `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length} chars)`;
}
