import { countTokens as cl100kCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, FunctionSpec } from './provider.js';
import {
  countRequestTokens,
  countTokens,
  countToolTokens,
  encodingFor,
  functionWireJson,
  loadTokenizer,
} from './tokens.js';

const weather: FunctionSpec = {
  name: 'get_weather',
  description: 'Get the current weather and a forecast for a city.',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name, e.g. "Oslo".' } },
    required: ['location'],
    additionalProperties: false,
  },
  strict: true,
};
const time: FunctionSpec = {
  name: 'get_time',
  description: 'Get the local time in an IANA time zone.',
  parameters: { type: 'object', properties: {} },
  strict: false,
};

describe('encodingFor', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['GPT-5', 'o200k_base'],
    ['o1-mini', 'o200k_base'],
    ['o3', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
  ])('maps %s to %s', (model, encoding) => {
    expect(encodingFor(model)).toBe(encoding);
  });

  it('falls back to o200k_base for models that are not OpenAI’s, or names that only look alike', () => {
    for (const model of ['llama3.1:8b', 'qwen2.5', 'demo', '', 'o10-lab', 'gpt-40x']) {
      expect(encodingFor(model)).toBe('o200k_base');
    }
  });
});

describe('countTokens', () => {
  it('counts with the encoding asked for, exactly as gpt-tokenizer does', async () => {
    const text = 'Größe: 12 Äpfel — “quoted” 東京 🌦️ indentation\n\tthere';
    const o200k = await loadTokenizer('o200k_base');
    const cl100k = await loadTokenizer('cl100k_base');
    expect(countTokens(text, o200k)).toBe(o200kCount(text));
    expect(countTokens(text, cl100k)).toBe(cl100kCount(text));
    // The two encodings split this text differently, so a mix-up would show.
    expect(o200kCount(text)).not.toBe(cl100kCount(text));
    expect(o200k.encoding).toBe('o200k_base');
  });

  it('counts text that looks like a special token as plain text instead of throwing', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    const text = 'before <|endoftext|> after';
    expect(() => o200kCount(text)).toThrow(/special token/);
    expect(countTokens(text, tokenizer)).toBe(o200kCount(text, { disallowedSpecial: new Set() }));
    expect(countTokens(text, tokenizer)).toBeGreaterThan(3);
  });

  it('loads each encoding once', () => {
    expect(loadTokenizer('cl100k_base')).toBe(loadTokenizer('cl100k_base'));
  });
});

describe('countToolTokens', () => {
  it('counts each function as the JSON the agent sends, and sums them', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    const json = JSON.stringify({
      type: 'function',
      function: {
        name: weather.name,
        description: weather.description,
        parameters: weather.parameters,
        strict: true,
      },
    });
    expect(functionWireJson(weather)).toBe(json);
    const counted = countToolTokens([weather, time], tokenizer);
    expect(counted.perTool).toEqual([
      { tool: 'get_weather', tokens: o200kCount(json) },
      { tool: 'get_time', tokens: o200kCount(functionWireJson(time)) },
    ]);
    expect(counted.total).toBe(o200kCount(json) + o200kCount(functionWireJson(time)));
  });

  it('leaves out fields a spec object carries beyond the wire format', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    const extra = { ...weather, internal: 'x'.repeat(5000) } as FunctionSpec;
    expect(countToolTokens([extra], tokenizer).total).toBe(countToolTokens([weather], tokenizer).total);
  });

  it('is zero for no functions', async () => {
    expect(countToolTokens([], await loadTokenizer('o200k_base'))).toEqual({ perTool: [], total: 0 });
  });
});

describe('countRequestTokens', () => {
  it('adds the messages as sent to the functions', async () => {
    const tokenizer = await loadTokenizer('cl100k_base');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'What is the weather in Oslo?' },
    ];
    const expected =
      cl100kCount(JSON.stringify(messages[0])) +
      cl100kCount(JSON.stringify(messages[1])) +
      countToolTokens([weather], tokenizer).total;
    expect(countRequestTokens(messages, [weather], tokenizer)).toBe(expected);
    expect(countRequestTokens(messages, [], tokenizer)).toBeLessThan(expected);
  });
});
