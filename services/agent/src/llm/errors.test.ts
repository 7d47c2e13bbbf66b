import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import {
  findErrorCode,
  MAX_SERVER_MESSAGE_LENGTH,
  ModelAbortedError,
  ModelAuthError,
  ModelError,
  ModelNotFoundError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelTimeoutError,
  ModelUnreachableError,
  toModelError,
} from './errors.js';
import type { ModelDescription } from './provider.js';

const local: ModelDescription = {
  kind: 'custom',
  model: 'llama3.2',
  baseUrl: 'http://127.0.0.1:11434/v1',
  api: 'chat',
  label: 'llama3.2 at http://127.0.0.1:11434/v1',
};
const openai: ModelDescription = {
  kind: 'openai',
  model: 'gpt-4.1-mini',
  baseUrl: 'https://api.openai.com/v1',
  api: 'chat',
  label: 'OpenAI gpt-4.1-mini',
};

/** What the `openai` client builds from an HTTP error response. */
function httpError(status: number, body: unknown, headers: Record<string, string> = {}): APIError {
  return APIError.generate(status, body as object, undefined, new Headers(headers));
}

/** What undici throws for a refused connection, wrapped the way the `openai` client wraps it. */
function networkError(code: string, message = `connect ${code} 127.0.0.1:11434`): APIConnectionError {
  const systemError = Object.assign(new Error(message), { code });
  return new APIConnectionError({ cause: new TypeError('fetch failed', { cause: systemError }) });
}

