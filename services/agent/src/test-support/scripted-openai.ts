/**
 * @module test-support/scripted-openai
 * A scripted OpenAI-compatible server for tests: `POST /v1/chat/completions` on 127.0.0.1 speaking
 * the real Chat Completions wire format (SSE `chat.completion.chunk`s ending in `data: [DONE]`, or
 * one JSON `chat.completion`), answering from a script and recording every request body, so a test
 * can assert exactly what the agent sent. The agent reaches it through the real `openai` client.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

/** One tool call the scripted model makes; object arguments are sent as their JSON. */
export interface ScriptedToolCall {
  name: string;
  /** A string is sent as it is (so a test can send invalid JSON); anything else as `JSON.stringify`. */
  arguments: string | Record<string, unknown>;
  /** Defaults to `call_<n>`, unique across the server's life. */
  id?: string;
}

/** What the model answers to one request. */
export type ScriptStep =
  | { toolCalls: ScriptedToolCall[]; text?: string }
  | { text: string }
  /** An HTTP error with OpenAI's error JSON. The client retries a 5xx once (`MODEL_MAX_RETRIES`). */
  | { httpError: number; message?: string; code?: string };

/** A fixed step, or one computed from the request (adaptive scripts). */
export type ScriptEntry = ScriptStep | ((request: ChatRequestBody, index: number) => ScriptStep);

/** The request body as the agent sent it. */
export interface ChatRequestBody {
  model: string;
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionFunctionTool[];
  tool_choice?: unknown;
  stream?: boolean;
  [key: string]: unknown;
}

export interface RecordedRequest {
  body: ChatRequestBody;
  headers: IncomingMessage['headers'];
}

export interface ScriptedOpenAI {
  /** The base URL to give the client, ending in `/v1`. */
  baseUrl: string;
  /** Every chat request received, in order (including ones answered with an error). */
  readonly requests: RecordedRequest[];
  /** The request bodies alone. */
  bodies(): ChatRequestBody[];
  /** Appends steps to the script. */
  push(...entries: ScriptEntry[]): void;
  close(): Promise<void>;
}

export interface ScriptedOpenAIOptions {
  script?: ScriptEntry[];
  /** Answers every request once the script has run out (e.g. a model that never stops calling tools). */
  fallback?: ScriptEntry;
  /** Pieces a text answer or a tool call's arguments are streamed in; more than one exercises reassembly. */
  chunksPerField?: number;
}

/** The body of OpenAI's 401 for a bad key, word for word apart from the key. */
export const OPENAI_401_MESSAGE =
  'Incorrect API key provided: not-needed. You can find your API key at https://platform.openai.com/account/api-keys.';

/** A request body over this is a bug in the agent, not a test input. */
const MAX_REQUEST_BYTES = 5 * 1024 * 1024;

const ERROR_DEFAULTS: Record<number, { type: string; code: string | null; message: string }> = {
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: OPENAI_401_MESSAGE },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  },
};

/** Starts the server on 127.0.0.1 with a port the OS picks. */
export async function startScriptedOpenAI(options: ScriptedOpenAIOptions = {}): Promise<ScriptedOpenAI> {
  const script = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const pieces = Math.max(1, options.chunksPerField ?? 2);
  let nextCallId = 1;
  let created = Math.floor(Date.now() / 1000);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendError(res, 404, {
        type: 'invalid_request_error',
        code: 'unknown_url',
        message: `Unknown request URL: ${req.method} ${path}`,
      });
      return;
    }
    let body: ChatRequestBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatRequestBody;
    } catch (error) {
      sendError(res, 400, {
        type: 'invalid_request_error',
        code: null,
        message: `Bad JSON: ${String(error)}`,
      });
      return;
    }
    const index = requests.length;
    requests.push({ body, headers: req.headers });

    const entry = script.shift() ?? options.fallback;
    if (entry === undefined) {
      sendError(res, 500, {
        type: 'server_error',
        code: 'script_exhausted',
        message: `scripted model: the script ran out at request ${index + 1}`,
      });
      return;
    }
    const step = typeof entry === 'function' ? entry(body, index) : entry;
    if ('httpError' in step) {
      const defaults = ERROR_DEFAULTS[step.httpError] ?? {
        type: 'server_error',
        code: null,
        message: 'Error.',
      };
      sendError(res, step.httpError, {
        type: defaults.type,
        code: step.code ?? defaults.code,
        message: step.message ?? defaults.message,
      });
      return;
    }

    const calls = ('toolCalls' in step ? step.toolCalls : []).map((call) => ({
      id: call.id ?? `call_${nextCallId++}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    const text = step.text ?? '';
    const meta = {
      id: `chatcmpl-scripted-${index + 1}`,
      created: created++,
      model: body.model,
      system_fingerprint: null,
    };
    const finishReason = calls.length > 0 ? 'tool_calls' : 'stop';

    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ...meta,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: calls.length > 0 && text === '' ? null : text,
                refusal: null,
                ...(calls.length > 0 && {
                  tool_calls: calls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }),
              },
              logprobs: null,
              finish_reason: finishReason,
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({
          ...meta,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        })}\n\n`,
      );
    chunk({ role: 'assistant', content: '', refusal: null });
    for (const piece of split(text, pieces)) chunk({ content: piece });
    calls.forEach((call, position) => {
      // As OpenAI streams them: id, type and name once, then the arguments in pieces.
      chunk({
        tool_calls: [
          { index: position, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      });
      for (const piece of split(call.arguments, pieces)) {
        chunk({ tool_calls: [{ index: position, function: { arguments: piece } }] });
      }
    });
    chunk({}, finishReason);
    res.write('data: [DONE]\n\n');
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, { type: 'server_error', code: null, message: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    bodies: () => requests.map((request) => request.body),
    push: (...entries) => {
      script.push(...entries);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The `role: "tool"` messages of one request body, in order. */
export function toolMessages(body: ChatRequestBody): Array<{ tool_call_id: string; content: string }> {
  return body.messages.flatMap((message) =>
    message.role === 'tool' ? [{ tool_call_id: message.tool_call_id, content: String(message.content) }] : [],
  );
}

/** Splits `text` into at most `pieces` non-empty parts (none for an empty text). */
function split(text: string, pieces: number): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / pieces);
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

function sendError(
  res: ServerResponse,
  status: number,
  error: { type: string; code: string | null; message: string },
): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({ error: { message: error.message, type: error.type, param: null, code: error.code } }),
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw new Error(`request body over ${MAX_REQUEST_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
