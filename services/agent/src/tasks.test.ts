/**
 * Tests for MCP Tasks end to end, as people meet them: the real workshop server (its
 * `generate_report` becomes a task for a client that declares `io.modelcontextprotocol/tasks`) and a
 * scripted model, through the agent loop, the HTTP API's stream and the built CLI (`ask`,
 * `ask --json`, Ctrl-C). A question that is cancelled must leave its task `cancelled` on the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentApp } from './http.js';
import { createSilentLogger } from './logger.js';
import type { Agent } from './loop.js';
import type { QualifiedMcpHub } from './mcp/hub.js';
import { connectHub, createTestAgent, scriptedModel, startWorkshop } from './test-support/harness.js';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptStep,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import type { WorkshopProcess } from './test-support/workshop-process.js';
import type { ToolCallTrace } from './trace.js';
import type { TaskInfo } from './types.js';

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** Start-up plus a short report; the CLI is killed past this. */
const RUN_LIMIT_MS = 20_000;
/** Three sections, 200 ms each: long enough to see `working`, short enough for a test. */
const SHORT_REPORT = { topic: 'cities', steps: 3, delayMs: 200 };
/** Ten sections, 1 s each: it is cancelled long before it could end. */
const LONG_REPORT = { topic: 'cities', steps: 10, delayMs: 1_000 };

/** A model that asks for one report, then answers with what the tool sent back. */
function reportThenQuote(args: Record<string, unknown>) {
  return (body: ChatRequestBody): ScriptStep => {
    const sent = toolMessages(body);
    if (sent.length === 0) return { toolCalls: [{ name: 'generate_report', arguments: args }] };
    return { text: `report: ${sent[0]?.content ?? ''}` };
  };
}

/** A task's status as the server has it, asked by a client of its own (sign-in is off: one owner). */
async function serverStatus(taskId: string): Promise<string> {
  const client = new Client(
    { name: 'tasks-test', version: '0.0.0' },
    { capabilities: { extensions: { [TASKS_EXTENSION]: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(workshop.mcpUrl)));
  try {
    const task = await client.request(
      { method: 'tasks/get', params: { taskId } },
      z.looseObject({ status: z.string() }),
    );
    return task.status;
  } finally {
    await client.close();
  }
}

let workshop: WorkshopProcess;
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI;
let agent: Agent;

beforeAll(async () => {
  [workshop, openai] = await Promise.all([startWorkshop(), startScriptedOpenAI()]);
  hub = await connectHub([{ name: 'workshop', url: workshop.mcpUrl }]);
  agent = createTestAgent({ hub, model: scriptedModel(openai.baseUrl) });
});
afterAll(async () => {
  await hub?.close();
  await Promise.all([workshop?.close(), openai?.close()]);
});

describe('the workshop server', () => {
  it('lists the Tasks extension in server/discover', async () => {
    const client = new Client(
      { name: 'tasks-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(workshop.mcpUrl)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION]).toEqual({});
    } finally {
      await client.close();
    }
  });
});

describe('the agent loop with a task', () => {
  it('follows generate_report to completed and gives the model its structuredContent', async () => {
    openai.push(reportThenQuote(SHORT_REPORT), reportThenQuote(SHORT_REPORT));
    const seen: TaskInfo[] = [];
    const result = await agent.ask('Report on the cities', {
      events: { onToolTask: (_id, task) => seen.push(task) },
    });

    const call = result.toolCalls[0];
    expect(call?.isError).toBe(false);
    expect(call?.task?.statuses).toEqual(['working', 'completed']);
    expect(call?.task?.id).toMatch(/^\S{16,}$/);
    // How long the agent followed it is a measurement, not a property: only its shape is checked.
    expect(Number.isInteger(call?.task?.elapsedMs) && (call?.task?.elapsedMs ?? -1) >= 0).toBe(true);
    expect(seen[0]?.statuses).toEqual(['working']);
    expect(seen.at(-1)?.statuses).toEqual(['working', 'completed']);
    // The report itself, structuredContent first, exactly as the task's result carried it.
    const structured = call?.result?.structuredContent as {
      topic: string;
      sections: unknown[];
      summary: string;
    };
    expect(structured.topic).toBe('cities');
    expect(structured.sections).toHaveLength(SHORT_REPORT.steps);
    expect(call?.sentAs.startsWith('structured')).toBe(true);
    const toModel = JSON.parse(toolMessages(openai.bodies().at(-1) as ChatRequestBody)[0]?.content ?? '{}');
    expect(toModel.structuredContent).toEqual(structured);
  });

  it('sends tasks/cancel when the question is cancelled, and the task ends cancelled', async () => {
    openai.push(reportThenQuote(LONG_REPORT));
    const controller = new AbortController();
    let ended: ToolCallTrace | undefined;
    await agent
      .ask('A long report', {
        signal: controller.signal,
        events: {
          onToolTask: () => controller.abort(new Error('the person cancelled')),
          onToolEnd: (trace) => {
            ended = trace;
          },
        },
      })
      .catch(() => undefined);

    expect(ended?.problem?.kind).toBe('aborted');
    expect(ended?.task?.cancel).toEqual({ reason: 'aborted', acknowledged: true });
    expect(await serverStatus(ended?.task?.id ?? '')).toBe('cancelled');
  });
});

describe('the HTTP API with a task', () => {
  let http: Server;
  let baseUrl: string;

  beforeAll(async () => {
    const app = createAgentApp({
      agent,
      hub,
      model: scriptedModel(openai.baseUrl).description,
      logger: createSilentLogger(),
    });
    http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  const stream = (signal?: AbortSignal) =>
    fetch(`${baseUrl}/api/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Report on the cities' }),
      ...(signal && { signal }),
    });

  it('streams tool_task events, working then completed, and the task in tool_end', async () => {
    openai.push(reportThenQuote(SHORT_REPORT), reportThenQuote(SHORT_REPORT));
    const events = parseSse(await (await stream()).text());
    const tasks = events.filter((event) => event.event === 'tool_task').map((event) => event.data);
    expect(tasks[0]).toMatchObject({ id: expect.any(String), task: { statuses: ['working'] } });
    expect(tasks.at(-1)).toMatchObject({ task: { statuses: ['working', 'completed'] } });
    const end = events.find((event) => event.event === 'tool_end')?.data as ToolCallTrace;
    expect(end.task?.statuses).toEqual(['working', 'completed']);
    expect(end.task?.id).toBe((tasks[0] as { task: TaskInfo }).task.id);
  });

  it('cancels the task when the page closes the stream (its Stop button)', async () => {
    openai.push(reportThenQuote(LONG_REPORT));
    const closing = new AbortController();
    const response = await stream(closing.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    let taskId: string | undefined;
    while (taskId === undefined) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before a task: ${text}`);
      text += new TextDecoder().decode(value);
      const first = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2)).find(
        (e) => e.event === 'tool_task',
      );
      taskId = (first?.data as { task: TaskInfo } | undefined)?.task.id;
    }
    closing.abort();
    await expect.poll(() => serverStatus(taskId), { timeout: 5_000, interval: 200 }).toBe('cancelled');
  });
});

