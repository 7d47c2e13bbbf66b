/**
 * @module auth/caller
 * Who is asking, as the code that reads data sees it: the owner of the tasks a request may touch,
 * and whether its token carries a scope. The HTTP layer checks scopes before a request reaches the
 * server (`auth/scopes.ts`); the task tools, resources, prompts and completions check again here,
 * through the request's own auth info, so a route that forgets the first check still cannot leak.
 * Pure functions. Test: `caller.test.ts`.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { MAX_OWNER_LENGTH } from '../tasks/store.js';
import { missingScopes } from './scopes.js';

/**
 * An owner is stored and sent between replicas; real subjects are far shorter. Defined beside the
 * task store, which bounds the column with it and must not import the auth layer (its crash tests
 * load it alone in a child process).
 */
export { MAX_OWNER_LENGTH };

/**
 * The owner of every task when sign-in is off (stdio, or HTTP without `MCP_AUTH_ISSUER`): one
 * shared list, as before tasks had owners.
 */
export const SHARED_OWNER = '';

/**
 * Whose tasks a request reads and writes: the token's subject, else its client id (a
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
