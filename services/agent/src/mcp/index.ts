/**
 * @module mcp
 * The MCP side of the agent: read the servers config, connect to each server, and put them all
 * behind one `McpHub`. The loop only needs what is exported here.
 */
export type { HttpServerSpec, OAuthClientCredentials, ServerSpec, StdioServerSpec } from './config.js';
export {
  DEFAULT_SERVER_NAME,
  defaultServerSpecs,
  describeTarget,
  loadServersConfig,
  parseServersConfig,
  ServersConfigError,
} from './config.js';
export type { ConnectedServer, ConnectOptions, LogMessage, McpLogger, ServerHooks } from './connect.js';
export { connectServer } from './connect.js';
export type { QualifiedTool } from './discover.js';
export { QUALIFIED_NAME_SEPARATOR } from './discover.js';
export type { QualifiedMcpHub } from './hub.js';
export { createMcpHub } from './hub.js';
export type { RetryPolicy } from './retry.js';
export { DEFAULT_CONNECT_RETRY, McpConnectError } from './retry.js';
