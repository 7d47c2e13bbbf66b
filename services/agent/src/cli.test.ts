/**
 * Tests for `cli.ts chat` as a person runs it: the built CLI as a child process with stdin piped,
 * against the built workshop server (`test-support/workshop-process.ts`) and a scripted
 * OpenAI-compatible model. Every line written before the first prompt is answered, in order; a
 * `delete_task` confirmation is one question, answered by the next line; the chat ends at EOF.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type NodeRun, runNode } from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptStep,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import { startWorkshopProcess, type WorkshopProcess } from './test-support/workshop-process.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/**
 * A safety net, not a bar: the CLI is killed past this. Start-up plus a few scripted turns take a
 * second or two, but a CLI that loads its code on two cores shared with a second test run took
 * over 15 s, and a kill there reads as a wrong exit code.
 */
const RUN_LIMIT_MS = 60_000;
/** A test runs the CLI at most twice. */
const TEST_LIMIT_MS = 2 * RUN_LIMIT_MS + 10_000;

/** Runs `cli.js chat` with `stdin` written and closed at once, before the CLI can have shown a prompt. */
function runChat(stdin: string, modelUrl: string, mcpUrl: string): Promise<NodeRun> {
  return runNode(CLI, ['chat'], {
    // Only what the agent needs: no OpenTelemetry or other variables inherited from the test run.
    env: {
      MCP_SERVER_URL: mcpUrl,
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: 'not-needed',
      OPENAI_MODEL: 'scripted',
      OPENAI_API: 'chat',
      LOG_LEVEL: 'silent',
    },
    input: stdin,
    timeoutMs: RUN_LIMIT_MS,
  });
}

/** The person's messages the model was sent, in the order they arrived (each request carries the history). */
function userMessages(body: ChatRequestBody): string[] {
  return body.messages.flatMap((message) =>
    message.role === 'user' && typeof message.content === 'string' ? [message.content] : [],
  );
}

/** A model that adds a task called `title`, deletes it, then answers with what delete_task returned. */
const addThenDelete =
  (title: string) =>
  (body: ChatRequestBody): ScriptStep => {
    const sent = toolMessages(body);
    if (sent.length === 0) return { toolCalls: [{ name: 'add_task', arguments: { title } }] };
    if (sent.length === 1) {
      const { structuredContent } = JSON.parse(sent[0]?.content ?? '{}') as {
        structuredContent: { task: { id: number } };
      };
      return { toolCalls: [{ name: 'delete_task', arguments: { id: structuredContent.task.id } }] };
    }
    return { text: `delete_task said: ${sent[1]?.content ?? ''}` };
  };

/** The titles of the shared task list (sign-in is off), read straight from the server. */
async function taskTitles(mcpUrl: string): Promise<string[]> {
  const client = new Client({ name: 'cli-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const result = await client.callTool({ name: 'list_tasks', arguments: {} });
    const { items } = result.structuredContent as { items: Array<{ title: string }> };
    return items.map((task) => task.title);
  } finally {
    await client.close();
  }
}

let workshop: WorkshopProcess;
let openai: ScriptedOpenAI | undefined;

beforeAll(async () => {
  expect(existsSync(CLI), `${CLI} is missing: run pnpm --filter @mcp-workshop/agent build`).toBe(true);
  workshop = await startWorkshopProcess();
});
afterEach(async () => {
  await openai?.close();
  openai = undefined;
});
afterAll(async () => {
  await workshop?.close();
});

describe('cli chat with piped stdin', { timeout: TEST_LIMIT_MS }, () => {
  it('answers every line piped in before the first prompt, in order, and exits 0 at EOF', async () => {
    openai = await startScriptedOpenAI({
      fallback: (body) => ({ text: `answer to "${userMessages(body).at(-1)}"` }),
    });
    const outcome = await runChat(
      'What is the weather in Oslo?\nWhat is 6 * 7?\n\nList my tasks\n',
      openai.baseUrl,
      workshop.mcpUrl,
    );

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    // One conversation: the model saw the three questions one after another, the empty line skipped.
    expect(openai.bodies().map((body) => userMessages(body))).toEqual([
      ['What is the weather in Oslo?'],
      ['What is the weather in Oslo?', 'What is 6 * 7?'],
      ['What is the weather in Oslo?', 'What is 6 * 7?', 'List my tasks'],
    ]);
    // A piped line is shown after its prompt, so the transcript reads as a conversation.
    const transcript = outcome.stdout.slice(outcome.stdout.indexOf('you> '));
    expect(transcript.split('\n').filter((line) => line.trim() !== '')).toEqual([
      'you> What is the weather in Oslo?',
      'assistant> answer to "What is the weather in Oslo?"',
      'you> What is 6 * 7?',
      'assistant> answer to "What is 6 * 7?"',
      'you> ',
      'you> List my tasks',
      'assistant> answer to "List my tasks"',
      'you> ',
    ]);
  });

  it('stops at /exit and sends none of the lines after it', async () => {
    openai = await startScriptedOpenAI({ fallback: { text: 'ok' } });
    const outcome = await runChat('first\n/exit\nsecond\n', openai.baseUrl, workshop.mcpUrl);

    expect(outcome.code).toBe(0);
    expect(openai.bodies().map((body) => userMessages(body).at(-1))).toEqual(['first']);
  });

  it('does not send a line longer than a chat message may be, and answers the next one', async () => {
    openai = await startScriptedOpenAI({ fallback: { text: 'ok' } });
    const outcome = await runChat(`${'x'.repeat(8_001)}\nshort one\n`, openai.baseUrl, workshop.mcpUrl);

    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('not sent: the message is 8001 characters; at most 8000 fit');
    expect(openai.bodies().map((body) => userMessages(body))).toEqual([['short one']]);
  });

  it('deletes the task on a single "y": one question, no second "send this answer?"', async () => {
    openai = await startScriptedOpenAI({ fallback: addThenDelete('buy milk') });
    const outcome = await runChat('add buy milk, then delete it\ny\n', openai.baseUrl, workshop.mcpUrl);

    expect(outcome.code).toBe(0);
    expect(outcome.stdout.match(/\(y\/n\)/g)).toHaveLength(1);
    expect(outcome.stdout).toContain('  Yes, delete it (y/n): y\n');
    expect(outcome.stdout).not.toMatch(/send this answer/i);
    expect(outcome.stdout).toContain('delete_task said: {"structuredContent":{"task":');
    expect(outcome.stdout).toContain('input requested by delete_task: answered "accept"');
    expect(await taskTitles(workshop.mcpUrl)).not.toContain('buy milk');
  });

  it('keeps the task on "n", and on the end of input while the question is open', async () => {
    openai = await startScriptedOpenAI({ fallback: addThenDelete('buy bread') });
    const no = await runChat('add buy bread, then delete it\nn\n', openai.baseUrl, workshop.mcpUrl);
    expect(no.code).toBe(0);
    expect(no.stdout.match(/\(y\/n\)/g)).toHaveLength(1);
    expect(no.stdout).toContain('delete_task said: {"error":"Not deleted: the user declined."');

    await openai.close();
    openai = await startScriptedOpenAI({ fallback: addThenDelete('buy eggs') });
    const eof = await runChat('add buy eggs, then delete it\n', openai.baseUrl, workshop.mcpUrl);
    expect(eof.code).toBe(0);
    expect(eof.stdout).toContain('input requested by delete_task: answered "cancel"');

    expect(await taskTitles(workshop.mcpUrl)).toEqual(expect.arrayContaining(['buy bread', 'buy eggs']));
  });
});
