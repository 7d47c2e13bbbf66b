/**
 * @module test-support/workshop
 * The fixture every test here hosts: the workshop catalogue, through its package
 * (`@mcp-workshop/mcp-server`'s default export, one `defineCatalogue` value), never its sources by
 * path, put together with the host by the host's own runner (`@mcp-workshop/mcp-host/run`). Every
 * import of the catalogue and of the runner goes through this one file, so a change to how a
 * catalogue is handed to the host is one edit here.
 */

import type { Readiness } from '@mcp-workshop/mcp-host';
import { cataloguePolicy } from '@mcp-workshop/mcp-host/kit';
import type { Logger } from '@mcp-workshop/mcp-host/logger';
import {
  type LocalCatalogueOptions,
  loadRunEnv,
  type PreparedCatalogue,
  prepareCatalogue,
  startCatalogue,
} from '@mcp-workshop/mcp-host/run';
import catalogue, { type ToolDeps, type WorkshopEnv } from '@mcp-workshop/mcp-server';

export { REQUIRED_SCOPES_META_KEY } from '@mcp-workshop/mcp-host/kit';
export { prompts, TASKS_READ, TASKS_WRITE, tools } from '@mcp-workshop/mcp-server';
export type { ToolDeps, WorkshopEnv };

/** The catalogue's and the host's settings from `settings` (as the environment would give them) and their defaults. */
export function loadWorkshopEnv(settings: Record<string, string | undefined>): WorkshopEnv {
  return loadRunEnv(catalogue.env, settings);
}

/** The workshop put together with the host, as `node dist/index.js` does before it listens. */
export interface PreparedWorkshop {
  /** What the catalogue's tools get: the to-do list, its events, the weather. */
  deps: ToolDeps;
  /** What `startHttpHost` needs from the catalogue. */
  hostOptions: PreparedCatalogue<ToolDeps>['hostOptions'];
  /** The MCP Tasks runtime over the catalogue's task backend. */
  runtime: PreparedCatalogue<ToolDeps>['runtime'];
  /** Opens the catalogue's database, as a server does once it listens. */
  open(): Promise<void>;
  /** What `GET /health/ready` reports. */
  checkReady(): Promise<Readiness>;
  /** Stops the tasks, then closes the database. */
  close(): Promise<void>;
}

/** Prepares the workshop on `settings`: its services (not opened yet), its task runtime and what the host needs. */
export function prepareWorkshop(
  settings: Record<string, string | undefined>,
  logger: Logger,
): PreparedWorkshop {
  const prepared = prepareCatalogue(catalogue, { env: loadWorkshopEnv(settings), logger });
  const { services } = prepared;
  return {
    deps: services.deps,
    hostOptions: () => prepared.hostOptions(),
    runtime: prepared.runtime,
    open: async () => services.open?.(),
    checkReady: async () => (await services.checkReady?.()) ?? { ready: true, checks: {} },
    close: () => prepared.close(),
  };
}

/** Starts the workshop on 127.0.0.1 in this process, its services open (`startCatalogue`). */
export function startWorkshop(options: LocalCatalogueOptions) {
  return startCatalogue(catalogue, options);
}

/** A workshop `startWorkshop` started. */
export type LocalWorkshop = Awaited<ReturnType<typeof startWorkshop>>;

/** The scopes the catalogue's tools, prompts and `tasks://` resources need, as its own start hands them to the host. */
export function workshopPolicy() {
  return cataloguePolicy(catalogue);
}
