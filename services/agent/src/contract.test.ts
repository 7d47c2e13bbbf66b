/**
 * Contract test: what the agent sends the model back for each kind of tool outcome. The real
 * hub talks to the real workshop server and to a second, minimal MCP server written here; the
 * model is a scripted OpenAI-compatible server reached through the real `openai` client, which
 * records every request. Expected messages are literal strings, so a change in the rules of
 * `resultToModel` (packages/shared/src/to-model.ts) or in the loop's error texts fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSettings } from './loop.js';
import type { QualifiedMcpHub } from './mcp/hub.js';
import {
  connectHub,
  createTestAgent,
  scriptedModel,
  startWorkshop,
  TEST_SYSTEM_PROMPT,
} from './test-support/harness.js';
import {
  BACKEND_DOWN_CODE,
  DOTTED_TOOL,
  type MinimalMcpServer,
  startMinimalMcpServer,
} from './test-support/minimal-mcp-server.js';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptedToolCall,
  startScriptedOpenAI,
  toolMessages,
} from './test-support/scripted-openai.js';
import type { WorkshopProcess } from './test-support/workshop-process.js';
import type { TurnResult } from './trace.js';

const OPENAI_FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Long enough to see a real answer, short enough for the timeout case to stay quick. */
const SHORT_TOOL_TIMEOUT_MS = 500;
/** The most a test waits for the minimal server to notice a cancelled call. */
const CANCEL_NOTICE_MS = 3_000;

let workshop: WorkshopProcess;
let minimal: MinimalMcpServer;
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI;

beforeAll(async () => {
  [workshop, minimal, openai] = await Promise.all([
    startWorkshop(),
    startMinimalMcpServer(),
    startScriptedOpenAI(),
  ]);
  hub = await connectHub([
    { name: 'workshop', url: workshop.mcpUrl },
    { name: 'minimal', url: minimal.url },
  ]);
});

afterAll(async () => {
  await hub?.close();
  await Promise.all([workshop?.close(), minimal?.close(), openai?.close()]);
});

interface RoundTrip {
  result: TurnResult;
  /** The request that offered the tools and got the tool calls back. */
  first: ChatRequestBody;
  /** The request that carried the tool results. */
  second: ChatRequestBody;
  sent: Array<{ tool_call_id: string; content: string }>;
}

/** One turn: the model makes `calls`, then answers "done". Returns the two requests it got. */
async function roundTrip(
  calls: ScriptedToolCall[],
  settings: Partial<AgentSettings> = {},
): Promise<RoundTrip> {
  const before = openai.requests.length;
  openai.push({ toolCalls: calls }, { text: 'done' });
  const agent = createTestAgent({ hub, model: scriptedModel(openai.baseUrl), settings });
  const result = await agent.ask('Run the tools.');
  const bodies = openai.bodies().slice(before);
  expect(bodies).toHaveLength(2);
  const [first, second] = bodies as [ChatRequestBody, ChatRequestBody];
  const sent = toolMessages(second);
  // Whatever the case, the trace shows exactly what went to the model.
  expect(result.toolCalls.map((trace) => ({ tool_call_id: trace.id, content: trace.sentToModel }))).toEqual(
    sent,
  );
  expect(result.answer).toBe('done');
  return { result, first, second, sent };
}

/** The one tool message of a single-call turn, checked against the call's id. */
async function sendOne(call: ScriptedToolCall, settings?: Partial<AgentSettings>) {
  const id = `call_${Math.random().toString(36).slice(2, 10)}`;
  const trip = await roundTrip([{ ...call, id }], settings);
  expect(trip.sent).toHaveLength(1);
  expect(trip.sent[0]?.tool_call_id).toBe(id);
  return { ...trip, content: trip.sent[0]?.content, trace: trip.result.toolCalls[0] };
}

