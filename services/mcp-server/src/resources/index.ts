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
import { paginateList, type ResourceContext } from '@mcp-workshop/mcp-host/kit';
import type { McpServer } from '@modelcontextprotocol/server';
import type { ToolDeps, WorkshopEnv } from '../deps.js';
import { registerAdrResources } from './adr.js';
import { registerCityResources } from './cities.js';
import { installResourceSubscriptions } from './subscriptions.js';
import { registerTodoResources } from './tasks.js';
import { registerViewResources, type ViewOptions, weatherViewDomains } from './views.js';

export interface ResourceRegistrationOptions {
  /** The ADR folder; defaults to the repository's `adr/`. Tests point it at a temporary folder. */
  adrDir?: string;
  /** The MCP Apps views: where they are built, and the weather view's allowed origins (default: from the settings). */
  views?: ViewOptions;
}

/** Registers every resource on one server instance: the catalogue's `resources` hook. */
export function registerResources(
  server: McpServer,
  context: ResourceContext<
    ToolDeps,
    Pick<WorkshopEnv, 'WEATHER_PROVIDER' | 'OPEN_METEO_GEOCODING_URL' | 'OPEN_METEO_FORECAST_URL'>
  >,
  options: ResourceRegistrationOptions = {},
): void {
  const { deps, env, pageSize } = context;
  // McpServer handles resources/list and /read itself but leaves subscribe to us; declare both.
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  registerTodoResources(server, deps);
  registerCityResources(server);
  registerAdrResources(server, { dir: options.adrDir });
  // The weather view's CSP names Open-Meteo only when that provider answers.
  registerViewResources(
    server,
    options.views ?? {
      weatherConnectDomains: weatherViewDomains({
        provider: env.WEATHER_PROVIDER,
        geocodingUrl: env.OPEN_METEO_GEOCODING_URL,
        forecastUrl: env.OPEN_METEO_FORECAST_URL,
      }),
    },
  );
  installResourceSubscriptions(server, deps);
  paginateList(server, 'resources/list', pageSize);
  paginateList(server, 'resources/templates/list', pageSize);
}
