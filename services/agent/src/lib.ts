/**
 * @module lib
 * What other packages and tests may import from the agent: the factories, never an entry file.
 */
export { ConversationStore } from './conversations.js';
export type { AgentEnv } from './env.js';
export { loadAgentEnv } from './env.js';
export { formatToolCall, formatTurn, turnAsJson } from './format.js';
export type { AgentAppOptions } from './http.js';
export { createAgentApp } from './http.js';
export { declineInput } from './input.js';
export type { InputBroker, InputBrokerOptions, InputListener, InputRequestEvent } from './input-broker.js';
export { createInputBroker, INPUT_TIMEOUT_MS, NO_PAGE_NOT_ASKED } from './input-broker.js';
export { createLogger, createSilentLogger } from './logger.js';
export type { Agent, AgentSettings, AskOptions } from './loop.js';
export { createAgent, DEFAULT_MAX_TOOL_ROUNDS } from './loop.js';
export type { ConnectedServer, OAuthClientCredentials, ServerSpec } from './mcp/index.js';
export { connectServer, createMcpHub } from './mcp/index.js';
export type { Runtime, RuntimeOptions } from './runtime.js';
export { SYSTEM_PROMPT, startRuntime } from './runtime.js';
export type { ToolCallTrace, TurnResult } from './trace.js';
export { createViewSandboxApp } from './views/sandbox-server.js';
