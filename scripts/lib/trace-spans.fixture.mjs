// @ts-check
/**
 * Spans for the tests of trace-tree.mjs and trace-assembler.mjs, in test-infra's ReceivedSpan shape:
 * one failed tool call, as the agent (a turn and its MCP client span) and the server send it.
 */
export const TRACE = '0af7651916cd43dd8448eb211c80319c';

/**
 * A span in test-infra's ReceivedSpan shape; times in ms from an arbitrary start.
 * @param {string} spanId
 * @param {string} name
 * @param {import('../../dev/test-infra/dist/index.js').SpanKindName} kind
 * @param {string} service
 * @param {{ parent?: string, start?: number, end?: number,
 *   attributes?: Record<string, import('../../dev/test-infra/dist/index.js').AttributeValue>, error?: string }} [options]
 * @returns {import('../../dev/test-infra/dist/index.js').ReceivedSpan}
 */
export function span(
  spanId,
  name,
  kind,
  service,
  { parent, start = 0, end = 1, attributes = {}, error } = {},
) {
  return {
    traceId: TRACE,
    spanId,
    ...(parent && { parentSpanId: parent }),
    name,
    kind,
    startTimeUnixNano: BigInt(start) * 1_000_000n,
    endTimeUnixNano: BigInt(end) * 1_000_000n,
    attributes,
    resource: { 'service.name': service },
    scope: { name: 'test' },
    status: error ? { code: 'ERROR', message: error } : { code: 'UNSET' },
    events: [],
    links: [],
    encoding: 'protobuf',
  };
}

export const AGENT = 'mcp-workshop-agent';
const SERVER = 'mcp-workshop-server';
/**
 * The agent's turn and its MCP client span, in that order.
 * @returns {[import('../../dev/test-infra/dist/index.js').ReceivedSpan, import('../../dev/test-infra/dist/index.js').ReceivedSpan]}
 */
export const agentSpans = () => [
  span('a000000000000001', 'invoke_agent mcp-workshop-agent', 'INTERNAL', AGENT, { end: 500 }),
  span('a000000000000002', 'tools/call get_weather', 'CLIENT', AGENT, {
    parent: 'a000000000000001',
    start: 100,
    end: 130,
    attributes: {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'jsonrpc.request.id': '1',
      'error.type': 'tool_error',
      'gen_ai.tool.call.arguments': '{"location":"Atlantis"}',
    },
    error: 'The tool returned isError: true',
  }),
];
export const serverSpan = () =>
  span('b000000000000001', 'tools/call get_weather', 'SERVER', SERVER, {
    parent: 'a000000000000002',
    start: 110,
    end: 120,
    attributes: {
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': '1',
      'mcp.session.id': 'c3ab8ff13720e8ad9047dd39466b3c89',
      'error.type': 'tool_error',
      'gen_ai.tool.call.result': '{"isError":true}',
    },
    error: 'The tool returned isError: true',
  });
