/**
 * @module lib
 * What other packages (the agent, exercises, tests) may import from the catalogue: its factories
 * and its tool contract, never the entry file. The hosting comes from `@mcp-workshop/mcp-host`;
 * `serveHttp` serves a catalogue from a validated environment as `node dist/index.js` does
 * (`dev/conformance-server` serves the catalogue with the conformance fixtures that way).
 */
export { createDeps } from './deps.js';
export type { ServerEnv } from './env.js';
export { DEFAULT_DATA_DIR, loadEnv } from './env.js';
export type { HostedCatalogue } from './hosted.js';
export { catalogueOptions, hostedCatalogue } from './hosted.js';
export type { LocalServer, LocalServerOptions } from './local-server.js';
export { startLocalServer } from './local-server.js';
export { publishTaskChanges } from './resources/publish.js';
export {
  REQUIRED_SCOPES_META_KEY,
  SCOPES_SUPPORTED,
  scopePolicy,
  TASKS_READ,
  TASKS_WRITE,
} from './scopes.js';
export type { ServeHttpOptions } from './serve.js';
export { exitWithError, serveHttp } from './serve.js';
export type { McpServerOptions } from './server.js';
export { createMcpServer } from './server.js';
export type { ToolContext, ToolSpec, WorkshopTool } from './tools/define-tool.js';
export { defineTool } from './tools/define-tool.js';
export type { ToolDeps } from './tools/deps.js';
export { tools } from './tools/index.js';
export { listCitiesSpec } from './tools/list-cities.js';
export { SERVER_NAME, SERVER_VERSION } from './version.js';
