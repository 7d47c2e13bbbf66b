/**
 * @module telemetry/types
 * What the rest of the server asks of telemetry when it is on. It imports nothing from
 * OpenTelemetry: with telemetry off, `index.ts` never loads `start.ts`, every consumer gets
 * `undefined`, and no span, wrapper or exporter exists.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { TaskStore } from '../tasks/store.js';

/** Which database a task store talks to, for `db.*` attributes; never a password or a value. */
export type DatabaseTarget =
  | { system: 'sqlite' }
  | { system: 'postgresql'; address?: string; port?: number; database?: string };

export interface ServerTelemetry {
  /** Traces every request this instance receives, over any transport. */
  traceServer(server: McpServer): void;
  /** A store whose every statement is a child span of the call that made it. */
  traceTaskStore<S extends TaskStore>(store: S, target: DatabaseTarget): S;
  /** `fetch` with an HTTP client span, for the weather provider's upstream calls. */
  fetch: typeof fetch;
  /** pino's `mixin`: the active span's `trace_id` and `span_id` on every log line. */
  logFields(): Record<string, string>;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}
