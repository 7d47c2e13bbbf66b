/**
 * @module index
 * Hosting for any MCP server: hand `createApp` or `startHttpHost` a `() => McpServer` factory and it
 * serves it over Streamable HTTP for both protocol eras. Over stdio, `@mcp-workshop/mcp-host/stdio`
 * does the same without loading any of this. See the README for a ten-line example.
 */
export {
  callerHasScopes,
  MAX_IDENTITY_LENGTH,
  MAX_OWNER_LENGTH,
  missingScopes,
  ownerOf,
  SHARED_OWNER,
} from './auth/caller.js';
export type { DiscoverIssuerOptions, DiscoveryWait, IssuerMetadata } from './auth/issuer.js';
export { DISCOVERY_DEADLINE_MS, discoverIssuer, IssuerDiscoveryError } from './auth/issuer.js';
export type { ScopePolicy, ScopeRules } from './auth/scopes.js';
export { createScopePolicy, scopesForBody, scopesForMessage } from './auth/scopes.js';
export { CLOCK_TOLERANCE_SECONDS } from './auth/token-verifier.js';
export type { AppAuthOptions, AppOptions, HostApp, Readiness } from './http/app.js';
export {
  createApp,
  DEFAULT_MAX_SESSIONS_PER_CLIENT,
  DEFAULT_MAX_STREAMS,
  DEFAULT_MAX_STREAMS_PER_CLIENT,
  MAX_BODY_BYTES,
  READY_TIMEOUT_MS,
} from './http/app.js';
export { MAX_JSON_DEPTH } from './http/json-depth.js';
export type { OwnerEventBus } from './http/owner-bus.js';
export { OwnerScopedEventBus } from './http/owner-bus.js';
export type { RateLimitOptions, RateLimits } from './http/rate-limits.js';
export { createRateLimits } from './http/rate-limits.js';
export type { HttpHost, HttpHostOptions } from './http/start.js';
export { startHttpHost } from './http/start.js';
export type { InProcessConnection } from './in-process.js';
export { connectInProcess } from './in-process.js';
export type { Logger, LoggerOptions, LogLevel } from './logger.js';
export { createLogger, createSilentLogger } from './logger.js';
