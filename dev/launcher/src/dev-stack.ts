/**
 * @module dev-stack
 * Whether the MCP server `pnpm ask` reuses is `pnpm dev`'s, and how its last save went: its
 * `/health` then carries a `dev` block (dev/catalogue-dev/src/dev-status.ts) saying it reloads the
 * catalogue from source, where the last save failed, and what the background type check found.
 * `describeDevStack` turns that into the lines the person reads. Test: `dev-stack.test.ts`.
 */
import { z } from 'zod';

/** One `/health` request on loopback; a server that does not answer in time is not judged. */
const HEALTH_TIMEOUT_MS = 1_000;

const Place = z.object({ file: z.string(), line: z.number(), column: z.number().optional() });
const DevBlock = z.object({
  reloading: z.literal(true),
  lastReload: z
    .discriminatedUnion('outcome', [
      z.object({ outcome: z.literal('reloaded') }),
      z.object({ outcome: z.literal('failed'), message: z.string(), place: Place.nullable() }),
    ])
    .nullable()
    .catch(null),
  typecheck: z
    .union([
      z.object({
        state: z.literal('failed'),
        errorCount: z.number(),
        errors: z.array(Place.extend({ code: z.string(), message: z.string() })),
      }),
      z.object({ state: z.string() }),
    ])
    .catch({ state: 'unknown' }),
});
export type DevBlock = z.infer<typeof DevBlock>;

/** The `dev` block of the server at `baseUrl`, or undefined: a shipped server, not ours, or no answer. */
export async function readDevBlock(baseUrl: string): Promise<DevBlock | undefined> {
  try {
    const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    if (!response.ok) return undefined;
    const parsed = DevBlock.safeParse(((await response.json()) as { dev?: unknown }).dev);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `text` ending in one full stop, however it ended. */
const sentence = (text: string) => `${text.trim().replace(/[.\s]+$/, '')}.`;

const where = (place: z.infer<typeof Place>) =>
  `${place.file}:${place.line}${place.column === undefined ? '' : `:${place.column}`}`;

/**
 * The note that this is `pnpm dev`'s server, and a warning each for a failed last save and for
 * type errors: one line apiece, naming the file:line.
 */
export function describeDevStack(url: string, block: DevBlock): { note: string; warnings: string[] } {
  const warnings: string[] = [];
  const last = block.lastReload;
  if (last?.outcome === 'failed') {
    warnings.push(
      `catalogue-dev: the catalogue's last save failed${last.place ? ` at ${where(last.place)}` : ''}: ${sentence(last.message)} ` +
        'The last good catalogue is answering; save again to retry.',
    );
  }
  const check = block.typecheck;
  if ('errorCount' in check && check.errorCount > 0) {
    const first = check.errors[0];
    const plural = check.errorCount === 1 ? 'error' : 'errors';
    warnings.push(
      `catalogue-dev: the type check found ${check.errorCount} ${plural}` +
        `${first ? `, first at ${where(first)}: ${first.code} ${sentence(first.message)}` : '.'} ` +
        'The catalogue reloaded anyway; a call may fail on it.',
    );
  }
  return {
    note: `using pnpm dev's MCP server at ${url}: it serves the catalogue from source and reloads it on each save, so nothing was built.`,
    warnings,
  };
}
