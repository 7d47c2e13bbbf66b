/**
 * @module @mcp-workshop/telemetry/sdk
 * Everything that loads OpenTelemetry: the SDK start-up and the MCP client and server spans.
 * Services import it only when `telemetryEnabled()` is true, so telemetry off costs nothing.
 */
export { ATTR, serverOf, TOOL_ERROR } from './attributes.js';
export { capBaggage, MAX_BAGGAGE_BYTES, MAX_BAGGAGE_MEMBERS } from './carriers.js';
export { cappedJson, MAX_CONTENT_CHARS } from './content.js';
export {
  type ClientTraceOptions,
  type McpTelemetry,
  traceClientTransport,
  traceMcpClient,
} from './mcp-client.js';
export { extractRequestContext, traceMcpServer } from './mcp-server.js';
export { startTelemetry, type Telemetry, type TelemetryOptions } from './start.js';
