/** @module version The name and version this server reports in `serverInfo`. */
export const SERVER_NAME = 'mcp-workshop-server';
export const SERVER_VERSION = '0.1.0';
