/**
 * @module runtime
 * Wires the agent together from a validated environment: the model (OpenAI, any OpenAI-compatible
 * base URL, or the offline demo model at DEMO_MODEL_URL), the MCP servers (with retries), and the
 * loop. It starts no other service: the agent reaches every model and server over its protocol.
 * The CLI, the HTTP entry and the demo all start here.
 */
import { telemetryEnabled } from '@mcp-workshop/telemetry';
import { ConversationStore } from './conversations.js';
import type { AgentEnv } from './env.js';
import { createModelProvider } from './llm/create-provider.js';
import type { ModelProvider } from './llm/provider.js';
import type { Logger } from './logger.js';
import { type Agent, type AgentSettings, createAgent } from './loop.js';
import { createMcpHub } from './mcp/hub.js';
import {
  type ConnectedServer,
  connectServer,
  defaultServerSpecs,
  loadServersConfig,
  type OAuthClientCredentials,
  type ServerSpec,
} from './mcp/index.js';
import type { AgentTelemetry } from './telemetry/types.js';
import type { InputHandler, McpHub } from './types.js';
import { AGENT_NAME, AGENT_VERSION } from './version.js';

export const SYSTEM_PROMPT =
  'You are the MCP workshop assistant. Use the tools you are given to answer; never invent values a tool ' +
  'could provide. When a tool result says it failed, read its error, fix the arguments and try again, or ' +
  'explain the failure. Quote the numbers and names the tools returned. Answer briefly.';

export interface RuntimeOptions {
  env: AgentEnv;
  logger: Logger;
  /** How a tool's request for input reaches the person. */
  onInput: InputHandler;
  /** Overrides the connect retries (the HTTP agent waits for docker-compose; the CLI does not). */
  connectAttempts?: number;
  /** Shows a person the link to sign in to a server (an `oauth` entry without a secret). */
  onSignIn?: (event: { server: string; url: string }) => void;
  /** Hears that such a sign-in is over: who signed in, or no `user` when it failed. */
  onSignInEnd?: (event: { server: string; user?: string }) => void;
  /** Stops connecting: the HTTP agent listens while it connects, and may be stopped meanwhile. */
  signal?: AbortSignal;
  /** Wraps the model the loop calls, e.g. to record each request (`pnpm eval` counts its tokens). */
  wrapModel?: (model: ModelProvider) => ModelProvider;
}

/** Starts telemetry when the environment asks for it; off, OpenTelemetry is never loaded. */
export async function startTelemetryFor(
  env: AgentEnv,
  model: ModelProvider,
): Promise<AgentTelemetry | undefined> {
  if (!telemetryEnabled(env)) return undefined;
  const { startAgentTelemetry } = await import('./telemetry/start.js');
  return startAgentTelemetry(env, model.description);
}

export interface Runtime {
  agent: Agent;
  /** The settings `agent` runs with, from the environment. */
  settings: AgentSettings;
  /**
   * Another agent on the same connections and model, with some settings changed and conversations
   * of its own: `pnpm eval --discovery compare` asks the same cases with tool search off, then on.
   */
  agentWith(overrides: Partial<AgentSettings>): Agent;
  hub: McpHub;
  model: ModelProvider;
  /** Set when telemetry is on; `close()` flushes and stops it. */
  telemetry?: AgentTelemetry;
  close(): Promise<void>;
}

/** A server's `instructions` go into the system prompt; a chatty server must not crowd out the question. */
const MAX_INSTRUCTIONS_CHARS = 2_000;

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { env, logger } = options;
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };

  try {
    const endpoint = createModelProvider({
      apiKey: env.OPENAI_API_KEY,
      baseUrl: env.OPENAI_BASE_URL,
      model: env.OPENAI_MODEL,
      api: env.OPENAI_API,
      demoBaseUrl: env.DEMO_MODEL_URL,
      reportUsage: telemetryEnabled(env) || options.wrapModel !== undefined,
    });
    const model = options.wrapModel ? options.wrapModel(endpoint) : endpoint;
    const telemetry = await startTelemetryFor(env, model);
    // Pushed first, so it runs last: the MCP spans of closing are still sent.
    if (telemetry) closers.push(() => telemetry.shutdown());
    const servers = await connectServers(options, closers, telemetry);
    const hub = createMcpHub(servers, logger);
    closers.push(() => hub.close());
    const guides = hub
      .servers()
      .filter((server) => server.instructions)
      .map(
        (server) =>
          `Server "${server.name}" says how to use its tools: ${server.instructions?.slice(0, MAX_INSTRUCTIONS_CHARS)}`,
      );
    const settings: AgentSettings = {
      maxToolRounds: env.AGENT_MAX_TOOL_ROUNDS,
      toolTimeoutMs: env.AGENT_TOOL_TIMEOUT_MS,
      resultBudgetChars: env.AGENT_RESULT_BUDGET_CHARS,
      systemPrompt: [SYSTEM_PROMPT, ...guides].join('\n\n'),
      toolSearch: {
        mode: env.AGENT_TOOL_SEARCH,
        minTools: env.AGENT_TOOL_SEARCH_MIN_TOOLS,
        minTokens: env.AGENT_TOOL_SEARCH_MIN_TOKENS,
      },
    };
    const agentWith = (overrides: Partial<AgentSettings>) =>
      createAgent({
        hub,
        model,
        conversations: new ConversationStore(env.AGENT_MAX_CONVERSATIONS),
        settings: { ...settings, ...overrides },
        ...(telemetry && { telemetry }),
      });
    return { agent: agentWith({}), agentWith, settings, hub, model, ...(telemetry && { telemetry }), close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function connectServers(
  options: RuntimeOptions,
  closers: Array<() => Promise<void>>,
  telemetry: AgentTelemetry | undefined,
): Promise<ConnectedServer[]> {
  const { env, logger, onInput } = options;
  const specs: ServerSpec[] = env.MCP_SERVERS_CONFIG
    ? loadServersConfig(env.MCP_SERVERS_CONFIG)
    : defaultServerSpecs(env.MCP_SERVER_URL, oauthFromEnv(env));
  const clientInfo = { name: AGENT_NAME, version: AGENT_VERSION };
  const attempts = options.connectAttempts ?? env.MCP_CONNECT_ATTEMPTS;
  const connected: ConnectedServer[] = [];
  for (const spec of specs) {
    const server = await connectServer(spec, {
      clientInfo,
      onInput,
      logger,
      retry: { attempts, initialDelayMs: 250, maxDelayMs: 4_000 },
      ...(options.onSignIn && { onSignIn: options.onSignIn }),
      ...(options.onSignInEnd && { onSignInEnd: options.onSignInEnd }),
      ...(options.signal && { signal: options.signal }),
      ...(telemetry && { tracing: telemetry.mcp }),
    });
    connected.push(server);
    closers.push(() => server.close());
  }
  return connected;
}

/** MCP_OAUTH_* as the default server's sign-in; env.ts has checked the id and issuer come together. */
function oauthFromEnv(env: AgentEnv): OAuthClientCredentials | undefined {
  const {
    MCP_OAUTH_CLIENT_ID: clientId,
    MCP_OAUTH_CLIENT_SECRET: clientSecret,
    MCP_OAUTH_ISSUER: issuer,
  } = env;
  if (!clientId || !issuer) return undefined;
  return {
    clientId,
    issuer,
    // With a secret, the agent signs in as a machine; without, a person signs in (connect.ts).
    ...(clientSecret && { clientSecret }),
    ...(env.MCP_OAUTH_SCOPE && { scope: env.MCP_OAUTH_SCOPE }),
  };
}
