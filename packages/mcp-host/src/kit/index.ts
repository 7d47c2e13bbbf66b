/**
 * @module kit
 * `@mcp-workshop/mcp-host/kit`: what a catalogue is written with. `defineCatalogue` makes the one
 * value a catalogue exports; `toolKit` binds `defineTool` to the catalogue's deps; the prompt
 * helpers keep prompt errors to the spec; the schema helpers and pagination are shared by every
 * item. The runner (`@mcp-workshop/mcp-host/run`) serves what this builds.
 */

export { cacheJsonSchema, lazyJsonSchema } from './cached-schema.js';
export type {
  Catalogue,
  CatalogueContext,
  CatalogueDefinition,
  CataloguePrompt,
  CatalogueServices,
  CatalogueTool,
  RegisterContext,
  ResourceContext,
  TaskBackend,
} from './catalogue.js';
export { defineCatalogue, isCatalogue, taskWorksOf } from './catalogue.js';
export { invalidArgument, promptCaller, promptText, runPrompt, safeCompletions } from './define-prompt.js';
export type {
  DefinedTool,
  FailResult,
  RunContext,
  TaskToolSpec,
  ToolContext,
  ToolSpec,
  ToolUi,
} from './define-tool.js';
export { defineTool, missingScopesMessage, toolKit } from './define-tool.js';
export type { Page } from './pagination.js';
export { DEFAULT_PAGE_SIZE, paginate, paginateList } from './pagination.js';
export { portableJsonSchema } from './portable-schema.js';
export type { CompletionCaller } from './request-caller.js';
export { completionCaller, installCompletionCaller, wrapInstalledHandler } from './request-caller.js';
export { REQUIRED_SCOPES_META_KEY } from './scopes.js';
export type { CatalogueServerOptions } from './server.js';
export { cataloguePolicy, createCatalogueServer, MAX_TOOL_INPUT_ELEMENTS } from './server.js';
