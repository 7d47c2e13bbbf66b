/**
 * Both providers over real HTTP: the real `openai` client talks to a scripted OpenAI-compatible
 * server on 127.0.0.1 that answers in the real wire format (SSE chunks, Responses events, JSON errors)
 * and records every request body.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '@mcp-workshop/test-infra';
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DiscoveredTool } from '../types.js';
import { createModelProvider, PLACEHOLDER_API_KEY } from './create-provider.js';
import {
  ModelAbortedError,
  ModelAuthError,
  ModelNotFoundError,
  ModelResponseError,
  ModelTimeoutError,
  ModelUnreachableError,
} from './errors.js';
import { toFunctionSpecs } from './functions.js';
import { createChatProvider } from './openai-chat.js';
import { createResponsesProvider } from './openai-responses.js';
import type { ModelDescription, ModelProvider, ModelRequest } from './provider.js';

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Reply =
  | { kind: 'json'; status: number; body: unknown }
  /** Raw SSE frames, written one by one with a short pause so they arrive in separate network chunks. */
  | { kind: 'sse'; frames: string[]; stall?: boolean };

interface ScriptedServer {
  baseUrl: string;
  requests: RecordedRequest[];
  reply(path: string, ...replies: Reply[]): void;
  close(): Promise<void>;
}

