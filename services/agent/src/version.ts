/** @module version The name and version the agent reports as its MCP `clientInfo`. */
export const AGENT_NAME = 'mcp-workshop-agent';
export const AGENT_VERSION = '0.1.0';