describe('the functions offered to the model', () => {
  it('offers every tool of both servers with a valid name and an explicit strict flag', async () => {
    const { first } = await roundTrip([{ name: 'plain_text', arguments: {} }]);
    expect(first).toMatchObject({ model: 'scripted', stream: true, tool_choice: 'auto' });
    expect(first.messages.slice(0, 2)).toEqual([
      { role: 'system', content: TEST_SYSTEM_PROMPT },
      { role: 'user', content: 'Run the tools.' },
    ]);
    const tools = first.tools ?? [];
    // Every MCP tool, plus the agent's own read_skill: the workshop publishes skills.
    expect(hub.skills().length).toBeGreaterThan(0);
    expect(tools).toHaveLength(hub.tools().length + 1);
    for (const tool of tools) {
      expect(tool.type).toBe('function');
      expect(tool.function.name).toMatch(OPENAI_FUNCTION_NAME);
      expect(typeof tool.function.strict).toBe('boolean');
      expect(tool.function.parameters).toMatchObject({ type: 'object' });
    }
    const names = tools.map((tool) => tool.function.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['get_weather', 'calculate', 'add_task', 'get_temperature', 'sleep']),
    );
    // The dotted MCP name is offered sanitised, never as it is.
    expect(names).toContain('weather_forecast_daily');
    expect(names).toContain('read_skill');
    expect(names).not.toContain(DOTTED_TOOL);
    // The workshop's task board view calls this tool itself (MCP Apps visibility ["app"]): the
    // server lists it, the model is never offered it.
    expect(names).toContain('list_tasks');
    expect(names).not.toContain('task_board_refresh');
  });

  it('sends the strict schema of a hand-written zod tool with additionalProperties false', async () => {
    const { first } = await roundTrip([{ name: 'plain_text', arguments: {} }]);
    const tool = first.tools?.find((candidate) => candidate.function.name === 'get_temperature');
    expect(tool?.function.strict).toBe(true);
    expect(tool?.function.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
  });

  it('sends the assistant tool calls back before their results, in the order the model made them', async () => {
    const { second } = await roundTrip([
      { name: 'plain_text', arguments: {}, id: 'call_a' },
      { name: 'get_temperature', arguments: { city: 'Oslo' }, id: 'call_b' },
    ]);
    expect(second.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'plain_text', arguments: '{}' } },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'get_temperature', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'First line.\nSecond line.' },
      { role: 'tool', tool_call_id: 'call_b', content: '{"city":"Oslo","temperatureC":4}' },
    ]);
  });
});

describe('tool results sent to the model (minimal server)', () => {
  it('sends structuredContent alone when the text is only the same JSON', async () => {
    const { content, trace } = await sendOne({ name: 'get_temperature', arguments: { city: 'Oslo' } });
    expect(content).toBe('{"city":"Oslo","temperatureC":4}');
    expect(trace).toMatchObject({
      sentAs: 'structured',
      isError: false,
      server: 'minimal',
      tool: 'get_temperature',
    });
    expect(trace?.result).toEqual({
      isError: false,
      structuredContent: { city: 'Oslo', temperatureC: 4 },
      text: ['{ "temperatureC": 4, "city": "Oslo" }'],
      otherContent: [],
    });
  });

  it('labels structuredContent and text when the text says more', async () => {
    const { content, trace } = await sendOne({ name: 'city_facts', arguments: { city: 'Oslo' } });
    expect(content).toBe(
      '{"structuredContent":{"city":"Oslo","population":717710},"text":"Oslo is the capital of Norway."}',
    );
    expect(trace?.sentAs).toBe('structured+text');
  });

  it('sends an isError result as {"error": text}', async () => {
    const { content, trace } = await sendOne({ name: 'find_city', arguments: { city: 'Osloo' } });
    expect(content).toBe('{"error":"Unknown city \\"Osloo\\". Did you mean \\"Oslo\\"?"}');
    expect(trace).toMatchObject({ isError: true, sentAs: 'error', problem: undefined });
    expect(trace?.result?.isError).toBe(true);
  });

  it('sends text-only content as the text blocks, one per line', async () => {
    const { content, trace } = await sendOne({ name: 'plain_text', arguments: {} });
    expect(content).toBe('First line.\nSecond line.');
    expect(trace?.sentAs).toBe('text');
  });

  it('describes an image instead of sending its base64', async () => {
    // Empty arguments, as models send for a function without parameters.
    const { content, trace } = await sendOne({ name: 'pixel', arguments: '' });
    expect(content).toBe('A pixel:\n[image: image/png, 70 B]');
    expect(trace?.result?.otherContent).toEqual(['[image: image/png, 70 B]']);
  });

  it('calls a dotted tool by its MCP name through the sanitised function name', async () => {
    const { content, trace } = await sendOne({ name: 'weather_forecast_daily', arguments: { city: 'Oslo' } });
    expect(content).toBe('Daily forecast for Oslo: dry.');
    expect(trace).toMatchObject({ functionName: 'weather_forecast_daily', tool: DOTTED_TOOL });
    expect(minimal.calls.at(-1)).toMatchObject({ tool: DOTTED_TOOL, arguments: { city: 'Oslo' } });
  });

  it('sends a JSON-RPC error as a tool error with its code', async () => {
    const { content, trace } = await sendOne({ name: 'backend_down', arguments: {} });
    expect(content).toBe(`{"error":"The inventory backend is unavailable","code":${BACKEND_DOWN_CODE}}`);
    expect(trace?.problem).toEqual({
      kind: 'jsonrpc',
      code: BACKEND_DOWN_CODE,
      message: 'The inventory backend is unavailable',
    });
  });

  it('sends a timeout as a tool error and cancels the call on the server', async () => {
    const { content, trace } = await sendOne(
      { name: 'sleep', arguments: { ms: 10_000 } },
      { toolTimeoutMs: SHORT_TOOL_TIMEOUT_MS },
    );
    expect(content).toBe(
      `{"error":"The tool sent no answer and no progress for ${SHORT_TOOL_TIMEOUT_MS} ms.","kind":"timeout"}`,
    );
    expect(trace?.problem?.kind).toBe('timeout');
    await expect
      .poll(() => minimal.calls.filter((call) => call.tool === 'sleep').at(-1)?.aborted, {
        timeout: CANCEL_NOTICE_MS,
      })
      .toBe(true);
  });

  it('answers an unknown function name with the names it could have used', async () => {
    const { content, first, trace } = await sendOne({ name: 'get_temprature', arguments: { city: 'Oslo' } });
    const offered = (first.tools ?? []).map((tool) => tool.function.name).join(', ');
    expect(content).toBe(
      JSON.stringify({ error: `There is no function named "get_temprature". Use one of: ${offered}.` }),
    );
    expect(content).toContain('get_temperature, city_facts');
    expect(trace).toMatchObject({ isError: true, server: undefined, tool: undefined });
  });

  it('refuses arguments that break the inputSchema without calling the server', async () => {
    const calls = minimal.callCount('get_temperature');
    const { content, trace } = await sendOne({ name: 'get_temperature', arguments: { city: 42 } });
    expect(content).toBe(
      '{"error":"Invalid arguments for get_temperature: /city: must be string. Fix them and call again.","problems":["/city: must be string"]}',
    );
    expect(trace?.problem?.kind).toBe('invalid_arguments');
    expect(minimal.callCount('get_temperature')).toBe(calls);
  });

  it('refuses arguments that are not JSON without calling the server', async () => {
    const calls = minimal.callCount();
    const { content } = await sendOne({ name: 'get_temperature', arguments: '{"city": "Oslo"' });
    // The middle is JSON.parse's own message, which differs between engines.
    expect(JSON.parse(content ?? '')).toEqual({
      error: expect.stringMatching(
        /^The arguments for get_temperature are not a valid JSON object \(.+\)\. Send a JSON object\.$/,
      ),
    });
    expect(minimal.callCount()).toBe(calls);
  });

  it('refuses JSON arguments that are not an object without calling the server', async () => {
    const calls = minimal.callCount();
    const { content } = await sendOne({ name: 'get_temperature', arguments: '["Oslo"]' });
    expect(content).toBe(
      '{"error":"The arguments for get_temperature are not a valid JSON object (expected a JSON object, got [\\"Oslo\\"]). Send a JSON object."}',
    );
    expect(minimal.callCount()).toBe(calls);
  });

  it('keeps the failures of one turn apart: each call gets its own message', async () => {
    const { sent } = await roundTrip([
      { name: 'find_city', arguments: { city: 'Osloo' }, id: 'call_1st' },
      { name: 'nope', arguments: {}, id: 'call_2nd' },
      { name: 'get_temperature', arguments: { city: 'Bergen' }, id: 'call_3rd' },
    ]);
    expect(sent.map((message) => message.tool_call_id)).toEqual(['call_1st', 'call_2nd', 'call_3rd']);
    expect(sent[2]?.content).toBe('{"city":"Bergen","temperatureC":4}');
  });
});

