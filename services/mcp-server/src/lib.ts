/**
 * @module lib
 * What other packages (the agent, exercises, tests) may import from the server: the factories,
 * never the entry file.
 */
export { callerHasScopes, ownerOf, SHARED_OWNER } from './auth/caller.js';
export type { IssuerMetadata } from './auth/issuer.js';
export { discoverIssuer } from './auth/issuer.js';
export type { ScopePolicy } from './auth/scopes.js';
export { SCOPES_SUPPORTED, scopePolicy, TASKS_READ, TASKS_WRITE } from './auth/scopes.js';
export { createDeps } from './deps.js';
export type { ServerEnv } from './env.js';
export { DEFAULT_DATA_DIR, loadEnv } from './env.js';
export type { AppAuthOptions, AppOptions, WorkshopApp } from './http/app.js';
export { createApp, MAX_BODY_BYTES } from './http/app.js';
export type { InProcessConnection } from './in-process.js';
export { connectInProcess } from './in-process.js';
export type { LocalServer, LocalServerOptions } from './local-server.js';
export { startLocalServer } from './local-server.js';
export { createLogger, createSilentLogger } from './logger.js';
export { createMcpServer } from './server.js';
export type { ToolContext, ToolSpec, WorkshopTool } from './tools/define-tool.js';
export { defineTool } from './tools/define-tool.js';
export type { ToolDeps } from './tools/deps.js';
export { tools } from './tools/index.js';
