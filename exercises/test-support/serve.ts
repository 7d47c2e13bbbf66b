/**
 * @module test-support/serve
 * Serves exercise tools over HTTP the way the workshop server is served: a catalogue holding only
 * those tools, with the workshop catalogue's settings and services (the to-do list and MCP Tasks
 * in a SQLite database under `dataDir`), started by the host's `startCatalogue` on a free port.
 */
import { defineCatalogue } from '@mcp-workshop/mcp-host/kit';
import { type LocalCatalogue, type LocalCatalogueOptions, startCatalogue } from '@mcp-workshop/mcp-host/run';
import workshop, { SERVER_VERSION, type ToolDeps, type WorkshopTool } from '@mcp-workshop/mcp-server';

type WorkshopShape = NonNullable<(typeof workshop)['env']>;

export type ServedTools = LocalCatalogue<WorkshopShape, ToolDeps>;

export interface ServeToolsOptions extends Omit<LocalCatalogueOptions, 'env'> {
  /** Where the to-do list and the MCP Tasks are kept; a second server on it sees the same data. */
  dataDir: string;
}

/** `tools` served on 127.0.0.1; `deps` are the ones they run with. Always `await close()`. */
export function serveTools(
  name: string,
  tools: readonly WorkshopTool[],
  options: ServeToolsOptions,
): Promise<ServedTools> {
  const { dataDir, ...hostOptions } = options;
  const catalogue = defineCatalogue({
    name,
    version: SERVER_VERSION,
    env: workshop.env as WorkshopShape,
    services: workshop.services,
    tools,
    // The tools' own scopes, and the workshop's list of those it understands.
    ...(workshop.scopes && { scopes: workshop.scopes }),
  });
  return startCatalogue(catalogue, { ...hostOptions, env: { DATA_DIR: dataDir } });
}
