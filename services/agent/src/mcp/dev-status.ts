/**
 * @module mcp/dev-status
 * What a server running under a reloading dev server (the workshop's `pnpm dev`) says about its
 * sources: the `dev` block of its `/health`, read when it announces a list change. The agent works
 * with any MCP server; a server without the block (anything but a dev server, a stdio server, a
 * `/health` that is not JSON) simply has no dev status, and the page shows no banner for it.
 * Test: `dev-status.test.ts`.
 */
import { z } from 'zod';

/** One `/health` request; a dev server on loopback answers in milliseconds. */
export const DEV_STATUS_TIMEOUT_MS = 2_000;
/** A `/health` is a few hundred bytes; anything far larger is not one to read. */
const MAX_HEALTH_CHARS = 64 * 1024;
/** The page lists this many type errors at most; the terminal and `/health` have them all. */
const SHOWN_TYPE_ERRORS = 3;

const Place = z.object({
  file: z.string().max(500),
  line: z.number().int(),
  column: z.number().int().optional(),
});
const HealthWithDev = z.object({
  dev: z.object({
    reloading: z.literal(true),
    lastReload: z
      .discriminatedUnion('outcome', [
        z.object({ outcome: z.literal('reloaded') }),
        z.object({ outcome: z.literal('failed'), message: z.string().max(2_000), place: Place.nullable() }),
      ])
      .nullable()
      .catch(null),
    typecheck: z
      .object({
        state: z.string(),
        errorCount: z.number().int().optional(),
        errors: z
          .array(Place.extend({ code: z.string().max(20), message: z.string().max(2_000) }))
          .optional(),
      })
      .catch({ state: 'unknown' }),
  }),
});

/** A problem in the server's sources, with where it is. */
export interface SourceProblem {
  /** e.g. `src/tools/shout.ts:13:16`, or null when the server could not say. */
  where: string | null;
  message: string;
}

/** A dev server's state, as the page shows it: the failed save first, then type errors. */
export interface DevStatus {
  server: string;
  /** The last save failed to load: the last good catalogue is still serving. */
  failedSave: SourceProblem | null;
  /** The background type check's errors (its first few), and how many there are in all. */
  typeErrors: { count: number; first: SourceProblem[] };
}

const where = (place: z.infer<typeof Place> | null) =>
  place ? `${place.file}:${place.line}${place.column === undefined ? '' : `:${place.column}`}` : null;

/** The dev status in a `/health` body, or undefined when it has no `dev` block of a reloading server. */
export function devStatusOf(server: string, health: unknown): DevStatus | undefined {
  const parsed = HealthWithDev.safeParse(health);
  if (!parsed.success) return undefined;
  const { lastReload, typecheck } = parsed.data.dev;
  const failed = typecheck.state === 'failed' ? (typecheck.errors ?? []) : [];
  return {
    server,
    failedSave:
      lastReload?.outcome === 'failed'
        ? { where: where(lastReload.place), message: lastReload.message }
        : null,
    typeErrors: {
      count: typecheck.state === 'failed' ? (typecheck.errorCount ?? failed.length) : 0,
      first: failed
        .slice(0, SHOWN_TYPE_ERRORS)
        .map((error) => ({ where: where(error), message: `${error.code}: ${error.message}` })),
    },
  };
}

/** `/health` at the origin of an HTTP server's URL; undefined for a stdio server's command line. */
export function healthUrlOf(target: string): string | undefined {
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? new URL('/health', url.origin).href
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the dev status of the server at `target`; undefined when it offers none or does not answer. */
export async function readDevStatus(
  server: string,
  target: string,
  fetchImpl: typeof fetch = fetch,
): Promise<DevStatus | undefined> {
  const url = healthUrlOf(target);
  if (!url) return undefined;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(DEV_STATUS_TIMEOUT_MS) });
    if (!response.ok) return undefined;
    const text = await response.text();
    return text.length > MAX_HEALTH_CHARS ? undefined : devStatusOf(server, JSON.parse(text));
  } catch {
    return undefined;
  }
}
