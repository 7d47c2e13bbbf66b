/**
 * @module hosted
 * What this catalogue hands a host (`@mcp-workshop/mcp-host`): how to build a server, its name,
 * its change feed for 2026-07-28 listen streams, its readiness, and the scopes its tools, prompts
 * and resources need. `index.ts`, `local-server.ts` and the HTTP tests all hand over the same.
 */
import type { AppOptions, ScopePolicy } from '@mcp-workshop/mcp-host';
import type { HostTelemetry } from '@mcp-workshop/mcp-host/telemetry';
import type { ServerDeps } from './deps.js';
import type { ServerEnv } from './env.js';
import { prompts } from './prompts/index.js';
import { publishTaskChanges } from './resources/publish.js';
import { weatherViewDomains } from './resources/views.js';
import { scopePolicy } from './scopes.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import { tools } from './tools/index.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

export type HostedCatalogue = Pick<
  AppOptions,
  'buildServer' | 'info' | 'publishEvents' | 'checkReady' | 'tasks'
>;

export function hostedCatalogue(deps: ServerDeps, options: McpServerOptions = {}): HostedCatalogue {
  return {
    // The deps' skills, loaded once before serving; a caller's own `skills` option wins (tests).
    buildServer: () => createMcpServer(deps, { skills: deps.skills, ...options }),
    info: { name: SERVER_NAME, version: SERVER_VERSION },
    // Notifications come from the same emitter the task store announces on.
    publishEvents: (bus) => publishTaskChanges(deps.taskEvents, bus),
    checkReady: deps.checkReady,
    // MCP Tasks: every instance serves tasks/get, tasks/update and tasks/cancel from the deps' runtime.
    tasks: deps.runs,
  };
}

/** The catalogue's settings from a validated environment: what `node dist/index.js` and `pnpm dev` serve with. */
export function catalogueOptions(env: ServerEnv, telemetry?: HostTelemetry): McpServerOptions {
  return {
    pageSize: env.MCP_PAGE_SIZE,
    ...(telemetry && { telemetry }),
    // The weather view's CSP names Open-Meteo only when that provider answers.
    views: {
      weatherConnectDomains: weatherViewDomains({
        provider: env.WEATHER_PROVIDER,
        geocodingUrl: env.OPEN_METEO_GEOCODING_URL,
        forecastUrl: env.OPEN_METEO_FORECAST_URL,
      }),
    },
  };
}

/** Each tool and prompt says in its own file which scopes it needs; `tasks://` needs `tasks:read`. */
export function cataloguePolicy(): ScopePolicy {
  return scopePolicy(tools, prompts);
}
