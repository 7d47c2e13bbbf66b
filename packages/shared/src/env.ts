/**
 * @module env
 * Validates an environment against a zod schema, the same way in every service: empty values
 * count as unset (so `PORT=` in a `.env` file means "use the default"), and one error lists
 * every bad variable with what was given.
 */
import type { z } from 'zod';
import { WorkshopError } from './errors.js';

/** Thrown when the environment is invalid; the message names each variable to fix. */
export class EnvError extends WorkshopError {}

export function parseEnv<Schema extends z.ZodType>(
  schema: Schema,
  source: Record<string, string | undefined>,
): z.output<Schema> {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '?');
    return `  ${name}=${JSON.stringify(source[name] ?? '')}: ${issue.message}`;
  });
  throw new EnvError(
    `Invalid environment. Fix these variables (or unset them to use the defaults):\n${lines.join('\n')}`,
  );
}
