/**
 * @module test-support/harness
 * Builds the real agent for tests: the real workshop MCP server as its own process (temporary
 * database), the real hub and `connectServer`, and the real `openai` client pointed at the
 * scripted model. Only the model's answers are scripted. Partners: `scripted-openai.ts`,
 * `minimal-mcp-server.ts`, `workshop-process.ts`.
 */
import { ConversationStore } from '../conversations.js';
import { createModelProvider } from '../llm/create-provider.js';
import type { ModelProvider } from '../llm/provider.js';
import { type Agent, type AgentSettings, createAgent, DEFAULT_MAX_TOOL_ROUNDS } from '../loop.js';
import { type ConnectedServer, connectServer } from '../mcp/connect.js';
import { createMcpHub, type QualifiedMcpHub } from '../mcp/hub.js';
import { silentLogger } from '../mcp/test-support/logger.js';
import { startWorkshopProcess, type WorkshopProcess } from './workshop-process.js';

export const TEST_SYSTEM_PROMPT = 'You are a test agent.';

export const TEST_SETTINGS: AgentSettings = {
  maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
  toolTimeoutMs: 5_000,
  resultBudgetChars: 16_000,
  systemPrompt: TEST_SYSTEM_PROMPT,
};

/** The real workshop server, as a process with a fresh temporary database; `close()` deletes it. */
export async function startWorkshop(): Promise<WorkshopProcess> {
  return startWorkshopProcess();
}

export type Target = { name: string; url: string };

/** Connects to each server once (no retries: they are already listening); on a failure, closes the rest. */
export async function connectServers(targets: readonly Target[]): Promise<ConnectedServer[]> {
  const logger = silentLogger();
  const settled = await Promise.allSettled(
    targets.map((target) =>
      connectServer(
        { transport: 'http', name: target.name, url: target.url },
        {
          clientInfo: { name: 'agent-test', version: '0.0.0' },
          logger,
          onInput: async () => ({ action: 'decline' }),
          retry: { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
        },
      ),
    ),
  );
  const connected = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await Promise.allSettled(connected.map((server) => server.close()));
    throw failed.reason;
  }
  return connected;
}

/** Connects to each server and puts them behind one hub; closing the hub closes the connections. */
export async function connectHub(targets: readonly Target[]): Promise<QualifiedMcpHub> {
  return createMcpHub(await connectServers(targets), silentLogger());
}

/** The real Chat Completions provider over the real `openai` client, talking to `baseUrl`. */
export function scriptedModel(baseUrl: string): ModelProvider {
  return createModelProvider({ baseUrl, api: 'chat', model: 'scripted' });
}

export interface TestAgentOptions {
  hub: QualifiedMcpHub;
  model: ModelProvider;
  settings?: Partial<AgentSettings>;
  maxConversations?: number;
  conversations?: ConversationStore;
}

export function createTestAgent(options: TestAgentOptions): Agent {
  return createAgent({
    hub: options.hub,
    model: options.model,
    conversations: options.conversations ?? new ConversationStore(options.maxConversations ?? 10),
    settings: { ...TEST_SETTINGS, ...options.settings },
  });
}