async function startScriptedServer(): Promise<ScriptedServer> {
  const queues = new Map<string, Reply[]>();
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({
      method: req.method ?? '',
      path,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    });

    const reply = queues.get(path)?.shift() ?? {
      kind: 'json',
      status: 500,
      body: { error: { message: `no scripted reply for ${path}` } },
    };
    if (reply.kind === 'json') {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of reply.frames) {
      if (res.destroyed) return;
      res.write(frame);
      await delay(2);
    }
    if (!reply.stall) res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply(path, ...replies) {
      queues.set(path, [...(queues.get(path) ?? []), ...replies]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Chat Completions frames: `data: {chunk}` and the closing `data: [DONE]`. */
const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const DONE = 'data: [DONE]\n\n';
/** Responses frames name their event type twice, as OpenAI sends them. */
const event = (payload: ResponseStreamEvent) =>
  `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;

function chunk(
  delta: ChatCompletionChunk.Choice.Delta,
  finish: ChatCompletionChunk.Choice['finish_reason'] = null,
) {
  return data({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'scripted',
    system_fingerprint: 'fp_test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  } satisfies ChatCompletionChunk);
}

const chatPath = '/v1/chat/completions';
const responsesPath = '/v1/responses';

const tools: DiscoveredTool[] = [
  {
    server: 'workshop',
    name: 'get_weather',
    description: 'Current weather and forecast for a place.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City name' },
        days: { type: 'integer', minimum: 1, maximum: 16, description: 'Forecast days' },
      },
      required: ['location'],
    },
  },
  {
    server: 'workshop',
    name: 'tasks.tag',
    description: 'Tag a task.',
    inputSchema: { type: 'object', properties: { tags: { type: 'array' } }, additionalProperties: true },
  },
];

function describeServer(server: ScriptedServer, api: 'chat' | 'responses' = 'chat'): ModelDescription {
  return {
    kind: 'custom',
    model: 'scripted',
    baseUrl: server.baseUrl,
    api,
    label: `scripted at ${server.baseUrl}`,
  };
}

function clientFor(baseURL: string) {
  // No retries: every scripted reply is consumed exactly once.
  return new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });
}

async function completeCollecting(provider: ModelProvider, request: Omit<ModelRequest, 'onTextDelta'>) {
  const deltas: string[] = [];
  const turn = await provider.complete({ ...request, onTextDelta: (delta) => deltas.push(delta) });
  return { turn, deltas };
}

describe('createChatProvider over HTTP', () => {
  let server: ScriptedServer;
  let provider: ModelProvider;
  beforeEach(async () => {
    server = await startScriptedServer();
    provider = createChatProvider({ client: clientFor(server.baseUrl), description: describeServer(server) });
  });
  afterEach(async () => server.close());

  it('streams text, calling onTextDelta for each piece, and sends no tools when there are none', async () => {
    server.reply(chatPath, {
      kind: 'sse',
      frames: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hello' }),
        chunk({ content: ', world' }),
        chunk({}, 'stop'),
        DONE,
      ],
    });
    const messages = [{ role: 'user' as const, content: 'Say hello' }];
    const { turn, deltas } = await completeCollecting(provider, { messages, functions: [] });
    expect(turn).toEqual({
      text: 'Hello, world',
      toolCalls: [],
      report: { responseId: 'chatcmpl-1', responseModel: 'scripted', finishReason: 'stop' },
    });
    expect(deltas).toEqual(['Hello', ', world']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
    // No stream_options: without telemetry, nothing a strict compatible server could refuse.
    expect(server.requests[0]?.body).toEqual({ model: 'scripted', messages, stream: true });
  });

  it('sends tools with explicit strict and assembles tool calls split across chunks', async () => {
    const catalog = toFunctionSpecs(tools);
    server.reply(chatPath, {
      kind: 'sse',
      frames: [
        chunk({ role: 'assistant', content: null }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"location"' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ':"Oslo","days":null}' } }] }),
        chunk({
          tool_calls: [
            { index: 1, id: 'call_t', type: 'function', function: { name: 'tasks_tag', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '{"tags":["a"]}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      ],
    });
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'Weather in Oslo, and tag it' },
    ];
    const { turn, deltas } = await completeCollecting(provider, { messages, functions: catalog.functions });

    expect(deltas).toEqual([]);
    expect(turn.toolCalls).toEqual([
      { id: 'call_w', name: 'get_weather', arguments: '{"location":"Oslo","days":null}' },
      { id: 'call_t', name: 'tasks_tag', arguments: '{"tags":["a"]}' },
    ]);
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'scripted', messages, stream: true, tool_choice: 'auto' });
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather and forecast for a place.',
          parameters: {
            type: 'object',
            properties: {
              location: { type: 'string', description: 'City name' },
              days: { type: ['integer', 'null'], description: 'Forecast days (minimum: 1, maximum: 16)' },
            },
            required: ['location', 'days'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
      {
        type: 'function',
        function: {
          name: 'tasks_tag',
          description: 'Tag a task.',
          parameters: {
            type: 'object',
            properties: { tags: { type: 'array', items: {} } },
            additionalProperties: true,
          },
          strict: false,
        },
      },
    ]);

    // The round trip the agent loop makes: back to the MCP tool, nulls for optional fields removed.
    const [weatherCall] = turn.toolCalls;
    const resolved = weatherCall && catalog.resolve(weatherCall.name);
    expect(resolved?.tool.name).toBe('get_weather');
    const args = resolved?.toMcpArguments(JSON.parse(weatherCall?.arguments ?? ''));
    expect(args).toEqual({ location: 'Oslo' });
    expect(resolved?.validate(args)).toEqual([]);
  });

  it('turns a 401 into ModelAuthError that says to check OPENAI_API_KEY', async () => {
    server.reply(chatPath, {
      kind: 'json',
      status: 401,
      body: {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelAuthError);
    await expect(failure).rejects.toThrow(/check OPENAI_API_KEY/);
  });

  it('turns a 404 into ModelNotFoundError that names OPENAI_MODEL', async () => {
    server.reply(chatPath, {
      kind: 'json',
      status: 404,
      body: { error: { message: 'model "scripted" not found' } },
    });
    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelNotFoundError);
    await expect(failure).rejects.toThrow(/Model "scripted" was not found .*Check OPENAI_MODEL/);
  });

  it('turns a 500 into ModelResponseError quoting the server', async () => {
    server.reply(chatPath, { kind: 'json', status: 500, body: { error: { message: 'GPU on fire' } } });
    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelResponseError);
    await expect(failure).rejects.toThrow(/failed \(500\)\. Server said: "GPU on fire"/);
  });

  it('turns an error sent inside the stream into ModelResponseError', async () => {
    server.reply(chatPath, {
      kind: 'sse',
      frames: [
        chunk({ content: 'Hal' }),
        data({ error: { message: 'model crashed', type: 'server_error' } }),
      ],
    });
    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelResponseError);
    await expect(failure).rejects.toThrow(/model crashed/);
  });

  it('gives up on a stream that goes quiet', async () => {
    const impatient = createChatProvider({
      client: clientFor(server.baseUrl),
      description: describeServer(server),
      idleTimeoutMs: 200,
    });
    server.reply(chatPath, { kind: 'sse', frames: [chunk({ content: 'Thinking' })], stall: true });
    const failure = impatient.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelTimeoutError);
    await expect(failure).rejects.toThrow(/stopped sending its answer/);
  });

  it('rejects with ModelAbortedError when the signal aborts mid-stream', async () => {
    server.reply(chatPath, {
      kind: 'sse',
      frames: [chunk({ content: 'One' }), chunk({ content: 'Two' })],
      stall: true,
    });
    const controller = new AbortController();
    const failure = provider.complete({
      messages: [{ role: 'user', content: 'Hi' }],
      functions: [],
      signal: controller.signal,
      onTextDelta: () => controller.abort(),
    });
    await expect(failure).rejects.toBeInstanceOf(ModelAbortedError);
  });

  it('passes an error thrown by onTextDelta through unchanged', async () => {
    server.reply(chatPath, { kind: 'sse', frames: [chunk({ content: 'One' }), DONE] });
    const mine = new RangeError('the terminal went away');
    const failure = provider.complete({
      messages: [{ role: 'user', content: 'Hi' }],
      functions: [],
      onTextDelta: () => {
        throw mine;
      },
    });
    await expect(failure).rejects.toBe(mine);
  });
});

describe('model API that is not running', () => {
  it('rejects with ModelUnreachableError naming the base URL', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}/v1`;
    const description: ModelDescription = {
      kind: 'custom',
      model: 'llama3.2',
      baseUrl,
      api: 'chat',
      label: 'x',
    };
    const provider = createChatProvider({ client: clientFor(baseUrl), description });

    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelUnreachableError);
    await expect(failure).rejects.toThrow(
      `Could not reach the model API at ${baseUrl} (connection refused). ` +
        'Is Ollama / LM Studio running? Check OPENAI_BASE_URL.',
    );
  });
});

