/**
 * @module server/request-caller
 * Who is asking, for the SDK callbacks that are not handed the request's context. Completions
 * (`completable` arguments, a resource template's `complete`) get only the typed value, yet task
 * id completions must list only the caller's own tasks and only with `tasks:read`; a 2025
 * session's `notifications/initialized` carries no auth info, yet its notifications must go only
 * to its owner. Both are reached by wrapping the handler the SDK installed, once per server
 * instance, from `../server.ts` and `../resources/subscriptions.ts`. Test: `request-caller.test.ts`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuthInfo, McpServer, ServerContext } from '@modelcontextprotocol/server';

/** The request being completed: its verified token, or undefined when sign-in is off. */
export interface CompletionCaller {
  authInfo: AuthInfo | undefined;
}

const completing = new AsyncLocalStorage<CompletionCaller>();

/**
 * The caller of the `completion/complete` request being served, or undefined outside one (a
 * server built without {@link installCompletionCaller}): callers then offer nothing, failing closed.
 */
export function completionCaller(): CompletionCaller | undefined {
  return completing.getStore();
}

type InstalledHandler = (request: unknown, ctx: ServerContext) => Promise<unknown>;

/**
 * Replaces the handler the SDK installed for `method` with `wrap` around it; false when there is
 * none. Reaching it needs the SDK's private handler map, as `pagination.ts` does; an SDK change
 * breaks the tests of both loudly.
 */
export function wrapInstalledHandler(
  server: McpServer,
  method: 'completion/complete' | 'initialize',
  wrap: (request: unknown, ctx: ServerContext, original: InstalledHandler) => Promise<unknown>,
): boolean {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, InstalledHandler> })
    ._requestHandlers;
  const original = handlers?.get(method);
  if (!original || !handlers) return false;
  handlers.set(method, (request, ctx) => wrap(request, ctx, original));
  return true;
}

/**
 * Makes {@link completionCaller} answer inside every completion this server serves. Call it after
 * the last completable is registered (the SDK installs its handler at the first one); a server
 * with nothing to complete has no handler, and needs none.
 */
export function installCompletionCaller(server: McpServer): void {
  wrapInstalledHandler(server, 'completion/complete', (request, ctx, original) =>
    completing.run({ authInfo: ctx.http?.authInfo }, () => original(request, ctx)),
  );
}
