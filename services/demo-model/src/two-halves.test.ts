/**
 * A question with two halves for two tools ("the weather in Paris and what time is it there?"),
 * through the real `openai` client against the demo model on a loopback port: both tools are
 * called, or the answer names the half it could not do. Never one half in silence.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemoModel, startDemoModel } from './start.js';

/** The catalogue's get_weather and get_time, as the agent offers them (descriptions abridged). */
const TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description:
        'Get the current weather and a daily forecast (1–7 days, default 3) for a city. Returns the place, ' +
        'current conditions (temperature, feels-like, humidity, wind) and min/max/precipitation per day.',
      parameters: {
        type: 'object',
        properties: {
          location: {
            type: 'string',
            description:
              'City name, optionally followed by a comma and the country name or ISO code, e.g. "Oslo", "Bergen, Norway" or "Paris, FR".',
          },
          days: {
            type: 'integer',
            description: 'Number of forecast days, starting today, 1–7. Defaults to 3.',
          },
        },
        required: ['location'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_time',
      description:
        'Get the current local date and time in an IANA time zone. Use it for "what time is it in ..." questions. ' +
        'Pass a zone such as "Asia/Tokyo", not a city name.',
      parameters: {
        type: 'object',
        properties: {
          timezone: {
            type: 'string',
            description:
              'IANA time zone name, e.g. "Europe/Oslo", "America/New_York" or "UTC". Not a city name or offset.',
          },
        },
        required: ['timezone'],
      },
    },
  },
];

const RESULTS: Record<string, string> = {
  get_weather: JSON.stringify({
    place: { name: 'Paris' },
    current: { temperatureC: 11, conditions: 'Overcast' },
  }),
  get_time: JSON.stringify({ timezone: 'Europe/Paris', time: '14:05:00', weekday: 'Monday' }),
};

let demo: RunningDemoModel;
let client: OpenAI;

beforeAll(async () => {
  demo = await startDemoModel({ port: 0 });
  client = new OpenAI({ apiKey: 'unused', baseURL: demo.url, maxRetries: 0 });
});

afterAll(async () => {
  await demo.close();
});

/** Bounds the conversation the way the agent's tool loop does: a model that never answers is a bug. */
const MAX_ROUNDS = 4;

/** Asks `question`, answers every tool call with RESULTS, and returns the calls made and the answer. */
async function converse(question: string) {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
  const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages,
      tools: TOOLS,
    });
    const message = completion.choices[0]?.message;
    if (!message?.tool_calls?.length) return { calls, answer: message?.content ?? '' };
    messages.push(message);
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      calls.push({ name: call.function.name, arguments: JSON.parse(call.function.arguments) });
      messages.push({ role: 'tool', tool_call_id: call.id, content: RESULTS[call.function.name] ?? '{}' });
    }
  }
  throw new Error(`no answer after ${MAX_ROUNDS} rounds`);
}

describe('a question for two tools', () => {
  it('calls the weather and the time for "there", the place named in the first half', async () => {
    const { calls, answer } = await converse("What's the weather in Paris and what time is it there?");
    expect(calls).toEqual([
      { name: 'get_weather', arguments: expect.objectContaining({ location: 'Paris' }) },
      { name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
    ]);
    expect(answer).toContain('get_weather');
    expect(answer).toContain('get_time');
  });

  it('says which half it could not do, and does the other', async () => {
    const { calls, answer } = await converse("What's the weather in Paris and what time is it on the moon?");
    expect(calls).toEqual([
      { name: 'get_weather', arguments: expect.objectContaining({ location: 'Paris' }) },
    ]);
    expect(answer).toMatch(/did not do/i);
    expect(answer).toContain('what time is it on the moon');
    expect(answer).toContain('get_time');
    expect(answer).toContain('timezone');
  });
});
