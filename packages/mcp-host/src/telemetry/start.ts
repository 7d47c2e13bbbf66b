/**
 * @module telemetry/start
 * Starts OpenTelemetry for a server and hands out the pieces that use it. An entry file imports
 * this module (`@mcp-workshop/mcp-host/telemetry`) only when `telemetryEnabled(env)`; nothing
 * else in the host imports OpenTelemetry.
 */
import type { TelemetryEnv } from '@mcp-workshop/telemetry';
import { startTelemetry, traceMcpServer } from '@mcp-workshop/telemetry/sdk';
import { trace } from '@opentelemetry/api';
import { tracedFetch } from './traced-fetch.js';
import type { HostTelemetry } from './types.js';

export type { HostTelemetry } from './types.js';

/** `name` and `version` become `service.name` and `service.version` on every span. */
export function startHostTelemetry(
  env: TelemetryEnv,
  info: { name: string; version: string },
): HostTelemetry {
  const telemetry = startTelemetry({ env, serviceName: info.name, serviceVersion: info.version });
  return {
    traceServer: (server) => void traceMcpServer(server.server, telemetry),
    tracer: telemetry.tracer,
    fetch: tracedFetch(telemetry.tracer),
    logFields(): Record<string, string> {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    shutdown: () => telemetry.shutdown(),
  };
}
