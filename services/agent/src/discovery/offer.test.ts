import { describe, expect, it } from 'vitest';
import { toFunctionSpecs } from '../llm/functions.js';
import type { ChatMessage } from '../llm/provider.js';
import type { DiscoveredTool } from '../types.js';
import { MAX_UNLOCKED_TOOLS, toolDiscoveryFor } from './offer.js';
import { DEFAULT_TOOL_SEARCH, type ToolSearchSettings } from './threshold.js';

function tool(name: string, description: string): DiscoveredTool {
  return { server: 'workshop', name, description, inputSchema: { type: 'object' } };
}

/**
 * 40 topics like "aaaaaa", "bbbaaa": at least 3 edits apart and none a prefix of another, so
 * even fuzzy, prefix matching finds exactly the tool of each topic.
 */
const letter = (n: number) => String.fromCharCode(97 + n);
const TOPICS = Array.from(
  { length: 40 },
  (_, i) => letter(i % 26).repeat(3) + letter(Math.floor(i / 26)).repeat(3),
);
const CATALOG = toFunctionSpecs([
  tool('get_weather', 'Current weather and forecast for a city.'),
  tool('add_task', 'Adds a task to the to-do list.'),
  ...TOPICS.map((topic) => tool(`${topic}_lookup`, `Looks up ${topic} records.`)),
]);

const ON: ToolSearchSettings = { ...DEFAULT_TOOL_SEARCH, mode: 'on' };

/** An assistant message that made these calls, as the loop keeps it in the history. */
function called(...calls: Array<[name: string, args: unknown]>): ChatMessage {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `call_${i}`,
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    })),
  };
}

const names = (specs: readonly { name: string }[]) => specs.map((spec) => spec.name);

async function discovery(settings: ToolSearchSettings = ON) {
  const found = await toolDiscoveryFor(CATALOG, settings);
  if (!found) throw new Error('discovery is off');
  return found;
}

describe('toolDiscoveryFor', () => {
  it('is off below the threshold, and on from it (42 tools, 30 by default)', async () => {
    expect(await toolDiscoveryFor(CATALOG, { ...DEFAULT_TOOL_SEARCH, minTools: 43 })).toBeUndefined();
    expect(await toolDiscoveryFor(CATALOG, DEFAULT_TOOL_SEARCH)).toBeDefined();
    expect(await toolDiscoveryFor(CATALOG, { ...DEFAULT_TOOL_SEARCH, mode: 'off' })).toBeUndefined();
  });

  it('stays off when an MCP tool is itself named search_tools', async () => {
    const taken = toFunctionSpecs([tool('search_tools', 'The server’s own search.')]);
    expect(await toolDiscoveryFor(taken, ON)).toBeUndefined();
  });

  it('offers only search_tools before anything was searched', async () => {
    expect(names((await discovery()).offer([{ role: 'user', content: 'Weather in Oslo?' }]))).toEqual([
      'search_tools',
    ]);
  });

  it('offers what a search in the history found, and what the model called by name', async () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'Weather in Oslo, then add a task' },
      called(['search_tools', { query: 'weather' }], ['add_task', { title: 'x' }]),
    ];
    expect(names((await discovery()).offer(history))).toEqual(['search_tools', 'get_weather', 'add_task']);
  });

  it('ignores bad searches and names that are no tool', async () => {
    const history = [called(['search_tools', '{"query":'], ['search_tools', { query: '' }], ['nope', {}])];
    expect(names((await discovery()).offer(history))).toEqual(['search_tools']);
  });

  it(`keeps at most ${MAX_UNLOCKED_TOOLS} found tools, the most recently found`, async () => {
    const history = TOPICS.map((topic) => called(['search_tools', { query: topic }]));
    const offered = names((await discovery()).offer(history)).slice(1);
    expect(offered).toHaveLength(MAX_UNLOCKED_TOOLS);
    expect(offered).toEqual(TOPICS.slice(-MAX_UNLOCKED_TOOLS).map((topic) => `${topic}_lookup`));
  });

  it('search returns the specs the model will call', async () => {
    const [first] = (await discovery()).search('forecast');
    expect(first).toEqual(CATALOG.resolve('get_weather')?.spec);
  });
});
