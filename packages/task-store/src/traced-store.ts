/**
 * @module traced-store
 * A {@link TodoStore} whose statements are database client spans: every store method runs one
 * statement (see the adapters), so one span per call is one span per statement. A span says which
 * database and which operation on which table (`INSERT tasks`), after OpenTelemetry's database
 * conventions, and nothing else: no statement text, no bound value, no task title, no owner (a
 * subject is personal data, and the log line of the tool call already carries the trace).
 */

import { ToolError } from '@mcp-workshop/shared';
import { type Attributes, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { TodoAddUncertainError, type TodoStore, TodoStoreUnavailableError } from './store.js';

/** Which database a task store talks to, for `db.*` attributes; never a password or a value. */
export type DatabaseTarget =
  | { system: 'sqlite' }
  | { system: 'postgresql'; address?: string; port?: number; database?: string };

const OPERATIONS = {
  add: 'INSERT',
  list: 'SELECT',
  listPage: 'SELECT',
  get: 'SELECT',
  complete: 'UPDATE',
  delete: 'DELETE',
} as const satisfies Partial<Record<keyof TodoStore, string>>;

const TABLE = 'tasks';

function targetAttributes(target: DatabaseTarget): Attributes {
  if (target.system === 'sqlite') return { 'db.system.name': 'sqlite' };
  return {
    'db.system.name': 'postgresql',
    ...(target.database && { 'db.namespace': target.database }),
    ...(target.address && { 'server.address': target.address }),
    ...(target.port && target.port !== 5432 && { 'server.port': target.port }),
  };
}

/** A `ToolError` that is not about the database being unreachable or uncertain: the input was refused. */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof ToolError &&
    !(error instanceof TodoStoreUnavailableError) &&
    !(error instanceof TodoAddUncertainError)
  );
}

/** A SQLSTATE (`08006`) or a Node error code (`ECONNREFUSED`) when the driver gave one, else the error's name. */
function errorType(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
    current = current.cause;
  }
  return error instanceof Error ? error.name : '_OTHER';
}

export function traceTodoStore<S extends TodoStore>(store: S, target: DatabaseTarget, tracer: Tracer): S {
  const fixed = targetAttributes(target);
  const traced = { ...store } as S;
  for (const [method, operation] of Object.entries(OPERATIONS) as [keyof typeof OPERATIONS, string][]) {
    const run = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (traced as Record<string, unknown>)[method] = (...args: unknown[]) =>
      tracer.startActiveSpan(
        `${operation} ${TABLE}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { ...fixed, 'db.operation.name': operation, 'db.collection.name': TABLE },
        },
        async (span) => {
          try {
            return await run(...args);
          } catch (error) {
            // A title too long, a full list: the caller's input was refused, the database worked.
            if (!isRefusal(error)) {
              span.setAttribute('error.type', errorType(error));
              span.setStatus({ code: SpanStatusCode.ERROR });
            }
            throw error;
          } finally {
            span.end();
          }
        },
      );
  }
  return traced;
}
