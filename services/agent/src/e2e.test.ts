/**
 * End to end over real HTTP, nothing scripted: the workshop MCP server, the offline demo model
 * (OpenAI-compatible, spoken to by the real `openai` client) and the agent, wired exactly as
 * `pnpm ask` wires them; then the built CLI itself, as a process, with `--json`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LocalServer } from '@mcp-workshop/mcp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentEnv } from './env.js';
import { declineInput } from './input.js';
import { createSilentLogger } from './logger.js';
import { type Runtime, startRuntime } from './runtime.js';
import { startWorkshop } from './test-support/harness.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('agent + workshop server + offline demo model', () => {
  let workshop: LocalServer;
  let runtime: Runtime;

  beforeAll(async () => {
    workshop = await startWorkshop();
    // No key, no base URL: the runtime must start the demo model itself.
    const env = loadAgentEnv({ MCP_SERVER_URL: workshop.mcpUrl, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    runtime = await startRuntime({ env, logger: createSilentLogger(), onInput: declineInput });
  });
  afterAll(async () => {
    await runtime?.close();
    await workshop?.close();
  });

  it('uses the labelled demo model and negotiates the 2026-07-28 era', () => {
    expect(runtime.model.description).toMatchObject({
      kind: 'demo',
      label: expect.stringMatching(/not a language model/),
    });
    expect(runtime.hub.servers()[0]).toMatchObject({ protocolVersion: '2026-07-28', era: 'modern' });
    expect(runtime.notes.join(' ')).toMatch(/offline demo model/);
  });

  it('answers a weather question from the structured result and quotes its values', async () => {
    const result = await runtime.agent.ask("What's the weather in Oslo?");
    const [call] = result.toolCalls;
    expect(call).toMatchObject({ functionName: 'get_weather', server: 'workshop', isError: false });
    const data = call?.result?.structuredContent as { current: { temperatureC: number } };
    // structuredContent went to the model, not the duplicate JSON text.
    expect(call?.sentAs).toMatch(/^structured/);
    expect(JSON.parse(call?.sentToModel ?? '{}')).toMatchObject({ structuredContent: data });
    expect(result.answer).toContain(String(data.current.temperatureC));
    expect(result.answer).toMatch(/offline demo model/);
  });

  it('recovers from an isError result by retrying with the suggested value', async () => {
    const result = await runtime.agent.ask("What's the weather like in Osloo?");
    expect(result.toolCalls.map((call) => call.isError)).toEqual([true, false]);
    expect(JSON.parse(result.toolCalls[0]?.sentToModel ?? '{}')).toEqual({
      error: 'Unknown place "Osloo". Did you mean "Oslo"? Use list_cities to see every supported city.',
    });
    expect(result.toolCalls[1]?.arguments).toMatchObject({ location: 'Oslo' });
  });

  it('writes a task that the next question can read back', async () => {
    const added = await runtime.agent.ask('Add a task: "Water the plants"');
    expect(added.toolCalls[0]).toMatchObject({ functionName: 'add_task', isError: false });
    const listed = await runtime.agent.ask('List my tasks');
    expect(JSON.stringify(listed.toolCalls[0]?.result?.structuredContent)).toContain('Water the plants');
  });
});

describe('the built CLI: ask --json', () => {
  let workshop: LocalServer;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "pnpm build" (pnpm test does it for you).`);
    workshop = await startWorkshop();
  });
  afterAll(async () => workshop?.close());

  it('prints one JSON object with the answer and every tool call, against any MCP server URL', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, 'ask', '--json', 'Calculate 12 * (3 + 4)'],
      {
        env: { PATH: process.env.PATH ?? '', MCP_SERVER_URL: workshop.mcpUrl },
        timeout: 30_000,
      },
    );
    const output = JSON.parse(stdout) as {
      answer: string;
      servers: Array<{ protocolVersion: string }>;
      toolCalls: Array<Record<string, unknown>>;
    };
    expect(output.answer).toContain('84');
    expect(output.servers[0]?.protocolVersion).toBe('2026-07-28');
    expect(output.toolCalls[0]).toMatchObject({
      functionName: 'calculate',
      arguments: { expression: '12 * (3 + 4)' },
      isError: false,
      sentAs: expect.any(String),
      sentToModel: expect.stringContaining('"result":84'),
      durationMs: expect.any(Number),
      result: { structuredContent: { result: 84 } },
    });
  });

  it('exits non-zero with a message naming the URL when the MCP server cannot be reached', async () => {
    const run = promisify(execFile)(process.execPath, [CLI, 'ask', 'hello'], {
      env: {
        PATH: process.env.PATH ?? '',
        MCP_SERVER_URL: 'http://127.0.0.1:9/mcp',
        MCP_CONNECT_ATTEMPTS: '1',
      },
      timeout: 30_000,
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('http://127.0.0.1:9/mcp'),
    });
  });
});
