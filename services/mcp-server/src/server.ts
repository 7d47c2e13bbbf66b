/**
 * @module server
 * `createMcpServer()` builds one MCP server instance with every workshop tool, resource and
 * prompt registered. It does no I/O of its own: the transports (HTTP sessions, the 2026-07-28
 * handler, stdio, the in-process client behind `POST /tools/:name`) each call it and connect
 * the instance they get. Task data is read per caller: handlers take the owner and scopes from
 * the request's own auth info, and completions from `server/request-caller.ts`.
 */

import type { HostTelemetry } from '@mcp-workshop/mcp-host/telemetry';
import { McpServer, type ServerOptions } from '@modelcontextprotocol/server';
import { registerPrompts } from './prompts/index.js';
import { registerResources } from './resources/index.js';
import type { ViewOptions } from './resources/views.js';
import { DEFAULT_PAGE_SIZE, paginateList } from './server/pagination.js';
import { installCompletionCaller } from './server/request-caller.js';
import type { WorkshopSkills } from './skills/catalogue.js';
import type { ToolDeps } from './tools/deps.js';
import { tools } from './tools/index.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';
import { CITIES } from './weather/cities.js';

/** Caps the arguments of one call (array elements plus object members), against hostile payloads. */
export const MAX_TOOL_INPUT_ELEMENTS = 10_000;

export const SERVER_INSTRUCTIONS =
  `Workshop server with offline example tools: weather for ${CITIES.length} cities, arithmetic, time zones and a small task list. ` +
  'Results carry structuredContent (a JSON object) plus the same JSON as text; failures come back with isError: true.';

export interface McpServerOptions {
  /** The skills folder (`skills/catalogue.ts`), loaded before serving; `hostedCatalogue` passes the deps' own. */
  skills?: Pick<WorkshopSkills, 'attach'>;
  /** Items per page of tools/list, resources/list, resources/templates/list and prompts/list. */
  pageSize?: number;
  /**
   * Registers more items on each instance, after the catalogue's own and before completions learn
   * who asks and `tools/list` is paged, so they are listed, paged and completed like the catalogue's.
   * The catalogue itself never sets it: `dev/conformance-server` adds the conformance suite's fixtures here.
   */
  extend?: (server: McpServer, deps: ToolDeps) => void;
  /** With telemetry on: a span for every request this instance serves (`@mcp-workshop/mcp-host/telemetry`). */
  telemetry?: HostTelemetry;
  /**
   * The MCP Apps views' settings: their folder and the origins the weather view may reach
   * (`weatherViewDomains(...)`). Without it the views allow no outside origin.
   */
  views?: ViewOptions;
  /**
   * Says the lists may change while connected (`pnpm dev` reloads the catalogue on save, and the
   * host then sends list_changed); off, the tool list is fixed for the life of the process.
   */
  listChanged?: boolean;
  /**
   * The SDK's check of every echoed 2026-07-28 `requestState`, run before the handler; a hook that
   * throws answers -32602. The catalogue sets none: delete_task's state needs no integrity (its file
   * says why). `dev/conformance-server` sets one to refuse tampered fixture state, which a tool
   * handler cannot do itself (the SDK turns whatever it throws into an isError result).
   */
  requestState?: ServerOptions['requestState'];
}

export function createMcpServer(deps: ToolDeps, options: McpServerOptions = {}): McpServer {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'MCP Workshop Server' },
    {
      // listChanged is explicit: without a reloading host the tool list is fixed for the life of the process.
      capabilities: { tools: { listChanged: options.listChanged ?? false }, logging: {} },
      instructions: SERVER_INSTRUCTIONS,
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      ...(options.requestState && { requestState: options.requestState }),
    },
  );
  for (const tool of tools) tool.register(server, deps);
  registerResources(server, deps, { pageSize, ...(options.views && { views: options.views }) });
  options.skills?.attach(server);
  registerPrompts(server, deps, { pageSize, ...(options.listChanged && { listChanged: true }) });
  options.extend?.(server, deps);
  // After every completable: task id completions need to know who asks (see server/request-caller.ts).
  installCompletionCaller(server);
  paginateList(server, 'tools/list', pageSize);
  options.telemetry?.traceServer(server);
  return server;
}