describe('createResponsesProvider over HTTP', () => {
  let server: ScriptedServer;
  let provider: ModelProvider;
  beforeEach(async () => {
    server = await startScriptedServer();
    provider = createResponsesProvider({
      client: clientFor(server.baseUrl),
      description: describeServer(server, 'responses'),
    });
  });
  afterEach(async () => server.close());

  const message = (text: string, status: 'in_progress' | 'completed'): ResponseOutputItem => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    status,
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
  });
  const functionCall = (args: string, status: 'in_progress' | 'completed'): ResponseOutputItem => ({
    id: 'fc_1',
    type: 'function_call',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: args,
    status,
  });
  const response = (status: 'in_progress' | 'completed', output: ResponseOutputItem[]) => ({
    id: 'resp_1',
    object: 'response' as const,
    created_at: 1_700_000_000,
    status,
    model: 'scripted',
    output,
    output_text: '',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto' as const,
    tools: [],
    top_p: 1,
  });

  it('sends input items and flat tools with explicit strict, and assembles text and calls from events', async () => {
    const args = '{"location":"Oslo","days":null}';
    let sequence = 0;
    const next = () => sequence++;
    server.reply(responsesPath, {
      kind: 'sse',
      frames: [
        event({ type: 'response.created', response: response('in_progress', []), sequence_number: next() }),
        event({
          type: 'response.in_progress',
          response: response('in_progress', []),
          sequence_number: next(),
        }),
        event({
          type: 'response.output_item.added',
          output_index: 0,
          item: message('', 'in_progress'),
          sequence_number: next(),
        }),
        event({
          type: 'response.content_part.added',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
          sequence_number: next(),
        }),
        ...['Checking ', 'Oslo.'].map((delta) =>
          event({
            type: 'response.output_text.delta',
            item_id: 'msg_1',
            output_index: 0,
            content_index: 0,
            delta,
            logprobs: [],
            sequence_number: next(),
          }),
        ),
        event({
          type: 'response.output_text.done',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          text: 'Checking Oslo.',
          logprobs: [],
          sequence_number: next(),
        }),
        event({
          type: 'response.output_item.done',
          output_index: 0,
          item: message('Checking Oslo.', 'completed'),
          sequence_number: next(),
        }),
        event({
          type: 'response.output_item.added',
          output_index: 1,
          item: functionCall('', 'in_progress'),
          sequence_number: next(),
        }),
        ...['{"location":"Oslo",', '"days":null}'].map((delta) =>
          event({
            type: 'response.function_call_arguments.delta',
            item_id: 'fc_1',
            output_index: 1,
            delta,
            sequence_number: next(),
          }),
        ),
        event({
          type: 'response.function_call_arguments.done',
          item_id: 'fc_1',
          output_index: 1,
          name: 'get_weather',
          arguments: args,
          sequence_number: next(),
        }),
        event({
          type: 'response.output_item.done',
          output_index: 1,
          item: functionCall(args, 'completed'),
          sequence_number: next(),
        }),
        event({
          type: 'response.completed',
          response: response('completed', [
            message('Checking Oslo.', 'completed'),
            functionCall(args, 'completed'),
          ]),
          sequence_number: next(),
        }),
      ],
    });
    const catalog = toFunctionSpecs(tools);
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'Weather in Oslo?' },
    ];
    const { turn, deltas } = await completeCollecting(provider, { messages, functions: catalog.functions });

    expect(deltas).toEqual(['Checking ', 'Oslo.']);
    expect(turn).toEqual({
      text: 'Checking Oslo.',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: args }],
      report: { responseId: 'resp_1', responseModel: 'scripted', finishReason: 'completed' },
    });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'scripted',
      stream: true,
      store: false,
      tool_choice: 'auto',
      input: [
        { type: 'message', role: 'system', content: 'You are terse.' },
        { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      ],
    });
    expect(body.tools).toEqual(
      catalog.functions.map((spec) => ({
        type: 'function',
        name: spec.name,
        description: spec.description,
        parameters: spec.parameters,
        strict: spec.strict,
      })),
    );
    expect((body.tools as Array<{ strict: boolean }>).map((tool) => tool.strict)).toEqual([true, false]);
  });

  it('sends the earlier tool call and its result back as function_call items', async () => {
    server.reply(responsesPath, {
      kind: 'sse',
      frames: [
        event({
          type: 'response.completed',
          response: response('completed', [message('12 °C in Oslo.', 'completed')]),
          sequence_number: 0,
        }),
      ],
    });
    const { turn } = await completeCollecting(provider, {
      functions: [],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temperatureC":12}' },
      ],
    });
    expect(turn.text).toBe('12 °C in Oslo.');
    expect(server.requests[0]?.body).toHaveProperty('input', [
      { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temperatureC":12}' },
    ]);
  });

  it('turns response.failed into ModelResponseError', async () => {
    server.reply(responsesPath, {
      kind: 'sse',
      frames: [
        event({
          type: 'response.failed',
          response: {
            ...response('completed', []),
            status: 'failed',
            error: { code: 'server_error', message: 'The model crashed.' },
          },
          sequence_number: 0,
        }),
      ],
    });
    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelResponseError);
    await expect(failure).rejects.toThrow(/The model crashed\./);
  });

  it('suggests OPENAI_API=chat when the server has no Responses API', async () => {
    server.reply(responsesPath, { kind: 'json', status: 404, body: { error: { message: 'Not Found' } } });
    const failure = provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    await expect(failure).rejects.toBeInstanceOf(ModelNotFoundError);
    await expect(failure).rejects.toThrow(/OPENAI_API=chat/);
  });
});

describe('createModelProvider over HTTP', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => server.close());

  it('talks to a custom base URL without a key, sending the placeholder the client needs', async () => {
    server.reply(chatPath, { kind: 'sse', frames: [chunk({ content: 'ok' }), DONE] });
    const provider = createModelProvider({ baseUrl: server.baseUrl, model: 'llama3.2', api: 'chat' });
    const turn = await provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    expect(turn.text).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
    expect(server.requests[0]?.body).toMatchObject({ model: 'llama3.2', stream: true });
  });

  it('uses the Responses API when asked to', async () => {
    server.reply(responsesPath, {
      kind: 'sse',
      frames: [
        event({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'ok',
          logprobs: [],
          sequence_number: 0,
        }),
      ],
    });
    const provider = createModelProvider({
      baseUrl: server.baseUrl,
      apiKey: 'k',
      model: 'm',
      api: 'responses',
    });
    const turn = await provider.complete({ messages: [{ role: 'user', content: 'Hi' }], functions: [] });
    expect(turn.text).toBe('ok');
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/responses',
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k');
  });
});
