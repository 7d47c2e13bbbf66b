/**
 * @module kit/catalogue
 * A catalogue is one value: its tools, prompts and resources, the settings it reads, and how to
 * build what its tools use. `defineCatalogue` checks it and hands it back; the host's runner
 * (`@mcp-workshop/mcp-host/run`) serves it over HTTP or stdio, `pnpm dev` reloads it, and tests
 * start it in-process, all from this one contract. `createCatalogueServer` builds one MCP server
 * instance from it: the transports call it per session, per request or per stdio connection.
 */

import type { TaskQueue, TaskStorage } from '@mcp-workshop/shared/tasks-port';
import type { McpServer, ServerOptions } from '@modelcontextprotocol/server';
import type { Readiness } from '../http/app.js';
import type { OwnerEventBus } from '../http/owner-bus.js';
import type { Logger } from '../logger.js';
import type { EnvShape, RunEnv } from '../run/env.js';
import type { TaskRuntime, TaskWork } from '../tasks/runtime.js';
import type { HostTelemetry } from '../telemetry/types.js';

/** What a catalogue's `services` are built from, once per process. */
export interface CatalogueContext<Env> {
  env: Env;
  logger: Logger;
  /** Set only when OTEL_EXPORTER_OTLP_ENDPOINT is: child spans and a traced `fetch`. */
  telemetry?: HostTelemetry | undefined;
  /** The clock, when a test fixes it. */
  now?: (() => Date) | undefined;
}

/** Where a catalogue keeps its MCP Tasks: the host runs tools that declare `task` on it. */
export interface TaskBackend {
  storage: TaskStorage;
  queue: TaskQueue;
  /** Where the storage announces changes, from this process or any replica. */
  changes?: (listener: (id: string, owner: string) => void) => () => void;
}

/**
 * What a catalogue builds once per process and keeps across reloads: the dependencies its tools
 * get (`deps`), and the hooks the host calls around serving.
 */
export interface CatalogueServices<Deps> {
  deps: Deps;
  /** Read before the first server is built (skills, say), and again when `pnpm dev` sees them change. */
  load?(): Promise<void>;
  /** Opened in the background once serving; an `EnvError` stops the server, anything else is retried on use. */
  open?(): Promise<void>;
  /** Whether what the catalogue needs answers right now, for `GET /health/ready`. Never rejects. */
  checkReady?(): Promise<Readiness>;
  /** Its MCP Tasks' storage and queue. Absent, tools that declare `task` answer every call at once. */
  tasks?: TaskBackend;
  /** Feeds resource notifications to 2026-07-28 listen streams; returns how to stop. */
  publishEvents?(bus: OwnerEventBus): () => void;
  /** Serves per-connection extras (skills) on one new server instance. */
  attach?(server: McpServer): void;
  /** Where its data lives, for the start-up line: never a password. */
  describe?(): Record<string, string>;
  /** Closes what `services` opened; the host calls it last. */
  close?(): Promise<void>;
}

/** What registering an item on one server instance gets. */
export interface RegisterContext<Deps> {
  deps: Deps;
  logger: Logger;
  /** The host's MCP Tasks runtime, when the catalogue has a task backend. */
  runs: TaskRuntime | undefined;
}

/** A tool as a catalogue lists it (`defineTool` makes one). */
export interface CatalogueTool<Deps> {
  readonly name: string;
  /** OAuth scopes a call needs when sign-in is on; empty for none. */
  readonly scopes: readonly string[];
  register(server: McpServer, context: RegisterContext<Deps>): void;
  /** The work the task runtime runs for a call that became an MCP Task; only tools that declare `task`. */
  taskWork?(context: RegisterContext<Deps>): TaskWork;
}

/** A prompt as a catalogue lists it (`definePrompt` makes one). */
export interface CataloguePrompt<Deps> {
  readonly name: string;
  readonly scopes: readonly string[];
  register(server: McpServer, context: RegisterContext<Deps>): void;
}