describe('toModelError', () => {
  it('names OPENAI_API_KEY on a 401', () => {
    const error = toModelError(httpError(401, { error: { message: 'Incorrect API key provided' } }), openai);
    expect(error).toBeInstanceOf(ModelAuthError);
    expect(error.name).toBe('ModelAuthError');
    expect(error.status).toBe(401);
    expect(error.message).toContain('check OPENAI_API_KEY');
    expect(error.message).toContain('Server said: "Incorrect API key provided"');
  });

  it('treats a 403 as an auth problem naming the key and the model', () => {
    const error = toModelError(httpError(403, { error: { message: 'no access' } }), openai);
    expect(error).toBeInstanceOf(ModelAuthError);
    expect(error.message).toMatch(/OPENAI_API_KEY and OPENAI_MODEL/);
  });

  it('names the base URL and the likely fixes when the connection is refused', () => {
    const error = toModelError(networkError('ECONNREFUSED'), local);
    expect(error).toBeInstanceOf(ModelUnreachableError);
    expect(error.message).toBe(
      'Could not reach the model API at http://127.0.0.1:11434/v1 (connection refused). ' +
        'Is Ollama / LM Studio running? Check OPENAI_BASE_URL.',
    );
    expect((error as ModelUnreachableError).reason).toBe('connection refused');
  });

  it('says how to start the offline demo model when it does not answer', () => {
    const demo = { ...local, kind: 'demo' as const, baseUrl: 'http://127.0.0.1:3002/v1' };
    const error = toModelError(networkError('ECONNREFUSED'), demo);
    expect(error.message).toMatch(
      /^Could not reach the model API at http:\/\/127\.0\.0\.1:3002\/v1 \(connection refused\)\./,
    );
    expect(error.message).toMatch(/`pnpm ask` and `pnpm chat` start it for you/);
    expect(error.message).toMatch(/DEMO_MODEL_URL/);
  });

  it('reports an unknown host, and points OpenAI users at their network', () => {
    const error = toModelError(networkError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.openai.com'), openai);
    expect(error).toBeInstanceOf(ModelUnreachableError);
    expect(error.message).toMatch(
      /^Could not reach the OpenAI API at https:\/\/api\.openai\.com\/v1 \(host not found\)/,
    );
    expect(error.message).toContain('network');
  });

  it('finds the code inside an AggregateError (both IPv4 and IPv6 refused)', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const aggregate = new AggregateError([refused('::1:11434'), refused('127.0.0.1:11434')]);
    const error = new APIConnectionError({ cause: new TypeError('fetch failed', { cause: aggregate }) });
    expect(findErrorCode(error)).toBe('ECONNREFUSED');
    expect(toModelError(error, local).message).toContain('(connection refused)');
  });

  it('uses the deepest message when there is no code', () => {
    const error = new APIConnectionError({
      cause: new TypeError('fetch failed', { cause: new Error('bad port') }),
    });
    expect((toModelError(error, local) as ModelUnreachableError).reason).toBe('bad port');
  });

  it('maps a timeout to ModelTimeoutError', () => {
    expect(toModelError(new APIConnectionTimeoutError(), local)).toBeInstanceOf(ModelTimeoutError);
  });

  it('names OPENAI_MODEL on a 404, with Ollama and Responses API hints where they apply', () => {
    const body = { error: { message: 'model "llama9" not found, try pulling it first' } };
    const chat = toModelError(httpError(404, body), local);
    expect(chat).toBeInstanceOf(ModelNotFoundError);
    expect(chat.message).toContain(
      'Model "llama3.2" was not found at http://127.0.0.1:11434/v1 (404). Check OPENAI_MODEL',
    );
    expect(chat.message).toContain('ollama pull');
    expect(chat.message).not.toContain('OPENAI_API=chat');
    expect(toModelError(httpError(404, body), { ...local, api: 'responses' }).message).toContain(
      'OPENAI_API=chat',
    );
  });

  it('tells a rate limit from an empty quota', () => {
    const limited = toModelError(
      httpError(429, { error: { message: 'slow down' } }, { 'retry-after': '7' }),
      openai,
    );
    expect(limited).toBeInstanceOf(ModelRateLimitError);
    expect(limited.message).toContain('retry after 7 s');
    const broke = toModelError(
      httpError(429, { error: { message: 'quota', code: 'insufficient_quota' } }),
      openai,
    );
    expect(broke.message).toContain('no quota left');
  });

  it('explains a 400 from a model that cannot call tools', () => {
    const body = { error: { message: 'registry.ollama.ai/library/gemma:2b does not support tools' } };
    const error = toModelError(httpError(400, body), local);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(error.message).toContain('cannot call tools');
  });

  it('reports other statuses and stream error events as ModelResponseError with the server text', () => {
    const server = toModelError(httpError(500, { error: { message: 'boom' } }), local);
    expect(server).toBeInstanceOf(ModelResponseError);
    expect(server.message).toBe(
      'The model API at http://127.0.0.1:11434/v1 failed (500). Server said: "boom"',
    );
    const event = toModelError(
      new APIError(undefined, { message: 'overloaded' }, undefined, undefined),
      local,
    );
    expect(event.message).toBe(
      'The model API at http://127.0.0.1:11434/v1 reported an error. Server said: "overloaded"',
    );
  });

  it('bounds the quoted server text', () => {
    const error = toModelError(httpError(500, { error: { message: 'x'.repeat(5000) } }), local);
    expect(error.message.length).toBeLessThan(MAX_SERVER_MESSAGE_LENGTH + 200);
  });

  it('maps cancellation to ModelAbortedError', () => {
    expect(toModelError(new APIUserAbortError(), local)).toBeInstanceOf(ModelAbortedError);
    expect(toModelError(new DOMException('aborted', 'AbortError'), local)).toBeInstanceOf(ModelAbortedError);
  });

  it('reports a connection that broke off mid-answer', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const error = toModelError(new TypeError('terminated', { cause: socket }), local);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error.message).toContain('broke off during the answer (connection closed)');
  });

  it('maps anything else to ModelResponseError and keeps it as the cause', () => {
    const original = new SyntaxError('Unexpected token');
    const error = toModelError(original, local);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(error.cause).toBe(original);
    expect(toModelError('weird', local).message).toContain('weird');
  });

  it('returns a ModelError unchanged', () => {
    const error = new ModelTimeoutError('slow', local);
    expect(toModelError(error, local)).toBe(error);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.model).toBe(local);
  });
});
