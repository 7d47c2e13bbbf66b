import { describe, expect, it } from 'vitest';
import type { FunctionSpec } from '../llm/provider.js';
import {
  MAX_FOUND_DESCRIPTION_CHARS,
  MAX_QUERY_CHARS,
  parseSearchArguments,
  SEARCH_TOOLS_SPEC,
  searchResultText,
} from './search-function.js';

const spec = (name: string, description: string): FunctionSpec => ({
  name,
  description,
  parameters: { type: 'object' },
  strict: false,
});

describe('SEARCH_TOOLS_SPEC', () => {
  it('takes one required string, query, in strict mode', () => {
    expect(SEARCH_TOOLS_SPEC.name).toBe('search_tools');
    expect(SEARCH_TOOLS_SPEC.strict).toBe(true);
    expect(SEARCH_TOOLS_SPEC.parameters).toMatchObject({
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    });
  });
});

describe('parseSearchArguments', () => {
  it('accepts a query and trims it', () => {
    expect(parseSearchArguments('{"query":"  weather in Oslo "}')).toEqual({
      ok: true,
      query: 'weather in Oslo',
    });
  });

  it('turns control characters into spaces', () => {
    expect(parseSearchArguments(JSON.stringify({ query: 'add\u0000task\u001b[2J' }))).toEqual({
      ok: true,
      query: 'add task [2J',
    });
  });

  it.each([
    ['no arguments', '', 'needs "query", a string'],
    ['invalid JSON', '{"query":', 'not valid JSON'],
    ['an array', '["weather"]', 'needs "query", a string'],
    ['a number', '{"query":42}', 'needs "query", a string'],
    ['null', '{"query":null}', 'needs "query", a string'],
    ['an empty query', '{"query":"   "}', 'The query is empty'],
    ['only control characters', JSON.stringify({ query: '\u0000\u0007' }), 'The query is empty'],
  ])('refuses %s with a message that says how to call it', (_, raw, says) => {
    const checked = parseSearchArguments(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.message).toContain(says);
      expect(checked.message).toContain('Call search_tools again with {"query":');
    }
  });

  it(`refuses a query over ${MAX_QUERY_CHARS} characters, saying how long it was`, () => {
    const checked = parseSearchArguments(JSON.stringify({ query: 'weather '.repeat(100) }));
    expect(checked).toEqual({ ok: false, message: expect.stringContaining('800 characters') });
    expect(parseSearchArguments(JSON.stringify({ query: 'w'.repeat(MAX_QUERY_CHARS) })).ok).toBe(true);
  });
});

describe('searchResultText', () => {
  it('names each tool found with its description, cut short', () => {
    const text = searchResultText('weather', [
      spec('get_weather', 'Current weather\nand forecast.'),
      spec('long_one', 'x'.repeat(500)),
    ]);
    expect(text).toContain('Found 2 tool(s); call them by name:');
    expect(text).toContain('- get_weather: Current weather and forecast.');
    const long = text.split('\n').find((line) => line.startsWith('- long_one'));
    expect(long?.length).toBe('- long_one: '.length + MAX_FOUND_DESCRIPTION_CHARS);
  });

  it('says plainly when nothing matched and what to try', () => {
    const text = searchResultText('xylophone', []);
    expect(text).toMatch(/^No tool matched "xylophone"\. Try other words/);
  });
});
