/**
 * Progressive discovery through the real agent loop: the real hub talks to the minimal MCP server
 * over HTTP (8 tools), and the scripted OpenAI-compatible server plays the model, so each test
 * reads exactly which functions every request offered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatToolCall } from '../format.js';
import type { QualifiedMcpHub } from '../mcp/hub.js';
import { connectHub, createTestAgent, scriptedModel } from '../test-support/harness.js';
import { type MinimalMcpServer, startMinimalMcpServer } from '../test-support/minimal-mcp-server.js';
import {
  type ChatRequestBody,
  type ScriptedOpenAI,
  type ScriptStep,
  startScriptedOpenAI,
  toolMessages,
} from '../test-support/scripted-openai.js';
import type { ToolCallTrace } from '../trace.js';
import { MAX_QUERY_CHARS } from './search-function.js';
import type { ToolSearchSettings } from './threshold.js';

/** The minimal server's 8 tools pass a limit of 5, and stay under 1 million tokens. */
const ABOVE: ToolSearchSettings = { mode: 'auto', minTools: 5, minTokens: 1_000_000 };
const BELOW: ToolSearchSettings = { mode: 'auto', minTools: 30, minTokens: 1_000_000 };

let minimal: MinimalMcpServer;
let hub: QualifiedMcpHub;
let openai: ScriptedOpenAI | undefined;

beforeAll(async () => {
  minimal = await startMinimalMcpServer();
  hub = await connectHub([{ name: 'minimal', url: minimal.url }]);
});
afterAll(async () => {
  await hub?.close();
  await minimal?.close();
});
afterEach(async () => {
  await openai?.close();
  openai = undefined;
});

async function agentWith(toolSearch: ToolSearchSettings, script: ScriptStep[]) {
  openai = await startScriptedOpenAI({ script });
  const agent = createTestAgent({ hub, model: scriptedModel(openai.baseUrl), settings: { toolSearch } });
  return { agent, openai };
}

/** The function names each request offered, request by request. */
const offered = (server: ScriptedOpenAI) =>
  server.bodies().map((body: ChatRequestBody) => (body.tools ?? []).map((tool) => tool.function.name));

const search = (query: unknown): ScriptStep => ({
  toolCalls: [{ name: 'search_tools', arguments: { query } }],
});

