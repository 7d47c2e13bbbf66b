/**
 * @module env
 * The only place the suite reads `process.env`: which server to test (`PROTOCOL_SUITE_URL`) and
 * which revisions to run (`PROTOCOL_SUITE_REVISIONS`). The CLI validates its flags with the same
 * schemas, so a flag and a variable are refused with the same words.
 */
import { commaList, parseEnv } from '@mcp-workshop/shared';
import { z } from 'zod';
import { REVISIONS, type Revision } from './revisions.js';

/** A full Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp; the suite forges Host/Origin against it. */
export const SuiteUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, e.g. http://127.0.0.1:3000/mcp' })
  .transform((value) => new URL(value));

const KNOWN = new Set<string>(REVISIONS);

/** A non-empty list of known revisions, oldest first, without repeats (a subset of `REVISIONS`). */
export const SuiteRevisions = z
  .array(z.string())
  .refine((list) => list.length > 0, { error: 'names no revision' })
  .refine((list) => list.every((rev) => KNOWN.has(rev)), {
    error: (issue) =>
      `unknown revision ${(issue.input as string[]).filter((rev) => !KNOWN.has(rev)).join(', ')}; ` +
      `known: ${REVISIONS.join(', ')}`,
  })
  .transform((list) => REVISIONS.filter((rev) => list.includes(rev)));

const EnvSchema = z.object({
  PROTOCOL_SUITE_URL: SuiteUrl.optional(),
  PROTOCOL_SUITE_REVISIONS: commaList.pipe(SuiteRevisions).optional(),
});

/** Where the suite runs: `url` unset means "start the workshop server locally". */
export interface SuiteEnv {
  target: { baseUrl: string; mcpUrl: string } | undefined;
  revisions: readonly Revision[];
}

/** Reads and validates the suite's variables; throws an `EnvError` that names each bad one. */
export function loadSuiteEnv(source: Record<string, string | undefined> = process.env): SuiteEnv {
  const env = parseEnv(EnvSchema, source);
  const url = env.PROTOCOL_SUITE_URL;
  return {
    // The origin, not the URL's directory: Origin and Host checks compare against scheme://host:port.
    target: url ? { baseUrl: url.origin, mcpUrl: url.href } : undefined,
    revisions: env.PROTOCOL_SUITE_REVISIONS ?? REVISIONS,
  };
}

export { EnvError } from '@mcp-workshop/shared';
