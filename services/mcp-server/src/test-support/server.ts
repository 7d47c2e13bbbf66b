/**
 * @module test-support/server
 * Builds one server instance of this catalogue around the deps a test hands it, the way the host
 * does (`createCatalogueServer` of the kit), without starting anything: the tests' `createMcpServer`.
 */
import { createCatalogueServer, type RegisterContext } from '@mcp-workshop/mcp-host/kit';
import { loadRunEnv } from '@mcp-workshop/mcp-host/run';
import type { TaskRuntime } from '@mcp-workshop/mcp-host/tasks';
import type { McpServer } from '@modelcontextprotocol/server';
import catalogue from '../catalogue.js';
import type { ToolDeps } from '../deps.js';
import { registerResources } from '../resources/index.js';
import type { ViewOptions } from '../resources/views.js';
import type { WorkshopSkills } from '../skills/catalogue.js';

export interface TestServerOptions {
  /** Items per page of every list. */
  pageSize?: number;
  /** The skills folder, loaded; without it no skill is served. */
  skills?: Pick<WorkshopSkills, 'attach'>;
  /** Says the lists may change while connected, as under `pnpm dev`. */
  listChanged?: boolean;
  /** An MCP Tasks runtime for the tools that declare `task`. */
  runs?: TaskRuntime;
  /** The MCP Apps views' folder and allowed origins, instead of those the settings give. */
  views?: ViewOptions;
  /** Registers more on the instance after the catalogue's own items, as a catalogue's `extend` does. */
  extend?: (server: McpServer) => void;
  /** Settings as the environment would give them (the catalogue's defaults otherwise). */
  env?: Record<string, string>;
}

export function createMcpServer(deps: ToolDeps, options: TestServerOptions = {}): McpServer {
  const context: RegisterContext<ToolDeps> = { deps, logger: deps.logger, runs: options.runs };
  const skills = options.skills;
  const { views, extend } = options;
  const served: typeof catalogue = {
    ...catalogue,
    ...(views && { resources: (server, context) => registerResources(server, context, { views }) }),
    ...(extend && { extend }),
  };
  return createCatalogueServer(
    served,
    { deps, ...(skills && { attach: (server: McpServer) => skills.attach(server) }) },
    context,
    {
      env: loadRunEnv(catalogue.env, options.env ?? {}),
      ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
      ...(options.listChanged !== undefined && { listChanged: options.listChanged }),
    },
  );
}
