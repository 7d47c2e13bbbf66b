/**
 * @module env
 * Validates an environment against a zod schema, the same way in every service: empty values
 * count as unset (so `PORT=` in a `.env` file means "use the default"), and one error lists
 * every bad variable with what was given.
 */
import { z } from 'zod';
import { WorkshopError } from './errors.js';

/**
 * A comma-separated value as a list: items trimmed, empty items dropped, so `a, b,` is `['a', 'b']`.
 * One schema for every service's list variables (allowed hosts, origins, resources), so they all
 * read a list the same way.
 */
export const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** Thrown when the environment is invalid; the message names each variable to fix. */
export class EnvError extends WorkshopError {}

export interface ParseEnvOptions {
  /** How a bad value is shown in the error (default: as given); e.g. with a URL's password masked. */
  quote?(name: string, value: string): string;
}

export function parseEnv<Schema extends z.ZodType>(
  schema: Schema,
  source: Record<string, string | undefined>,
  options: ParseEnvOptions = {},
): z.output<Schema> {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '?');
    const value = source[name] ?? '';
    return `  ${name}=${JSON.stringify(options.quote ? options.quote(name, value) : value)}: ${issue.message}`;
  });
  throw new EnvError(
    `Invalid environment. Fix these variables (or unset them to use the defaults):\n${lines.join('\n')}`,
  );
}
