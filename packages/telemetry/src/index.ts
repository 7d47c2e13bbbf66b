/**
 * @module @mcp-workshop/telemetry
 * The settings only, so a service can validate them without loading OpenTelemetry. The SDK, and
 * the MCP client and server instrumentation, are in `@mcp-workshop/telemetry/sdk`, which a
 * service imports only when telemetry is on.
 */
export {
  OTLP_PROTOCOLS,
  type OtlpProtocol,
  TELEMETRY_ENV,
  type TelemetryEnv,
  telemetryEnabled,
} from './env.js';
