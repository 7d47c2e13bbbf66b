/**
 * @module 04-agent-recovers/agent
 * A small agent loop for exercise 04, given as it is: it offers the MCP tools to an OpenAI model,
 * runs the calls the model makes, and hands each result back through `toolMessage`, which is the
 * part you write (`starter/tool-message.ts`). The workshop's full loop is `services/agent/src/loop.ts`.
 */
import type { CallToolResult } from '@mcp-workshop/shared';
import type { Client } from '@modelcontextprotocol/client';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** A model that keeps calling tools forever is a bug, not a feature: bound the loop. */
export const DEFAULT_MAX_ROUNDS = 4;

export interface RunAgentOptions {
  question: string;
  openai: OpenAI;
  model: string;
  mcp: Client;
  /** Turns one `tools/call` result into the text of the `role: "tool"` message the model reads. */
  toolMessage: (result: CallToolResult) => string;
  maxRounds?: number;
}

export interface RunAgentResult {
  answer: string;
  /** Model turns taken, including the one that answered. */
  rounds: number;
  stoppedBecause: 'answer' | 'max_rounds';
}

export async function runAgent(options: RunAgentOptions): Promise<RunAgentResult> {
  const { openai, mcp, toolMessage } = options;
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const { tools } = await mcp.listTools();
  const functions = tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
  }));
  const messages: ChatCompletionMessageParam[] = [
    {
      role: 'system',
      content: 'Answer with the tools. When a tool fails, read why, fix the call and retry.',
    },
    { role: 'user', content: options.question },
  ];

  for (let round = 1; round <= maxRounds; round++) {
    const completion = await openai.chat.completions.create({
      model: options.model,
      messages,
      tools: functions,
    });
    const reply = completion.choices[0]?.message;
    const calls = (reply?.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [call] : []));
    if (calls.length === 0) return { answer: reply?.content ?? '', rounds: round, stoppedBecause: 'answer' };
    messages.push({ role: 'assistant', content: reply?.content ?? null, tool_calls: calls });
    for (const call of calls) {
      const result = (await mcp.callTool({
        name: call.function.name,
        arguments: JSON.parse(call.function.arguments || '{}') as Record<string, unknown>,
      })) as CallToolResult;
      messages.push({ role: 'tool', tool_call_id: call.id, content: toolMessage(result) });
    }
  }
  return {
    answer: `I stopped after ${maxRounds} rounds of tool calls without an answer.`,
    rounds: maxRounds,
    stoppedBecause: 'max_rounds',
  };
}