describe('tool results sent to the model (workshop server)', () => {
  it('drops the JSON copy and keeps the summary next to structuredContent', async () => {
    const { content, trace } = await sendOne({ name: 'calculate', arguments: { expression: '2 + 3' } });
    expect(content).toBe(
      '{"structuredContent":{"expression":"2 + 3","result":5,"formatted":"5"},"text":"2 + 3 = 5"}',
    );
    expect(trace).toMatchObject({ server: 'workshop', tool: 'calculate', sentAs: 'structured+text' });
  });

  it('sends an isError result with the hint the tool wrote', async () => {
    const { content } = await sendOne({ name: 'get_weather', arguments: { location: 'Osloo' } });
    expect(content).toBe(
      '{"error":"Unknown place \\"Osloo\\". Did you mean \\"Oslo\\"? Use list_cities to see every supported city."}',
    );
  });

  it('refuses invalid arguments before the server can act on them', async () => {
    const { content } = await sendOne({ name: 'add_task', arguments: { title: 42 } });
    expect(content).toBe(
      '{"error":"Invalid arguments for add_task: /title: must be string. Fix them and call again.","problems":["/title: must be string"]}',
    );
    // Ask the server itself, over MCP, whether anything was written.
    const listed = await hub.callTool('workshop', 'list_tasks', {}, { timeoutMs: 5_000 });
    expect(listed).toMatchObject({ result: { structuredContent: { count: 0 } } });
  });

  it('removes the nulls strict mode made the model send for optional fields', async () => {
    const { content } = await sendOne({ name: 'get_weather', arguments: { location: 'Oslo', days: null } });
    const sent = JSON.parse(content ?? '') as { structuredContent: { forecast: unknown[] } };
    // `days` was left out, so the server's default of 3 applied.
    expect(sent.structuredContent.forecast).toHaveLength(3);
  });
});
