/**
 * @module catalogue-feed
 * Follows `GET /api/catalogue/events` (the agent's `src/http-catalogue-feed.ts`): the tools as each
 * server announces a change, a dev server's status (a failed save, type errors) for the banner,
 * and `views_changed` when a server's views change. The browser's EventSource reconnects by itself
 * after a dropped connection; one the agent refused (it restarted and is not ready yet) is opened
 * again after a pause.
 */
import type { DevStatus, Tool } from './types.js';

/** How long to wait before opening the feed again after the agent refused it. */
const REOPEN_MS = 2_000;

export interface CatalogueHandlers {
  tools(tools: Tool[]): void;
  dev(server: string, status: DevStatus | null): void;
  viewsChanged(server: string): void;
}

export function followCatalogue(handlers: CatalogueHandlers): void {
  const source = new EventSource('./api/catalogue/events');
  const on = <T>(event: string, handle: (data: T) => void) =>
    source.addEventListener(event, (message) =>
      handle(JSON.parse((message as MessageEvent<string>).data) as T),
    );
  on<{ tools: Tool[] }>('tools', (data) => handlers.tools(data.tools));
  on<{ server: string; status: DevStatus | null }>('dev', (data) => handlers.dev(data.server, data.status));
  on<{ server: string }>('views_changed', (data) => handlers.viewsChanged(data.server));
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED) return;
    setTimeout(() => followCatalogue(handlers), REOPEN_MS);
  });
}
