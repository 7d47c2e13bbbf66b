import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import {
  applyChatChunk,
  createChatTurnState,
  finishChatTurn,
  toChatParams,
  toChatTools,
} from './openai-chat.js';
import type { FunctionSpec } from './provider.js';

const weather: FunctionSpec = {
  name: 'get_weather',
  description: 'Weather for a place.',
  parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
  strict: true,
};

function chunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  } satisfies ChatCompletionChunk;
}

describe('toChatParams', () => {
  it('streams, and offers tools with tool_choice auto only when there are functions', () => {
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    const streaming = { stream: true };
    expect(toChatParams('m', { messages, functions: [] })).toEqual({ model: 'm', messages, ...streaming });
    // With telemetry on, the stream is asked for a last chunk of token usage.
    expect(toChatParams('m', { messages, functions: [] }, true)).toEqual({
      model: 'm',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(
      toChatParams('m', { messages, functions: [weather, { ...weather, name: 'loose', strict: false }] }),
    ).toEqual({
      model: 'm',
      messages,
      ...streaming,
      tool_choice: 'auto',
      tools: [
        { type: 'function', function: { ...weather } },
        { type: 'function', function: { ...weather, name: 'loose', strict: false } },
      ],
    });
  });

  it('keeps strict explicit even when false', () => {
    const [tool] = toChatTools([{ ...weather, strict: false }]);
    expect(tool?.function).toHaveProperty('strict', false);
  });
});

describe('applyChatChunk', () => {
  it('assembles text and returns each piece', () => {
    const state = createChatTurnState();
    expect(applyChatChunk(state, chunk({ role: 'assistant', content: '' }))).toBe('');
    expect(applyChatChunk(state, chunk({ content: 'Hel' }))).toBe('Hel');
    expect(applyChatChunk(state, chunk({ content: 'lo' }))).toBe('lo');
    expect(applyChatChunk(state, chunk({}, 'stop'))).toBe('');
    expect(finishChatTurn(state)).toEqual({
      text: 'Hello',
      toolCalls: [],
      report: { responseId: 'chatcmpl-1', responseModel: 'm', finishReason: 'stop' },
    });
  });

  it('reports the usage chunk that include_usage asks for, and keeps the last finish reason', () => {
    const state = createChatTurnState();
    applyChatChunk(state, chunk({ content: 'Hi' }, 'stop'));
    applyChatChunk(state, {
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    });
    expect(finishChatTurn(state).report).toEqual({
      responseId: 'chatcmpl-1',
      responseModel: 'm',
      finishReason: 'stop',
      inputTokens: 42,
      outputTokens: 7,
    });
  });

  it('ignores a usage chunk whose counts are not whole numbers', () => {
    const state = createChatTurnState();
    applyChatChunk(state, {
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: -0.5, completion_tokens: Number.NaN, total_tokens: 0 },
    });
    expect(finishChatTurn(state).report).not.toHaveProperty('inputTokens');
  });

  it('assembles tool calls split across chunks, by index', () => {
    const state = createChatTurnState();
    const pieces: ChatCompletionChunk.Choice.Delta[] = [
      {
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"loc' } }] },
      {
        tool_calls: [
          { index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"tz":' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: 'ation":"Oslo"}' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '"UTC"}' } }] },
    ];
    for (const delta of pieces) applyChatChunk(state, chunk(delta));
    applyChatChunk(state, chunk({}, 'tool_calls'));
    expect(finishChatTurn(state)).toEqual({
      text: '',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: '{"location":"Oslo"}' },
        { id: 'call_b', name: 'get_time', arguments: '{"tz":"UTC"}' },
      ],
      report: { responseId: 'chatcmpl-1', responseModel: 'm', finishReason: 'tool_calls' },
    });
  });

  it('gives an id to a call that came without one, and drops empty calls', () => {
    const state = createChatTurnState();
    applyChatChunk(state, chunk({ tool_calls: [{ index: 0, function: { name: 'ping', arguments: '{}' } }] }));
    applyChatChunk(state, chunk({ tool_calls: [{ index: 1 }] }));
    expect(finishChatTurn(state, () => 'call_generated').toolCalls).toEqual([
      { id: 'call_generated', name: 'ping', arguments: '{}' },
    ]);
  });

  it('ignores chunks without choices (usage chunks) and counts what it received', () => {
    const state = createChatTurnState();
    applyChatChunk(state, { ...chunk({}), choices: [] });
    applyChatChunk(state, chunk({ content: 'abc' }));
    expect(state.size).toBe(3);
  });
});
