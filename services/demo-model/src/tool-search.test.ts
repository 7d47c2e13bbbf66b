/**
 * Tests for `tool-search.ts` and how `planTurn` uses a tool search: search when nothing offered
 * fits, plan with what the search found on the next round, never search twice for one message.
 */
import { describe, expect, it } from 'vitest';
import { planTurn } from './planner.js';
import {
  MAX_QUERY_CHARS,
  MAX_QUERY_WORDS,
  searchParameter,
  searchQuery,
  withoutSearches,
} from './tool-search.js';
import type { PlannerMessage, PlannerTool } from './types.js';

/** Shaped like the workshop agent's `search_tools` (strict mode), but defined here. */
const SEARCH: PlannerTool = {
  name: 'search_tools',
  description: 'Find the tools for a request.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'A few words.' } },
    required: ['query'],
    additionalProperties: false,
  },
};

const WEATHER: PlannerTool = {
  name: 'get_weather',
  description: 'Current weather and a forecast for a city.',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name, e.g. "Oslo".' } },
    required: ['location'],
  },
};

const NOTES: PlannerTool = {
  name: 'add_note',
  description: 'Saves a short note.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

const user = (content: string): PlannerMessage => ({ role: 'user', content });
const searchCall = (id: string, query: string): PlannerMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    { id, type: 'function', function: { name: 'search_tools', arguments: JSON.stringify({ query }) } },
  ],
});
const toolResult = (id: string, content: string): PlannerMessage => ({
  role: 'tool',
  tool_call_id: id,
  content,
});

describe('searchParameter', () => {
  it('recognises a search over tools by its shape, and names its parameter', () => {
    expect(searchParameter(SEARCH)).toBe('query');
    expect(
      searchParameter({
        name: 'findTools',
        parameters: { type: 'object', properties: { q: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
      }),
    ).toBe('q');
  });

  it('leaves alone a search that is not over tools, or takes more than one string', () => {
    expect(searchParameter({ ...SEARCH, name: 'search_flights' })).toBeUndefined();
    expect(searchParameter(WEATHER)).toBeUndefined();
    const twoParameters = {
      ...SEARCH,
      parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
    };
    expect(searchParameter(twoParameters)).toBeUndefined();
    const numeric = { ...SEARCH, parameters: { type: 'object', properties: { query: { type: 'number' } } } };
    expect(searchParameter(numeric)).toBeUndefined();
  });
});

describe('searchQuery', () => {
  it('keeps content words, adds the concept a word stands for, drops stopwords and numbers', () => {
    expect(searchQuery('How warm is it in Paris right now?')).toBe('warm weather paris');
    expect(searchQuery('Please add 3 tasks')).toBe('add tasks task');
  });

  it('is empty for a message with no content words', () => {
    expect(searchQuery('Thanks, that is all for now.')).toBe('');
  });

  it(`keeps at most ${MAX_QUERY_WORDS} words and ${MAX_QUERY_CHARS} characters`, () => {
    const many = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}x`).join(' ');
    expect(searchQuery(many).split(' ')).toHaveLength(MAX_QUERY_WORDS);
    expect(searchQuery('z'.repeat(500)).length).toBe(MAX_QUERY_CHARS);
  });
});

describe('withoutSearches', () => {
  it('drops the search calls and their results, and says whether this message was searched', () => {
    const history = [
      user('Weather in Oslo?'),
      searchCall('s1', 'weather oslo'),
      toolResult('s1', 'Found 1 tool'),
    ];
    expect(withoutSearches(history, 'search_tools')).toEqual({
      messages: [user('Weather in Oslo?')],
      searched: true,
    });
  });

  it('counts a search for an earlier message as not this one', () => {
    const history = [
      user('Weather?'),
      searchCall('s1', 'weather'),
      toolResult('s1', '…'),
      user('And a note?'),
    ];
    expect(withoutSearches(history, 'search_tools')).toEqual({
      messages: [user('Weather?'), user('And a note?')],
      searched: false,
    });
  });
});

describe('planTurn with a tool search offered', () => {
  it('searches with the content words when no offered tool fits', () => {
    expect(planTurn({ messages: [user('What is the weather in Oslo?')], tools: [SEARCH] })).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'search_tools', arguments: { query: 'weather oslo' } }],
    });
  });

  it('on the next round, picks among the tools found, as usual', () => {
    const messages = [
      user('What is the weather in Oslo?'),
      searchCall('s1', 'weather oslo'),
      toolResult('s1', 'Found'),
    ];
    expect(planTurn({ messages, tools: [SEARCH, WEATHER] })).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'get_weather', arguments: { location: 'Oslo' } }],
    });
  });

  it('uses a tool already offered that fits, without searching', () => {
    const plan = planTurn({ messages: [user('Weather in Oslo?')], tools: [SEARCH, NOTES, WEATHER] });
    expect(plan).toEqual({
      kind: 'tool_calls',
      calls: [{ name: 'get_weather', arguments: { location: 'Oslo' } }],
    });
  });

  it('never searches twice for one message: what was found does not fit, so it answers', () => {
    const messages = [
      user('What is the weather in Oslo?'),
      searchCall('s1', 'weather oslo'),
      toolResult('s1', 'Found'),
    ];
    const plan = planTurn({ messages, tools: [SEARCH, NOTES] });
    expect(plan.kind).toBe('answer');
  });

  it('answers when the search found nothing, naming the search it has', () => {
    const messages = [
      user('Tune my xylophone'),
      searchCall('s1', 'tune xylophone'),
      toolResult('s1', 'No tool matched'),
    ];
    const plan = planTurn({ messages, tools: [SEARCH] });
    expect(plan).toMatchObject({ kind: 'answer', text: expect.stringContaining('search_tools') });
    expect(plan.kind === 'answer' && plan.text).toContain('could not match');
  });

  it('answers a message with no content words without searching', () => {
    expect(planTurn({ messages: [user('Thanks, that is all for now.')], tools: [SEARCH] }).kind).toBe(
      'answer',
    );
  });

  it('after the found tool ran, answers with its result', () => {
    const messages: PlannerMessage[] = [
      user('What is the weather in Oslo?'),
      searchCall('s1', 'weather oslo'),
      toolResult('s1', 'Found'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'w1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo"}' } },
        ],
      },
      toolResult('w1', '{"place":"Oslo","temperatureC":4}'),
    ];
    const plan = planTurn({ messages, tools: [SEARCH, WEATHER] });
    expect(plan.kind).toBe('answer');
    expect(plan.kind === 'answer' && plan.text).toContain('Oslo');
  });
});
