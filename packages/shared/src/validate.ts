/**
 * @module validate
 * Checks any value against the spec's `CallToolResult`. Use it in tests, and on results that
 * come from a server you do not control before you trust their shape.
 */
import { type CallToolResult, CallToolResultSchema } from './schemas.js';

/** The outcome of {@link validateToolResult}: the typed result, or readable problems. */
export type ValidationOutcome = { ok: true; result: CallToolResult } | { ok: false; problems: string[] };

/** Validates without throwing. Each problem names the path, e.g. `content.0.type: ...`. */
export function validateToolResult(value: unknown): ValidationOutcome {
  const parsed = CallToolResultSchema.safeParse(value);
  if (parsed.success) return { ok: true, result: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    return `${where}: ${issue.message}`;
  });
  return { ok: false, problems };
}

/** Validates and throws a `TypeError` listing every problem. Handy in tests. */
export function assertToolResult(value: unknown): CallToolResult {
  const outcome = validateToolResult(value);
  if (!outcome.ok) throw new TypeError(`Not a valid CallToolResult:\n- ${outcome.problems.join('\n- ')}`);
  return outcome.result;
}
