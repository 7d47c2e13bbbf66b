/**
 * @module telemetry/start
 * Starts OpenTelemetry for the server and hands out the pieces that use it. `index.ts` imports this
 * module only when `telemetryEnabled(env)`; nothing else in the server imports OpenTelemetry.
 */
import type { TelemetryEnv } from '@mcp-workshop/telemetry';
import { startTelemetry, traceMcpServer } from '@mcp-workshop/telemetry/sdk';
import { trace } from '@opentelemetry/api';
import { SERVER_NAME, SERVER_VERSION } from '../version.js';
import { tracedFetch } from './traced-fetch.js';
import { traceTaskStore } from './traced-store.js';
import type { ServerTelemetry } from './types.js';

export function startServerTelemetry(env: TelemetryEnv): ServerTelemetry {
  const telemetry = startTelemetry({ env, serviceName: SERVER_NAME, serviceVersion: SERVER_VERSION });
  return {
    traceServer: (server) => void traceMcpServer(server.server, telemetry),
    traceTaskStore: (store, target) => traceTaskStore(store, target, telemetry.tracer),
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
