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
 * The owner of a request without a token (stdio, or HTTP with sign-in off): everybody's one shared
 * data, as a server without users has.
 */
export const SHARED_OWNER = '';

/**
 * Whose data a request reads and writes: the token's subject, else its client id (a
 * client-credentials token may carry no `sub`), else the shared list when nobody signed in.
 * The prefixes keep a client id from ever naming the same list as a subject of that spelling.
 */
export function ownerOf(authInfo: AuthInfo | undefined): string {
  if (!authInfo) return SHARED_OWNER;
  const sub = authInfo.extra?.sub;
  const owner =
    typeof sub === 'string' && sub !== '' ? `sub:${sub}` : `client:${authInfo.clientId || 'unknown'}`;
  return owner.slice(0, MAX_OWNER_LENGTH);
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
