/**
 * @module kit/server
 * Builds one MCP server instance from a catalogue: its tools, resources, prompts and extras
 * registered, lists paged, completions told who asks. It does no I/O of its own: the transports
 * (HTTP sessions, the 2026-07-28 handler, stdio, the in-process client behind `POST /tools/:name`)
 * each call it and connect the instance they get. `cataloguePolicy` is the catalogue's scopes,
 * as the HTTP layer checks them when sign-in is on.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { createScopePolicy, type ScopePolicy } from '../auth/policy.js';
import type { EnvShape, RunEnv } from '../run/env.js';
import type { HostTelemetry } from '../telemetry/types.js';
import type { Catalogue, CatalogueServices, RegisterContext } from './catalogue.js';
import { DEFAULT_PAGE_SIZE, paginateList } from './pagination.js';
import { installCompletionCaller } from './request-caller.js';

/** Caps the arguments of one call (array elements plus object members), against hostile payloads. */
export const MAX_TOOL_INPUT_ELEMENTS = 10_000;

export interface CatalogueServerOptions<Env> {
  env: Env;
  /** Items per page of every list. */
  pageSize?: number;
  /**
   * Says the lists may change while connected (`pnpm dev` reloads the catalogue on save, and the
   * host then sends list_changed); off, they are fixed for the life of the process.
   */
  listChanged?: boolean;
  /** With telemetry on: a span for every request this instance serves. */
  telemetry?: HostTelemetry | undefined;
}

export function createCatalogueServer<Shape extends EnvShape, Deps>(
  catalogue: Catalogue<Shape, Deps>,
  services: CatalogueServices<Deps>,
  context: RegisterContext<Deps>,
  options: CatalogueServerOptions<RunEnv<Shape>>,
): McpServer {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const listChanged = options.listChanged ?? false;
  const server = new McpServer(
    { name: catalogue.name, version: catalogue.version, ...(catalogue.title && { title: catalogue.title }) },
    {
      // listChanged is explicit: without a reloading host the tool list is fixed for the life of the process.
      capabilities: { tools: { listChanged }, logging: {} },
      ...(catalogue.instructions && { instructions: catalogue.instructions }),
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      ...(catalogue.requestState && { requestState: catalogue.requestState }),
    },
  );
  for (const tool of catalogue.tools) tool.register(server, context);
  catalogue.resources?.(server, { ...context, env: options.env, pageSize });
  services.attach?.(server);
  if (catalogue.prompts) {
    // Before the first registerPrompt: the SDK keeps a listChanged it finds and only defaults it to
    // true. The SDK also adds `completions` (and its handler) at the first completable argument;
    // declaring it here says so where the prompts are.
    server.server.registerCapabilities({ prompts: { listChanged }, completions: {} });
    for (const prompt of catalogue.prompts) prompt.register(server, context);
    paginateList(server, 'prompts/list', pageSize);
  }
  catalogue.extend?.(server, context);
  // After every completable: completions of per-user values need to know who asks (request-caller.ts).
  installCompletionCaller(server);
  paginateList(server, 'tools/list', pageSize);
  options.telemetry?.traceServer(server);
  return server;
}

/** The scopes each tool and prompt declares in its own file, and those of the catalogue's URI schemes. */
export function cataloguePolicy(
  catalogue: Pick<Catalogue, 'scopes'> & {
    tools: ReadonlyArray<{ name: string; scopes: readonly string[] }>;
    prompts?: ReadonlyArray<{ name: string; scopes: readonly string[] }> | undefined;
  },
): ScopePolicy {
  return createScopePolicy({
    supported: catalogue.scopes?.supported ?? [],
    tools: catalogue.tools,
    prompts: catalogue.prompts ?? [],
    resourceSchemes: catalogue.scopes?.resourceSchemes ?? {},
  });
}
