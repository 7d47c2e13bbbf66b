/**
 * Tests for the scripted OpenAI-compatible server: the `openai` client itself must read its answers,
 * streamed and not, so the agent's tests exercise the real wire format.
 */
import OpenAI, { AuthenticationError, InternalServerError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  OPENAI_401_MESSAGE,
  type ScriptedOpenAI,
  type ScriptedOpenAIOptions,
  startScriptedOpenAI,
} from './scripted-openai.js';

let server: ScriptedOpenAI | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: ScriptedOpenAIOptions): Promise<{ server: ScriptedOpenAI; client: OpenAI }> {
  server = await startScriptedOpenAI(options);
  return { server, client: new OpenAI({ apiKey: 'test-key', baseURL: server.baseUrl, maxRetries: 0 }) };
}

const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('startScriptedOpenAI', () => {
  it('streams tool calls as chunks the openai client reassembles', async () => {
    const { server, client } = await start({
      script: [
        {
          toolCalls: [
            { name: 'get_weather', arguments: { location: 'Oslo' }, id: 'call_x' },
            { name: 'noop', arguments: '' },
          ],
        },
      ],
      chunksPerField: 3,
    });
    const stream = client.chat.completions.stream({ model: 'scripted', messages, stream: true });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Oslo"}' } },
      { id: 'call_1', type: 'function', function: { name: 'noop', arguments: '' } },
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('streams text in pieces and ends with [DONE]', async () => {
    const { client } = await start({ script: [{ text: 'Hello there, friend.' }], chunksPerField: 4 });
    const stream = await client.chat.completions.create({ model: 'scripted', messages, stream: true });
    const pieces: string[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      const content = chunk.choices[0]?.delta.content;
      if (content) pieces.push(content);
    }
    expect(pieces.length).toBe(4);
    expect(pieces.join('')).toBe('Hello there, friend.');
  });

  it('answers without streaming when not asked to stream', async () => {
    const { client } = await start({
      script: [{ text: 'Plain.' }, { toolCalls: [{ name: 'f', arguments: { a: 1 }, id: 'call_f' }] }],
    });
    const text = await client.chat.completions.create({ model: 'scripted', messages });
    expect(text.object).toBe('chat.completion');
    expect(text.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Plain.' });
    const calls = await client.chat.completions.create({ model: 'scripted', messages });
    expect(calls.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_f', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
  });

  it('records every request body and lets a function choose the step', async () => {
    const { server, client } = await start({
      fallback: (body, index) => ({ text: `request ${index + 1} had ${body.messages.length} message(s)` }),
    });
    const first = await client.chat.completions.create({ model: 'scripted', messages });
    expect(first.choices[0]?.message.content).toBe('request 1 had 1 message(s)');
    await client.chat.completions.create({
      model: 'm2',
      messages: [...messages, { role: 'assistant', content: 'x' }],
    });
    expect(server.bodies().map((body) => body.model)).toEqual(['scripted', 'm2']);
  });

  it("answers a 401 with OpenAI's error body", async () => {
    const { client } = await start({ script: [{ httpError: 401 }] });
    const error = await client.chat.completions
      .create({ model: 'scripted', messages })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('invalid_api_key');
    expect((error as AuthenticationError).message).toContain(OPENAI_401_MESSAGE);
  });

  it('answers a 500 once the script has run out', async () => {
    const { client } = await start({ script: [] });
    const error = await client.chat.completions
      .create({ model: 'scripted', messages })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toContain('the script ran out at request 1');
  });
});
