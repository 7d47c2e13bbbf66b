import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import {
  applyResponsesEvent,
  createResponsesTurnState,
  finishResponsesTurn,
  toResponsesInput,
  toResponsesParams,
  toResponsesTools,
} from './openai-responses.js';
import type { ChatMessage, FunctionSpec } from './provider.js';

const weather: FunctionSpec = {
  name: 'get_weather',
  description: 'Weather for a place.',
  parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
  strict: true,
};

function finalResponse(output: Response['output']): Response {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    model: 'm',
    output,
    output_text: '',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    status: 'completed',
  };
}

const textDelta = (delta: string): ResponseStreamEvent => ({
  type: 'response.output_text.delta',
  item_id: 'msg_1',
  output_index: 0,
  content_index: 0,
  delta,
  logprobs: [],
  sequence_number: 1,
});

describe('toResponsesInput', () => {
  it('maps a whole tool-calling conversation to input items', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperatureC":12}' },
      { role: 'assistant', content: '12 °C.' },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { type: 'message', role: 'system', content: 'Be brief.' },
      { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      { type: 'message', role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temperatureC":12}' },
      { type: 'message', role: 'assistant', content: '12 °C.' },
    ]);
  });

  it('leaves out an empty assistant message and joins text parts', () => {
    const messages: ChatMessage[] = [
      {
        role: 'developer',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'done' }] },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { type: 'message', role: 'developer', content: 'ab' },
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: 'done' },
    ]);
  });

  it('maps user content parts to input parts', () => {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ];
    expect(toResponsesInput(messages)).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        ],
      },
    ]);
  });

  it('throws for the legacy function role, which the agent never writes', () => {
    expect(() => toResponsesInput([{ role: 'function', name: 'f', content: 'x' }])).toThrow(/function/);
  });
});

describe('toResponsesParams', () => {
  it('streams without storing, with flat function tools and explicit strict', () => {
    const params = toResponsesParams('m', {
      messages: [{ role: 'user', content: 'Hi' }],
      functions: [weather, { ...weather, name: 'loose', strict: false }],
    });
    expect(params).toEqual({
      model: 'm',
      input: [{ type: 'message', role: 'user', content: 'Hi' }],
      stream: true,
      store: false,
      tool_choice: 'auto',
      tools: toResponsesTools([weather, { ...weather, name: 'loose', strict: false }]),
    });
    expect(params.tools?.[1]).toEqual({ type: 'function', ...weather, name: 'loose', strict: false });
  });

  it('sends no tools when there are no functions', () => {
    const params = toResponsesParams('m', { messages: [], functions: [] });
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('tool_choice');
  });
});

describe('applyResponsesEvent', () => {
  const call: ResponseOutputItem = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: '{"location":"Oslo"}',
    status: 'completed',
  };
  const message = (text: string): ResponseOutputItem => ({
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  });

  it('assembles text deltas and function calls from output_item.done, without doubling them from the final response', () => {
    const state = createResponsesTurnState();
    expect(applyResponsesEvent(state, textDelta('Hel'))).toBe('Hel');
    expect(applyResponsesEvent(state, textDelta('lo'))).toBe('lo');
    applyResponsesEvent(state, {
      type: 'response.output_item.done',
      item: call,
      output_index: 1,
      sequence_number: 5,
    });
    applyResponsesEvent(state, {
      type: 'response.completed',
      response: finalResponse([message('Hello'), call]),
      sequence_number: 6,
    });
    expect(finishResponsesTurn(state)).toEqual({
      text: 'Hello',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"location":"Oslo"}' }],
      report: { responseId: 'resp_1', responseModel: 'm', finishReason: 'completed' },
    });
  });

  it('takes text and calls from the final response when a server sent no item events', () => {
    const state = createResponsesTurnState();
    const text = applyResponsesEvent(state, {
      type: 'response.completed',
      response: finalResponse([message('All at once.'), call]),
      sequence_number: 1,
    });
    expect(text).toBe('All at once.');
    expect(finishResponsesTurn(state).toolCalls).toHaveLength(1);
  });

  it('records a failure from response.failed or an error event', () => {
    const failed = createResponsesTurnState();
    applyResponsesEvent(failed, {
      type: 'response.failed',
      response: { ...finalResponse([]), error: { code: 'server_error', message: 'The model crashed.' } },
      sequence_number: 2,
    });
    expect(failed.failure).toBe('The model crashed.');
    const errored = createResponsesTurnState();
    applyResponsesEvent(errored, {
      type: 'error',
      code: 'x',
      message: 'Bad things.',
      param: null,
      sequence_number: 1,
    });
    expect(errored.failure).toBe('Bad things.');
  });
});
