/**
 * @module protocol-suite/revisions
 * The protocol revisions the suite speaks, and the sets of revisions a case applies to. A case
 * lists its revisions explicitly, so `protocol-suite.test.ts` filters instead of skipping.
 */

/** Oldest first. The first four are the legacy era (initialize + session); the last is modern. */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

export type Revision = (typeof REVISIONS)[number];

export const MODERN_REVISION = '2026-07-28' satisfies Revision;

export const LEGACY: readonly Revision[] = REVISIONS.filter((rev) => rev !== MODERN_REVISION);
export const MODERN: readonly Revision[] = [MODERN_REVISION];
export const ALL: readonly Revision[] = REVISIONS;

export function isModern(rev: Revision): boolean {
  return rev === MODERN_REVISION;
}

/** Legacy revisions from `first` on (dates compare as strings). */
export function legacyFrom(first: Revision): readonly Revision[] {
  return LEGACY.filter((rev) => rev >= first);
}

/**
 * 2024-11-05 and 2025-03-26 predate the `MCP-Protocol-Version` header, so real clients of those
 * revisions send it at most on some requests; the suite's default client for them sends none, and
 * the cases where it matters run both ways. From 2025-06-18 the header is a MUST on every request.
 */
export function sendsVersionHeader(rev: Revision): boolean {
  return rev >= '2025-06-18';
}

/** The client capabilities a client of `rev` declares to accept form elicitation. */
export function elicitationCapability(rev: Revision): Record<string, unknown> {
  return rev >= '2025-11-25' ? { elicitation: { form: {} } } : { elicitation: {} };
}
