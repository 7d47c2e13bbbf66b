/**
 * Tests for `server.ts` and `start.ts`: the real `openai` client against the demo model on a
 * loopback port — models, Chat Completions and Responses, streaming or not, a full tool round
 * trip — and raw HTTP for the error shapes, the body limit and hostile input.
 */
import OpenAI, { BadRequestError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type {
  FunctionTool,
  ResponseInputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './server.js';
import { type RunningDemoModel, startDemoModel } from './start.js';
import { DEMO_LABEL, DEMO_MODEL_ID, DEMO_MODEL_OWNER } from './types.js';

const weatherParameters = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'City name, e.g. "Oslo".' },
    days: { type: 'integer', description: 'Number of forecast days, 1–7.' },
  },
  required: ['location'],
};
const CHAT_TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Get the current weather for a city.',
      parameters: weatherParameters,
    },
  },
  {
    type: 'function',
    function: {
      name: 'add_task',
      description: "Add a task to the user's task list.",
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    },
  },
];
const RESPONSES_TOOLS: FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Get the current weather for a city.',
    parameters: weatherParameters,
    strict: false,
  },
];
const WEATHER_RESULT = JSON.stringify({
  place: { name: 'Oslo' },
  current: { temperatureC: 4.2, conditions: 'Light rain' },
});

let demo: RunningDemoModel;
let client: OpenAI;

beforeAll(async () => {
  demo = await startDemoModel({ port: 0 });
  client = new OpenAI({ apiKey: 'unused', baseURL: demo.url, maxRetries: 0 });
});

afterAll(async () => {
  await demo.close();
});

