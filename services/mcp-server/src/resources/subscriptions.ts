/**
 * @module resources/subscriptions
 * `resources/subscribe` and `resources/unsubscribe` for 2025-era connections, and the bridge from
 * task writes (`deps.todoEvents`) to `notifications/resources/updated` and
 * `notifications/resources/list_changed` on this server instance's connection.
 *
 * Listeners go on `todoEvents` only for connections that can receive something: the `updated`
 * listener on the first subscribe, the `listChanged` one once the client sends
 * `notifications/initialized`. 2026-07-28 instances are built per request and see neither, so
 * they never add a listener (their clients use `subscriptions/listen`, which the HTTP endpoint
 * feeds through `owner-bus.ts`). Every listener comes off when the connection closes.
 *
 * A session hears only about its own owner's tasks: the owner is taken from the token that sent
 * `initialize` (the HTTP layer pins a session to that subject), and every task event names its
 * owner. Subscribing to a task needs `tasks:read` on the request's own token and the task must be
 * the caller's; anything else is "no such resource", so subscribing cannot probe other users' ids.
 * Test: `subscriptions.test.ts`, `subscriptions.http.test.ts`.
 */

import { ownerOf } from '@mcp-workshop/mcp-host/caller';
import { wrapInstalledHandler } from '@mcp-workshop/mcp-host/kit';
import type { Todo } from '@mcp-workshop/task-store';
import { EVERY_OWNER } from '@mcp-workshop/task-store';
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import type { ToolDeps } from '../deps.js';
import { parseSlug } from './adr.js';
import { CITIES_URI } from './cities.js';
import { ALL_TODOS_URI, parseTodoId, todoReader, todoUri } from './tasks.js';

/** Bounds one session's subscription set against a client that subscribes in a loop. */
export const MAX_SUBSCRIPTIONS = 1_000;

/** The longest URI a subscription may name; real ones are a few dozen characters. */
const MAX_URI_LENGTH = 2_048;

/**
 * Whether a client may subscribe to `uri`. This folder's own schemes are checked strictly (a task
 * that exists, `tasks://all`, `cities://all`, a well-formed ADR slug), so the set only holds URIs
 * a notification could be sent for. Resources registered elsewhere (through `createMcpServer`'s
 * `extend`, e.g. the conformance fixtures' `test://watched-resource`) use other schemes: any
 * well-formed URI is accepted for them, since such a resource never changes and nothing is ever
 * sent for it. A task must be `owner`'s.
 */
async function isSubscribable(uri: string, deps: ToolDeps, owner: string): Promise<boolean> {
  if (uri === ALL_TODOS_URI || uri === CITIES_URI) return true;
  const [, scheme, rest = ''] = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(uri) ?? [];
  switch (scheme?.toLowerCase()) {
    case 'tasks': {
      const id = parseTodoId(rest);
      return id !== undefined && (await deps.todos.get(owner, id)) !== undefined;
    }
    case 'adr':
      return parseSlug(rest) !== undefined;
    case 'cities':
      return false;
    default:
      return uri.length <= MAX_URI_LENGTH && URL.canParse(uri);
  }
}

export function installResourceSubscriptions(server: McpServer, deps: ToolDeps): void {
  const { todoEvents, logger } = deps;
  const subscribed = new Set<string>();
  let watchingUpdates = false;
  let watchingList = false;
  /** Whose tasks this session hears about; unknown (nothing is sent) until `initialize` is served. */
  let sessionOwner: string | undefined;
  const concerns = (owner: string | typeof EVERY_OWNER) => owner === EVERY_OWNER || owner === sessionOwner;

  const sendUpdated = (uri: string) => {
    if (!subscribed.has(uri) || !server.isConnected()) return;
    server.server
      .sendResourceUpdated({ uri })
      .catch((error: unknown) => logger.debug({ err: error, uri }, 'could not send resources/updated'));
  };
  const onUpdated = (task: Todo, owner: string) => {
    if (!concerns(owner)) return;
    sendUpdated(todoUri(task.id));
    sendUpdated(ALL_TODOS_URI);
  };
  const onListChanged = (owner: string | typeof EVERY_OWNER) => {
    if (!concerns(owner) || !server.isConnected()) return;
    server.server
      .sendResourceListChanged()
      .catch((error: unknown) => logger.debug({ err: error }, 'could not send resources/list_changed'));
    // An added or deleted task changes what tasks://all reads, too.
    sendUpdated(ALL_TODOS_URI);
  };

  const watchUpdates = (on: boolean) => {
    if (on === watchingUpdates) return;
    watchingUpdates = on;
    if (on) todoEvents.on('updated', onUpdated);
    else todoEvents.off('updated', onUpdated);
  };
  const watchList = (on: boolean) => {
    if (on === watchingList) return;
    watchingList = on;
    if (on) todoEvents.on('listChanged', onListChanged);
    else todoEvents.off('listChanged', onListChanged);
  };

  // `notifications/initialized` carries no auth info, so the owner is read from `initialize` itself.
  wrapInstalledHandler(server, 'initialize', (request, ctx, original) => {
    sessionOwner = ownerOf(ctx.http?.authInfo);
    return original(request, ctx);
  });

  server.server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const { uri } = request.params;
    // Like resources/read: tasks:read on this request's own token, and only the caller's tasks.
    const owner = /^tasks:/i.test(uri) ? todoReader(uri, ctx) : ownerOf(ctx.http?.authInfo);
    if (!(await isSubscribable(uri, deps, owner))) {
      throw new ResourceNotFoundError(
        uri,
        `Cannot subscribe to ${uri}: no such resource. See resources/list.`,
      );
    }
    if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIPTIONS) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `At most ${MAX_SUBSCRIPTIONS} subscriptions per session: unsubscribe from some first.`,
      );
    }
    subscribed.add(uri);
    watchUpdates(true);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    if (subscribed.size === 0) watchUpdates(false);
    return {};
  });

  // Chained, not replaced: whoever builds the server may hook these too.
  const previousOnInitialized = server.server.oninitialized;
  server.server.oninitialized = () => {
    previousOnInitialized?.();
    watchList(true);
  };
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    previousOnClose?.();
    subscribed.clear();
    watchUpdates(false);
    watchList(false);
  };
}
