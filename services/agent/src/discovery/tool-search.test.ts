import { describe, expect, it } from 'vitest';
import { toFunctionSpecs } from '../llm/functions.js';
import type { DiscoveredTool } from '../types.js';
import { MAX_FOUND_PER_SEARCH, nameWords, toolIndexFor } from './tool-search.js';

function tool(name: string, description: string, title?: string): DiscoveredTool {
  return { server: 'workshop', name, description, inputSchema: { type: 'object' }, ...(title && { title }) };
}

const TOOLS: DiscoveredTool[] = [
  tool('get_weather', 'Current conditions and a forecast of up to 7 days for a city.', 'Weather'),
  tool('get_time', 'The current time and date in an IANA time zone.'),
  tool('calculate', 'Evaluates an arithmetic expression such as 2 * (3 + 4).'),
  tool('add_task', 'Adds a task to the to-do list and returns it with its id.'),
  tool('list_tasks', 'Lists the tasks on the to-do list, open ones first.'),
  tool('convertCurrency', 'Converts an amount of money between two currencies at the day rate.'),
];

const search = (query: string) => toolIndexFor(toFunctionSpecs(TOOLS)).search(query);

describe('toolIndexFor', () => {
  it('finds a tool by a word of its name, best first', () => {
    expect(search('weather')[0]).toBe('get_weather');
    expect(search('tasks')).toEqual(expect.arrayContaining(['add_task', 'list_tasks']));
  });

  it('finds a tool by words of its description only', () => {
    expect(search('arithmetic expression')[0]).toBe('calculate');
    expect(search('time zone')[0]).toBe('get_time');
  });

  it('matches prefixes and small typos', () => {
    expect(search('forec')[0]).toBe('get_weather');
    expect(search('wether')[0]).toBe('get_weather');
  });

  it('splits camelCase names into words', () => {
    expect(search('currency')[0]).toBe('convertCurrency');
    expect(nameWords('convertCurrency')).toBe('convert currency');
    expect(nameWords('weather.forecast-daily_v2')).toBe('weather forecast daily v2');
  });

  it('ranks a name hit above a description hit', () => {
    const tools = [
      tool('note_add', 'Writes down what the weather was like today in a diary.'),
      tool('weather_now', 'Conditions outside.'),
    ];
    expect(toolIndexFor(toFunctionSpecs(tools)).search('weather')).toEqual(['weather_now', 'note_add']);
  });

  it('finds nothing for words no tool has, or for stopwords alone', () => {
    expect(search('xylophone')).toEqual([]);
    expect(search('what is the')).toEqual([]);
    expect(search('')).toEqual([]);
  });

  it(`returns at most ${MAX_FOUND_PER_SEARCH} tools`, () => {
    const many = Array.from({ length: 12 }, (_, i) => tool(`report_${i}`, 'Builds a sales report.'));
    expect(toolIndexFor(toFunctionSpecs(many)).search('sales report')).toHaveLength(MAX_FOUND_PER_SEARCH);
  });

  it('treats regex and markup characters as plain text', () => {
    expect(search('.*( [weather] <script>')).toContain('get_weather');
    expect(search('\\u0000 ((((')).toEqual([]);
  });

  it('builds one index per tool list, and a new one when the list changes', () => {
    const catalog = toFunctionSpecs(TOOLS);
    expect(toolIndexFor(catalog)).toBe(toolIndexFor(catalog));
    const grown = toFunctionSpecs([...TOOLS, tool('book_flight', 'Books a flight.')]);
    expect(toolIndexFor(grown)).not.toBe(toolIndexFor(catalog));
    expect(toolIndexFor(grown).search('flight')).toEqual(['book_flight']);
  });
});