/** A raw POST, for what the client would refuse to send. */
function post(path: string, body: string, contentType = 'application/json') {
  return fetch(`${demo.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
}

async function expectOpenAIError(response: Response, status: number) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error).toEqual({
    message: expect.any(String),
    type: 'invalid_request_error',
    param: body.error.param ?? null,
    code: body.error.code ?? null,
  });
  return body.error;
}

describe('startDemoModel', () => {
  it('serves on loopback with a base URL ending in /v1', () => {
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('answers /health', async () => {
    const response = await fetch(new URL('/health', demo.url));
    expect(await response.json()).toMatchObject({ status: 'ok', model: DEMO_MODEL_ID });
  });
});

describe('GET /v1/models', () => {
  it('lists the one scripted model, labelled as not a language model', async () => {
    const models = await client.models.list();
    expect(models.data).toEqual([
      { id: DEMO_MODEL_ID, object: 'model', created: expect.any(Number), owned_by: DEMO_MODEL_OWNER },
    ]);
  });

  it('reports its own model for any requested name', async () => {
    expect((await client.models.retrieve('gpt-4.1-mini')).id).toBe(DEMO_MODEL_ID);
  });
});

describe('POST /v1/chat/completions', () => {
  it('returns a tool call with a call_ id and JSON arguments, whatever model was asked for', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'What is the weather in Oslo for 2 days?' }],
      tools: CHAT_TOOLS,
    });
    expect(completion.model).toBe(DEMO_MODEL_ID);
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      location: 'Oslo',
      days: 2,
    });
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams tool calls in pieces that assemble into valid JSON', async () => {
    const stream = await client.chat.completions.create({
      model: 'any',
      messages: [{ role: 'user', content: 'weather in Oslo and Bergen' }],
      tools: CHAT_TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls: Array<{ id: string; name: string; arguments: string; pieces: number }> = [];
    let finish: string | null = null;
    let usage = 0;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage.total_tokens;
      const choice = chunk.choices[0];
      if (choice?.finish_reason) finish = choice.finish_reason;
      for (const delta of choice?.delta.tool_calls ?? []) {
        const call = calls[delta.index] ?? { id: '', name: '', arguments: '', pieces: 0 };
        calls[delta.index] = call;
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) {
          call.arguments += delta.function.arguments;
          call.pieces += 1;
        }
      }
    }
    expect(finish).toBe('tool_calls');
    expect(usage).toBeGreaterThan(0);
    expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['get_weather', { location: 'Oslo' }],
      ['get_weather', { location: 'Bergen' }],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(calls.every((call) => /^call_/.test(call.id) && call.pieces > 1)).toBe(true);
  });

  it('completes a round trip: question, tool call, result, an answer quoting the result', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const first = await client.chat.completions.create({ model: 'x', messages, tools: CHAT_TOOLS });
    const assistant = first.choices[0]?.message;
    const call = assistant?.tool_calls?.[0];
    if (!assistant || !call) throw new Error('expected a tool call');
    messages.push(assistant, { role: 'tool', tool_call_id: call.id, content: WEATHER_RESULT });

    const stream = await client.chat.completions.create({
      model: 'x',
      messages,
      tools: CHAT_TOOLS,
      stream: true,
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) deltas.push(content);
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    const text = deltas.join('');
    expect(deltas.length).toBeGreaterThan(3);
    expect(finish).toBe('stop');
    expect(text).toContain('temperatureC 4.2');
    expect(text).toContain('"Light rain"');
    expect(text.endsWith(DEMO_LABEL)).toBe(true);
  });

  it('answers with help text when no tools are offered', async () => {
    const completion = await client.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(completion.choices[0]?.message.content).toContain('not a language model');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('honours tool_choice "none" and a named function', async () => {
    const none = await client.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content: 'weather in Oslo' }],
      tools: CHAT_TOOLS,
      tool_choice: 'none',
    });
    expect(none.choices[0]?.message.tool_calls).toBeUndefined();
    const named = await client.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content: 'weather in Oslo' }],
      tools: CHAT_TOOLS,
      tool_choice: { type: 'function', function: { name: 'add_task' } },
    });
    expect(named.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it('rejects an invalid message with a BadRequestError naming the parameter', async () => {
    const error = await client.chat.completions
      .create({ model: 'x', messages: [{ role: 'tool', content: 'orphan' } as ChatCompletionMessageParam] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe('messages[0].tool_call_id');
  });

  it('stays up when a client aborts a stream halfway', async () => {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'x', messages: [{ role: 'user', content: 'hello there' }], stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    // The client ends the iteration quietly on abort; the help text would take ~20 chunks.
    for await (const _chunk of stream) {
      received += 1;
      controller.abort();
    }
    expect(received).toBeLessThan(5);
    expect((await client.models.list()).data).toHaveLength(1);
  });
});

describe('POST /v1/responses', () => {
  it('streams a function call, then an answer, in the Responses event format', async () => {
    const input: ResponseInputItem[] = [{ role: 'user', content: 'What is the weather in Oslo?' }];
    const first = await client.responses.create({
      model: 'x',
      instructions: 'Be brief.',
      input,
      tools: RESPONSES_TOOLS,
      stream: true,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of first) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      ...events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.type),
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const done = events.find((event) => event.type === 'response.output_item.done');
    const call =
      done?.type === 'response.output_item.done' && done.item.type === 'function_call'
        ? done.item
        : undefined;
    if (!call) throw new Error('expected a function call');
    expect(call.call_id).toMatch(/^call_/);
    expect(JSON.parse(call.arguments)).toEqual({ location: 'Oslo' });

    input.push(
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: WEATHER_RESULT },
    );
    const second = client.responses.stream({ model: 'x', input, tools: RESPONSES_TOOLS });
    let streamed = '';
    second.on('response.output_text.delta', (event) => {
      streamed += event.delta;
    });
    const final = await second.finalResponse();
    expect(final.model).toBe(DEMO_MODEL_ID);
    expect(final.output_text).toBe(streamed);
    expect(streamed).toContain('temperatureC 4.2');
    expect(streamed.endsWith(DEMO_LABEL)).toBe(true);
  });

  it('answers without streaming too', async () => {
    const response = await client.responses.create({
      model: 'x',
      input: 'weather in Bergen',
      tools: RESPONSES_TOOLS,
    });
    expect(response.status).toBe('completed');
    expect(response.output[0]).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      arguments: '{"location":"Bergen"}',
    });
    const help = await client.responses.create({ model: 'x', input: 'hello' });
    expect(help.output_text).toContain('offline demo model');
  });

  it('refuses previous_response_id, because it keeps no state', async () => {
    const error = await client.responses
      .create({ model: 'x', input: 'hi', previous_response_id: 'resp_1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe('previous_response_id');
  });
});

const TASK_TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'add_task',
      description: "Add a task to the user's task list.",
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_tasks',
      description: "List the user's tasks.",
      parameters: { type: 'object', properties: {} },
    },
  },
];
/** What the task tools answer: the list holds whatever was added before it was listed. */
function taskResult(name: string, items: string[], args: string): string {
  if (name === 'add_task') {
    const title = String((JSON.parse(args) as { title?: unknown }).title);
    items.push(title);
    return JSON.stringify({ task: { id: items.length, title } });
  }
  return JSON.stringify({
    items: items.map((title, index) => ({ id: index + 1, title })),
    count: items.length,
  });
}

describe('requests whose steps depend on each other', () => {
  it('Chat Completions: "X then Y" is one call per turn, each after the last result, then an answer', async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'add a task to buy milk then list my tasks' },
    ];
    const items: string[] = [];
    const called: string[][] = [];
    let answer: string | null | undefined;
    // Three turns are expected; a few more show up as a failure rather than a hang.
    for (let turn = 0; turn < 5 && answer === undefined; turn += 1) {
      const completion = await client.chat.completions.create({ model: 'x', messages, tools: TASK_TOOLS });
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('expected a message');
      const calls = (message.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [call] : []));
      if (calls.length === 0) {
        answer = message.content;
        break;
      }
      called.push(calls.map((call) => call.function.name));
      messages.push(message);
      for (const call of calls) {
        const content = taskResult(call.function.name, items, call.function.arguments);
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    expect(called).toEqual([['add_task'], ['list_tasks']]);
    expect(answer).toContain('items: 1 entry ("buy milk")');
  });

  it('Responses: "X, then Y" is one function_call per response, then an answer', async () => {
    const tools: FunctionTool[] = TASK_TOOLS.flatMap((tool) =>
      tool.type === 'function'
        ? [
            {
              type: 'function' as const,
              strict: false,
              ...tool.function,
              parameters: tool.function.parameters ?? null,
            },
          ]
        : [],
    );
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Add a task to buy milk, then list my tasks.' },
    ];
    const items: string[] = [];
    const called: string[][] = [];
    let answer = '';
    for (let turn = 0; turn < 5 && !answer; turn += 1) {
      // Streamed, like the agent asks for it; `finalResponse` assembles the events.
      const final = await client.responses.stream({ model: 'x', input, tools }).finalResponse();
      const calls = final.output.flatMap((item) => (item.type === 'function_call' ? [item] : []));
      if (calls.length === 0) {
        answer = final.output_text;
        break;
      }
      called.push(calls.map((call) => call.name));
      for (const call of calls) {
        input.push(
          { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
          {
            type: 'function_call_output',
            call_id: call.call_id,
            output: taskResult(call.name, items, call.arguments),
          },
        );
      }
    }
    expect(called).toEqual([['add_task'], ['list_tasks']]);
    expect(answer).toContain('items: 1 entry ("buy milk")');
  });

  it('keeps independent calls in one turn', async () => {
    const completion = await client.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content: 'weather in Bergen and add a task to buy milk' }],
      tools: CHAT_TOOLS,
    });
    expect(
      completion.choices[0]?.message.tool_calls?.map(
        (call) => call.type === 'function' && call.function.name,
      ),
    ).toEqual(['get_weather', 'add_task']);
  });
});

describe('a question about a particular day, by the injected clock', () => {
  let monday: RunningDemoModel;
  let mondayClient: OpenAI;
  const LONDON = JSON.stringify({
    place: { name: 'London', timezone: 'Europe/London' },
    forecast: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map((date, index) => ({
      date,
      minC: 2 + index,
      maxC: 9,
      precipitationMm: index === 4 ? 4.2 : 0,
      conditions: index === 4 ? 'Light rain' : 'Clear sky',
    })),
  });

  beforeAll(async () => {
    monday = await startDemoModel({ port: 0, now: () => new Date('2026-11-23T12:00:00Z') });
    mondayClient = new OpenAI({ apiKey: 'unused', baseURL: monday.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await monday.close();
  });

  it('asks for enough days to reach the weekday named, and answers about that day', async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Will I need an umbrella in London on Friday?' },
    ];
    const first = await mondayClient.chat.completions.create({ model: 'x', messages, tools: CHAT_TOOLS });
    const assistant = first.choices[0]?.message;
    const call = assistant?.tool_calls?.[0];
    if (!assistant || call?.type !== 'function') throw new Error('expected a tool call');
    expect(JSON.parse(call.function.arguments)).toEqual({ location: 'London', days: 5 });
    messages.push(assistant, { role: 'tool', tool_call_id: call.id, content: LONDON });
    const second = await mondayClient.chat.completions.create({ model: 'x', messages, tools: CHAT_TOOLS });
    const text = second.choices[0]?.message.content ?? '';
    expect(text).toContain('Friday (2026-11-27): 6.0 to 9.0 °C, precipitation 4.2 mm, Light rain');
    expect(text).toMatch(/rain is expected.*umbrella/i);
  });

  it('does the same through the Responses API', async () => {
    const response = await mondayClient.responses.create({
      model: 'x',
      input: 'weather in London on Thursday',
      tools: RESPONSES_TOOLS,
    });
    expect(response.output[0]).toMatchObject({
      type: 'function_call',
      arguments: '{"location":"London","days":4}',
    });
  });
});

describe('bad and hostile requests', () => {
  it('answers malformed JSON with a 400 in the OpenAI error shape', async () => {
    const error = await expectOpenAIError(
      await post('/chat/completions', '{"model": "x", "messages": ['),
      400,
    );
    expect(error.code).toBe('invalid_json');
  });

  it('answers a body that is not JSON, or lacks messages, with a 400', async () => {
    await expectOpenAIError(await post('/chat/completions', 'model=x', 'text/plain'), 400);
    const error = await expectOpenAIError(await post('/chat/completions', '{"model":"x"}'), 400);
    expect(error.param).toBe('messages');
  });

  it('refuses a body over the limit with a 413', async () => {
    const content = 'a'.repeat(MAX_BODY_BYTES + 1000);
    const body = JSON.stringify({ model: 'x', messages: [{ role: 'user', content }] });
    const error = await expectOpenAIError(await post('/chat/completions', body), 413);
    expect(error.code).toBe('request_too_large');
  });

  it('gives a sane answer to a 900 KB message', async () => {
    const content = `weather in Oslo ${'blah '.repeat(180_000)}`;
    const completion = await client.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content }],
      tools: CHAT_TOOLS,
    });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'get_weather' },
    });
  });

  it('refuses deeply nested and non-string content with a 400', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    await expectOpenAIError(
      await post('/chat/completions', `{"model":"x","messages":[{"role":"user","content":${deep}}]}`),
      400,
    );
    const numeric = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 42 }] });
    const error = await expectOpenAIError(await post('/chat/completions', numeric), 400);
    expect(error.param).toBe('messages[0].content');
    await expectOpenAIError(
      await post('/responses', JSON.stringify({ model: 'x', input: [{ role: 'user', content: {} }] })),
      400,
    );
  });

  it('answers unknown routes with a 404 in the OpenAI error shape, and keeps serving', async () => {
    const response = await post('/embeddings', '{}');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
    expect((await client.models.list()).data[0]?.id).toBe(DEMO_MODEL_ID);
  });
});
