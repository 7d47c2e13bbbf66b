/**
 * @module resources
 * The one list of resources this server offers:
 *
 * - `tasks://all` and `tasks://{id}`: the task list, live (`tasks.ts`)
 * - `cities://all`: the offline weather cities (`cities.ts`)
 * - `adr://{slug}`: the project's architecture decision records (`adr.ts`)
 * - `ui://weather/forecast` and `ui://tasks/board`: the MCP Apps views (`views.ts`)
 *
 * plus `resources/subscribe`/`unsubscribe` and change notifications (`subscriptions.ts`).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { paginateList } from '../server/pagination.js';
import type { ToolDeps } from '../tools/deps.js';
import { registerAdrResources } from './adr.js';
import { registerCityResources } from './cities.js';
import { installResourceSubscriptions } from './subscriptions.js';
import { registerTaskResources } from './tasks.js';
import { registerViewResources, type ViewOptions } from './views.js';

export interface RegistrationOptions {
  pageSize: number;
}

export interface ResourceRegistrationOptions extends RegistrationOptions {
  /** The ADR folder; defaults to the repository's `adr/`. Tests point it at a temporary folder. */
  adrDir?: string;
  /** The MCP Apps views: where they are built, and the weather view's allowed origins. */
  views?: ViewOptions;
}

export function registerResources(
  server: McpServer,
  deps: ToolDeps,
  options: ResourceRegistrationOptions,
): void {
  // McpServer handles resources/list and /read itself but leaves subscribe to us; declare both.
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  registerTaskResources(server, deps);
  registerCityResources(server);
  registerAdrResources(server, { dir: options.adrDir });
  registerViewResources(server, options.views);
  installResourceSubscriptions(server, deps);
  paginateList(server, 'resources/list', options.pageSize);
  paginateList(server, 'resources/templates/list', options.pageSize);
}