describe('the CLI with a task', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
  });

  /** Runs `cli.js ask`; `onStdout` sees the output as it comes, with the child to signal. */
  function ask(args: string[], onStdout?: (text: string, child: ChildProcess) => void) {
    const running = spawn(process.execPath, [CLI, 'ask', ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        MCP_SERVER_URL: workshop.mcpUrl,
        OPENAI_BASE_URL: openai.baseUrl,
        OPENAI_API_KEY: 'not-needed',
        OPENAI_MODEL: 'scripted',
        OPENAI_API: 'chat',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: RUN_LIMIT_MS,
    });
    child = running;
    let stdout = '';
    let stderr = '';
    running.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, running);
    });
    running.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      running.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('shows the task working, then its line in the trace: working → completed', async () => {
    openai.push(reportThenQuote(SHORT_REPORT), reportThenQuote(SHORT_REPORT));
    const { code, stdout } = await ask(['Report on the cities']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^task \S+… working \(\d+\.\d s\)\s+\(Ctrl-C cancels it\)$/m);
    expect(stdout).toMatch(/^task \S+… completed \(\d+\.\d s\)$/m);
    expect(stdout).toMatch(/^│ task: +\S+… working → completed in \d+\.\d s \(\d+ tasks\/get\)$/m);
    expect(stdout).toContain('└─ sent to model (structured');
  });

  it('puts the task id, its statuses and the time in --json', async () => {
    openai.push(reportThenQuote(SHORT_REPORT), reportThenQuote(SHORT_REPORT));
    const { code, stdout } = await ask(['--json', 'Report on the cities']);
    expect(code).toBe(0);
    const turn = JSON.parse(stdout) as { toolCalls: ToolCallTrace[] };
    expect(turn.toolCalls[0]?.task).toMatchObject({
      id: expect.stringMatching(/^\S{16,}$/),
      statuses: ['working', 'completed'],
      elapsedMs: expect.any(Number),
    });
  });

  it('cancels the task on Ctrl-C, shows it, and exits 130', async () => {
    openai.push(reportThenQuote(LONG_REPORT));
    let sent = false;
    const { code, stdout, stderr } = await ask(['A long report'], (text, running) => {
      if (!sent && text.includes('(Ctrl-C cancels it)')) {
        sent = true;
        running.kill('SIGINT');
      }
    });
    expect(code).toBe(130);
    expect(stderr).toContain('Cancelled with Ctrl-C.');
    expect(stdout).toContain(
      '│ task cancelled:    tasks/cancel sent because the question was cancelled; the server acknowledged it',
    );
  });
});

interface SseEvent {
  event: string;
  data: unknown;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}