describe('progressive tool discovery in the agent loop', () => {
  it('offers every tool below the threshold, and no search_tools', async () => {
    const { agent, openai } = await agentWith(BELOW, [{ text: 'Hi.' }]);
    await agent.ask('Hello');
    const [first] = offered(openai);
    expect(first).toHaveLength(8);
    expect(first).not.toContain('search_tools');
  });

  it('offers only search_tools above it, then the tools found on the next request', async () => {
    const { agent, openai } = await agentWith(ABOVE, [
      search('temperature'),
      { toolCalls: [{ name: 'get_temperature', arguments: { city: 'Oslo' } }] },
      { text: 'It is 4 °C.' },
    ]);

    const result = await agent.ask('How warm is Oslo?');

    const [first, second, third] = offered(openai);
    expect(first).toEqual(['search_tools']);
    expect(second?.[0]).toBe('search_tools');
    expect(second).toContain('get_temperature');
    expect(second?.length).toBeLessThan(8);
    expect(third).toEqual(second);
    expect(result.answer).toBe('It is 4 °C.');
    const [searched, temperature] = result.toolCalls;
    expect(searched).toMatchObject({
      functionName: 'search_tools',
      isError: false,
      discovery: { query: 'temperature', found: expect.arrayContaining(['get_temperature']) },
    });
    expect(searched?.server).toBeUndefined();
    expect(searched?.tool).toBeUndefined();
    expect(searched?.sentToModel).toContain('- get_temperature: Current temperature in a city.');
    expect(temperature).toMatchObject({ functionName: 'get_temperature', server: 'minimal', isError: false });
    // What `pnpm ask` prints for the search.
    const printed = formatToolCall(searched as ToolCallTrace, 0);
    expect(printed).toContain('search_tools → tool search (the agent)');
    expect(printed).toMatch(/│ found: +get_temperature/);
  });

  it('keeps found tools offered in the next turn of the conversation', async () => {
    const { agent, openai } = await agentWith(ABOVE, [
      search('city facts'),
      { text: 'Found it.' },
      { text: 'Sure.' },
    ]);
    const first = await agent.ask('What tools tell me about cities?');
    await agent.ask('And now?', { conversationId: first.conversationId });
    const requests = offered(openai);
    expect(requests[2]).toContain('city_facts');
    expect(requests[2]).toEqual(requests[1]);
  });

  it('off offers every tool even above the limits; on searches even below them', async () => {
    const off = await agentWith({ ...ABOVE, mode: 'off' }, [{ text: 'Hi.' }]);
    await off.agent.ask('Hello');
    expect(offered(off.openai)[0]).toHaveLength(8);
    await off.openai.close();

    const on = await agentWith({ ...BELOW, mode: 'on' }, [{ text: 'Hi.' }]);
    await on.agent.ask('Hello');
    expect(offered(on.openai)[0]).toEqual(['search_tools']);
  });

  it('tells the model plainly when nothing matched, and offers nothing new', async () => {
    const { agent, openai } = await agentWith(ABOVE, [search('xylophone tuning'), { text: 'No such tool.' }]);
    const result = await agent.ask('Tune my xylophone');
    expect(result.toolCalls[0]).toMatchObject({
      isError: false,
      discovery: { query: 'xylophone tuning', found: [] },
    });
    expect(toolMessages(openai.bodies()[1] as ChatRequestBody)[0]?.content).toContain(
      'No tool matched "xylophone tuning". Try other words',
    );
    expect(offered(openai)[1]).toEqual(['search_tools']);
    expect(formatToolCall(result.toolCalls[0] as ToolCallTrace, 0)).toContain(
      'found:             (nothing matched)',
    );
  });

  it.each([
    ['a missing query', {}, 'needs "query", a string'],
    ['an empty query', { query: '  ' }, 'The query is empty'],
    ['a huge query', { query: 'x'.repeat(MAX_QUERY_CHARS + 1) }, 'keep it under'],
    ['a query that is not a string', { query: { $regex: '.*' } }, 'needs "query", a string'],
  ])('refuses %s with an error the model can act on', async (_, args, says) => {
    const { agent, openai } = await agentWith(ABOVE, [
      { toolCalls: [{ name: 'search_tools', arguments: args }] },
      { text: 'Sorry.' },
    ]);
    const result = await agent.ask('Find a tool');
    const [trace] = result.toolCalls;
    expect(trace).toMatchObject({ isError: true, problem: { kind: 'invalid_arguments' } });
    expect(trace?.discovery).toBeUndefined();
    expect(trace?.problem?.message).toContain(says);
    // What the model read: the isError JSON the loop sends for every refused call.
    const sent = toolMessages(openai.bodies()[1] as ChatRequestBody)[0]?.content ?? '{}';
    expect((JSON.parse(sent) as { error: string }).error).toContain(says);
  });

  it('runs a tool the model calls by name before finding it, and offers it from then on', async () => {
    const before = minimal.callCount('city_facts');
    const { agent, openai } = await agentWith(ABOVE, [
      { toolCalls: [{ name: 'city_facts', arguments: { city: 'Oslo' } }] },
      { text: 'Oslo is the capital.' },
    ]);
    const result = await agent.ask('Tell me about Oslo');
    expect(result.toolCalls[0]).toMatchObject({
      functionName: 'city_facts',
      server: 'minimal',
      isError: false,
    });
    expect(minimal.callCount('city_facts')).toBe(before + 1);
    expect(offered(openai)[1]).toEqual(['search_tools', 'city_facts']);
  });
});
