/**
 * @module telemetry/types
 * What a server asks of telemetry when it is on. Types only: with telemetry off, the entry file
 * never loads `@mcp-workshop/mcp-host/telemetry`, every consumer gets `undefined`, and no span,
 * wrapper or exporter exists.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { Tracer } from '@opentelemetry/api';

export interface HostTelemetry {
  /** Traces every request this instance receives, over any transport. */
  traceServer(server: McpServer): void;
  /** For a server's own child spans (its database statements, say). */
  tracer: Tracer;
  /** `fetch` with an HTTP client span, for a server's upstream calls. */
  fetch: typeof fetch;
  /** pino's `mixin`: the active span's `trace_id` and `span_id` on every log line. */
  logFields(): Record<string, string>;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}
