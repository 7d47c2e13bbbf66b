/**
 * @module auth/caller
 * Who is asking, as the code that reads data sees it: the owner of the data a request may touch,
 * and whether its token carries a scope. The HTTP layer checks scopes before a request reaches the
 * server (`auth/scopes.ts`); a server's handlers check again here, through the request's own auth
 * info, so a route that forgets the first check still cannot leak. Pure functions: no express, so
 * a server imports them from `@mcp-workshop/mcp-host/caller` without loading the HTTP stack.
 * Test: `caller.test.ts`.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

/**
 * The longest owner `ownerOf` gives: a server stores owners and sends them between replicas, and
 * real subjects are far shorter. The workshop's task store bounds its column with the same number.
 */
export const MAX_OWNER_LENGTH = 512;

/**
 * The longest subject or client id a token may carry (the verifier refuses a longer one with 401):
 * with its `sub:` or `client:` prefix the owner still fits {@link MAX_OWNER_LENGTH}, so an owner is
 * never cut, and two users whose subjects differ only near the end never share data.
 */
export const MAX_IDENTITY_LENGTH = 500;

/**
 * The owner of a request without a token (stdio, or HTTP with sign-in off): everybody's one shared
 * data, as a server without users has.
 */
export const SHARED_OWNER = '';

/**
 * Whose data a request reads and writes: the token's subject, else its client id (a token
 * without `sub` from a host that let one through), else the shared list when nobody signed in.
 * The prefixes keep a client id from ever naming the same list as a subject of that spelling.
 * An identity is never cut or blank: the host's token check refuses an empty or over-long `sub`,
 * so a token that still has none of either is a bug here, and throws.
 */
export function ownerOf(authInfo: AuthInfo | undefined): string {
  if (!authInfo) return SHARED_OWNER;
  const sub = authInfo.extra?.sub;
  const owner =
    typeof sub === 'string' && sub !== ''
      ? `sub:${sub}`
      : authInfo.clientId
        ? `client:${authInfo.clientId}`
        : undefined;
  if (owner === undefined || owner.length > MAX_OWNER_LENGTH) {
    throw new Error(
      `A signed-in request needs a subject or client id of 1 to ${MAX_IDENTITY_LENGTH} characters; the token check should have refused this one.`,
    );
  }
  return owner;
}

/**
 * Whether the request may use something that needs `scopes`. No auth info means sign-in is off:
 * with it on, the HTTP layer lets no request through without a verified token.
 */
export function callerHasScopes(authInfo: AuthInfo | undefined, scopes: readonly string[]): boolean {
  return authInfo === undefined || missingScopes(scopes, authInfo.scopes).length === 0;
}

/** What `granted` lacks of `needed`. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}