/** What a catalogue's `resources` hook is handed for one server instance. */
export interface ResourceContext<Deps, Env> extends RegisterContext<Deps> {
  env: Env;
  /** Items per page of resources/list and resources/templates/list. */
  pageSize: number;
}

export interface CatalogueDefinition<Shape extends EnvShape, Deps> {
  /** The server's name and version in `initialize`. */
  name: string;
  version: string;
  title?: string;
  /** Shown to the model by clients that pass server instructions on. */
  instructions?: string;
  /** The catalogue's own settings, read and checked with the host's (`@mcp-workshop/mcp-host/run`). */
  env?: Shape;
  /** Builds the dependencies and hooks, once per process; every reload keeps them. */
  services(context: CatalogueContext<RunEnv<Shape>>): CatalogueServices<Deps>;
  tools: readonly CatalogueTool<Deps>[];
  prompts?: readonly CataloguePrompt<Deps>[];
  /** Registers the resources (and their subscriptions) on one server instance. */
  resources?(server: McpServer, context: ResourceContext<Deps, RunEnv<Shape>>): void;
  /**
   * The OAuth scopes the catalogue understands, published in its protected-resource metadata, and
   * those each resource URI scheme needs (`{ tasks: ['tasks:read'] }`). Tools and prompts say their own.
   */
  scopes?: { supported: readonly string[]; resourceSchemes?: Readonly<Record<string, readonly string[]>> };
  /**
   * Registers more on each instance, after the lists and before `tools/list` is paged: what is not
   * a `defineTool` (the conformance suite's fixtures). `taskWorks` gives the task work of such items.
   */
  extend?(server: McpServer, context: RegisterContext<Deps>): void;
  taskWorks?(context: RegisterContext<Deps>): Iterable<readonly [string, TaskWork]>;
  /** The SDK's check of every echoed 2026-07-28 `requestState` (see the SDK's `ServerOptions`). */
  requestState?: ServerOptions['requestState'];
}

/** A checked catalogue: what the runner, `pnpm dev` and the tests take. */
export type Catalogue<Shape extends EnvShape = EnvShape, Deps = unknown> = Readonly<
  CatalogueDefinition<Shape, Deps>
> & { readonly kind: 'mcp-workshop/catalogue' };

/** Names a client sees twice, in one list. */
function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
}

/**
 * Checks a catalogue once, when its module loads: a tool or prompt listed twice is a mistake
 * the SDK would only report at the first connection, so it throws now, naming the item.
 */
export function defineCatalogue<Shape extends EnvShape = Record<never, never>, Deps = unknown>(
  definition: CatalogueDefinition<Shape, Deps>,
): Catalogue<Shape, Deps> {
  const tools = duplicates(definition.tools.map((tool) => tool.name));
  const prompts = duplicates((definition.prompts ?? []).map((prompt) => prompt.name));
  if (tools.length > 0) throw new Error(`The catalogue lists the tool ${tools.join(', ')} twice.`);
  if (prompts.length > 0) throw new Error(`The catalogue lists the prompt ${prompts.join(', ')} twice.`);
  return Object.freeze({ ...definition, kind: 'mcp-workshop/catalogue' as const });
}

/** Whether `value` is what `defineCatalogue` returns: a module's default export is checked with it. */
export function isCatalogue(value: unknown): value is Catalogue {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'mcp-workshop/catalogue'
  );
}

/** The task work of every tool (and extra item) that can run as an MCP Task: the runtime's map. */
export function taskWorksOf<Deps>(
  catalogue: Catalogue<EnvShape, Deps>,
  context: RegisterContext<Deps>,
): Map<string, TaskWork> {
  const works = new Map<string, TaskWork>();
  for (const tool of catalogue.tools) {
    if (tool.taskWork) works.set(tool.name, tool.taskWork(context));
  }
  for (const [name, work] of catalogue.taskWorks?.(context) ?? []) works.set(name, work);
  return works;
}
