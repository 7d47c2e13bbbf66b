/**
 * Tests for `input.ts` in one-shot `ask`: when the real workshop server's `delete_task` asks for
 * confirmation, `declineInput` answers for the person and says nobody was asked, and the loop
 * and the CLI trace (`format.ts`) say so too, instead of "the user declined".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTurn } from './format.js';
import { declineInput, ONE_SHOT_NOT_ASKED } from './input.js';
import { connectServer } from './mcp/connect.js';
import { createMcpHub, type QualifiedMcpHub } from './mcp/hub.js';
import { silentLogger } from './mcp/test-support/logger.js';
import { createTestAgent, scriptedModel, startWorkshop } from './test-support/harness.js';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptStep,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import type { WorkshopProcess } from './test-support/workshop-process.js';

let workshop: WorkshopProcess;
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI;

/** Adds a task, deletes it, then answers with the error it got, word for word, as a model might. */
function addThenDelete(body: ChatRequestBody): ScriptStep {
  const sent = toolMessages(body);
  if (sent.length === 0) return { toolCalls: [{ name: 'add_task', arguments: { title: 'buy milk' } }] };
  if (sent.length === 1) {
    const { structuredContent } = JSON.parse(sent[0]?.content ?? '{}') as {
      structuredContent: { task: { id: number } };
    };
    return { toolCalls: [{ name: 'delete_task', arguments: { id: structuredContent.task.id } }] };
  }
  return { text: (JSON.parse(sent[1]?.content ?? '{}') as { error: string }).error };
}

beforeAll(async () => {
  [workshop, openai] = await Promise.all([startWorkshop(), startScriptedOpenAI({ fallback: addThenDelete })]);
  const server = await connectServer(
    { transport: 'http', name: 'workshop', url: workshop.mcpUrl },
    {
      clientInfo: { name: 'agent-test', version: '0.0.0' },
      logger: silentLogger(),
      onInput: declineInput,
      retry: { attempts: 1, initialDelayMs: 0, maxDelayMs: 0 },
    },
  );
  hub = createMcpHub([server], silentLogger());
});
afterAll(async () => {
  await hub?.close();
  await Promise.all([workshop?.close(), openai?.close()]);
});

describe('declineInput in one-shot ask', () => {
  it('says nobody was asked to confirm delete_task, in the trace and to the model, never "the user declined"', async () => {
    const result = await createTestAgent({ hub, model: scriptedModel(openai.baseUrl) }).ask('delete task 1');
    const deletion = result.toolCalls.find((trace) => trace.tool === 'delete_task');

    expect(deletion?.inputs).toEqual([
      {
        message: expect.stringMatching(/^Delete task \d+ "buy milk"\?/),
        action: 'decline',
        notAsked: ONE_SHOT_NOT_ASKED,
        atMs: expect.any(Number),
      },
    ]);
    // The SDK's own "Fulfilling input required by 'tools/call' (round 1)" is not the server's progress.
    expect(deletion?.progress).toEqual([]);
    const error = (JSON.parse(deletion?.sentToModel ?? '{}') as { error: string }).error;
    expect(error).toMatch(
      /^Not done, and nobody was asked: one-shot `ask` can't ask you to confirm; use `pnpm chat` or the web page\./,
    );
    expect(error).not.toMatch(/user declined/i);
    expect(result.answer).not.toMatch(/user declined/i);

    const trace = formatTurn(result);
    expect(trace).toContain(
      "│ input requested by delete_task: not asked (one-shot `ask` can't ask you to confirm; use `pnpm chat` or the web page)",
    );
    expect(trace).not.toContain('Fulfilling input required');
  });
});
