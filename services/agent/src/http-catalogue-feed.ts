/**
 * @module http-catalogue-feed
 * `GET /api/catalogue/events`: a server-sent event stream that keeps the chat page in step with its
 * MCP servers, pushed as it happens instead of polled. On opening it sends `tools` (what the model
 * can call now) and a `dev` event for each server that offers a dev status; then, as a server
 * announces `list_changed`:
 * - tools: the hub lists again, and the stream sends `tools`, then that server's `dev` status
 *   (a reloading dev server announces each save, good or failed, and each type check's verdict);
 * - resources: `views_changed`, so the page can say a view it drew has changed since.
 * `dev` is `{ server, status }`, `status` null once the server has nothing to report (or offers no
 * dev status at all: `mcp/dev-status.ts`). Partner: `web/src/catalogue-feed.ts`.
 */
import type { RequestHandler } from 'express';
import { openEventStream } from './event-stream.js';
import type { Logger } from './logger.js';
import { type DevStatus, readDevStatus } from './mcp/dev-status.js';
import type { ListChange } from './mcp/hub.js';
import type { McpHub, ServerInfo } from './types.js';

/** A comment line now and then, so a proxy or the browser does not close an idle stream. */
const KEEPALIVE_MS = 25_000;

/** What the feed needs of the hub: the hub's own `onListChanged`, when it has one. */
export type FeedHub = McpHub & { onListChanged?: (listener: (change: ListChange) => void) => () => void };

export interface CatalogueFeedOptions {
  hub: () => FeedHub;
  logger: Logger;
  /** Reads a server's dev status; the default asks its `/health` (`mcp/dev-status.ts`). */
  readDevStatus?: (server: ServerInfo) => Promise<DevStatus | undefined>;
}

/** The route handler; mount it behind the same access checks and `whenReady` as `/api/tools`. */
export function catalogueFeed(options: CatalogueFeedOptions): RequestHandler {
  const readStatus =
    options.readDevStatus ?? ((server: ServerInfo) => readDevStatus(server.name, server.target));
  return (_req, res) => {
    const hub = options.hub();
    const { send, signal } = openEventStream(res);
    const sendDev = async (server: ServerInfo) => {
      const status = await readStatus(server);
      if (signal.aborted) return;
      const problems = status && (status.failedSave || status.typeErrors.count > 0);
      send('dev', { server: server.name, status: problems ? status : null });
    };
    // One change at a time, in the order they came: the page sees the lists as they were announced.
    let queue: Promise<void> = Promise.resolve();
    const later = (work: () => Promise<void>) => {
      queue = queue.then(work).catch((error: unknown) => {
        options.logger.warn({ err: error }, 'the catalogue feed could not follow a change');
      });
    };
    const stop = hub.onListChanged?.((change) =>
      later(async () => {
        const server = hub.servers().find((info) => info.name === change.server);
        if (change.kind === 'resources') {
          send('views_changed', { server: change.server });
          return;
        }
        // The first waits for a listing already under way; the second lists what was announced during it.
        await hub.refresh();
        await hub.refresh();
        if (signal.aborted) return;
        send('tools', { tools: hub.tools() });
        if (server) await sendDev(server);
      }),
    );
    later(async () => {
      send('tools', { tools: hub.tools() });
      await Promise.all(hub.servers().map(sendDev));
    });
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    signal.addEventListener('abort', () => {
      clearInterval(keepalive);
      stop?.();
    });
  };
}
