/**
 * @module llm/errors
 * Failures of the model API, sorted by what the person running the agent has to do about them,
 * each with a message that names the setting to check. `toModelError` maps whatever the `openai`
 * client (or the network under it) threw. Test: `errors.test.ts`.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from 'openai';
import type { ModelDescription } from './provider.js';

/** A server's own error text is quoted up to this length; past it, it is noise in a terminal. */
export const MAX_SERVER_MESSAGE_LENGTH = 300;
/** How far down `cause` chains (and AggregateError lists) to look for a network error code. */
const MAX_CAUSE_DEPTH = 8;

/** Base class: `name` follows the subclass, so logs and tests can tell errors apart. */
export abstract class ModelError extends Error {
  /** Which model and endpoint the request went to. */
  readonly model: ModelDescription;
  /** HTTP status, when the API answered at all. */
  readonly status: number | undefined;

  constructor(message: string, model: ModelDescription, options?: ErrorOptions & { status?: number }) {
    super(message, options);
    this.name = new.target.name;
    this.model = model;
    this.status = options?.status;
  }
}

/** The API key is missing, wrong or not allowed (401, 403): fix `OPENAI_API_KEY`. */
export class ModelAuthError extends ModelError {}

/** No connection at all (refused, unknown host, TLS): start the server or fix `OPENAI_BASE_URL`. */
export class ModelUnreachableError extends ModelError {
  /** Short reason, e.g. "connection refused". */
  readonly reason: string;

  constructor(message: string, model: ModelDescription, reason: string, options?: ErrorOptions) {
    super(message, model, options);
    this.reason = reason;
  }
}

/** Connected, but no answer in time: a local model may still be loading. */
export class ModelTimeoutError extends ModelError {}

/** The model or the endpoint does not exist (404): fix `OPENAI_MODEL` or `OPENAI_BASE_URL`. */
export class ModelNotFoundError extends ModelError {}

/** Too many requests or no quota left (429): wait, or check billing. */
export class ModelRateLimitError extends ModelError {}

/** The API refused the request itself (400, 422), e.g. a local model that cannot call tools. */
export class ModelRequestError extends ModelError {}

/** Anything else: a server error, an error event in the stream, a stream that broke off or made no sense. */
export class ModelResponseError extends ModelError {}

/** The request was cancelled through its `AbortSignal`; nobody has to fix anything. */
export class ModelAbortedError extends ModelError {}

/** Maps anything a model request threw to a {@link ModelError}; a `ModelError` is returned as it is. */
export function toModelError(error: unknown, model: ModelDescription): ModelError {
  if (error instanceof ModelError) return error;
  const options = { cause: error };
  const at = `the model API at ${model.baseUrl}`;

  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return new ModelAbortedError('The model request was cancelled.', model, options);
  }
  if (error instanceof APIConnectionTimeoutError) return timeoutError(model, options);
  if (error instanceof APIConnectionError) {
    const code = findErrorCode(error);
    if (code !== undefined && TIMEOUT_CODES.has(code)) return timeoutError(model, options);
    return unreachableError(model, connectionReason(error, code), options);
  }
  if (error instanceof APIError) return fromStatus(error, model, at);

  const code = findErrorCode(error);
  if (code !== undefined && CONNECT_CODES.has(code)) {
    return unreachableError(model, connectionReason(error, code), options);
  }
  if (code !== undefined) {
    return new ModelResponseError(
      `The connection to ${at} broke off during the answer (${connectionReason(error, code)}). Try again.`,
      model,
      options,
    );
  }
  if (error instanceof SyntaxError) {
    return new ModelResponseError(`${capitalize(at)} sent a reply that is not valid JSON.`, model, options);
  }
  const text = error instanceof Error ? error.message : String(error);
  return new ModelResponseError(`The request to ${at} failed: ${clip(text)}`, model, options);
}

function fromStatus(error: APIError, model: ModelDescription, at: string): ModelError {
  const options = { cause: error, status: error.status };
  const said = serverSays(error);
  const status = error.status;

  if (error instanceof AuthenticationError) {
    const hint =
      model.kind === 'openai'
        ? 'check OPENAI_API_KEY (keys are at https://platform.openai.com/api-keys).'
        : 'check OPENAI_API_KEY, this server expects a specific key.';
    return new ModelAuthError(`${capitalize(at)} rejected the API key (401): ${hint}${said}`, model, options);
  }
  if (error instanceof PermissionDeniedError) {
    return new ModelAuthError(
      `${capitalize(at)} refused access (403): the API key may not be allowed to use model "${model.model}". ` +
        `Check OPENAI_API_KEY and OPENAI_MODEL.${said}`,
      model,
      options,
    );
  }
  if (error instanceof NotFoundError) {
    const pull = model.kind === 'custom' ? ' (for Ollama, run `ollama pull <model>` first)' : '';
    const api =
      model.api === 'responses'
        ? ' If the server does not offer the Responses API, set OPENAI_API=chat.'
        : '';
    return new ModelNotFoundError(
      `Model "${model.model}" was not found at ${model.baseUrl} (404). Check OPENAI_MODEL${pull}, ` +
        `and that OPENAI_BASE_URL ends in /v1.${api}${said}`,
      model,
      options,
    );
  }
  if (error instanceof RateLimitError) {
    const quota = error.code === 'insufficient_quota';
    const text = quota
      ? `${capitalize(at)} says the account has no quota left (429). Check billing for that API key.`
      : `${capitalize(at)} is rate limiting requests (429).${retryAfter(error)} Wait a moment and try again.`;
    return new ModelRateLimitError(`${text}${said}`, model, options);
  }
  if (error instanceof BadRequestError || error instanceof UnprocessableEntityError) {
    const tools = /does not support tools/i.test(said)
      ? ' This model cannot call tools: pick one that can in OPENAI_MODEL.'
      : '';
    return new ModelRequestError(
      `${capitalize(at)} rejected the request (${status}).${tools}${said}`,
      model,
      options,
    );
  }
  const what = status === undefined ? 'reported an error' : `failed (${status})`;
  return new ModelResponseError(`${capitalize(at)} ${what}.${said || ' It gave no reason.'}`, model, options);
}

/** The stream went quiet for `idleMs`: the server is stuck, or a local model is far too slow. */
export function stalledStreamError(model: ModelDescription, idleMs: number): ModelTimeoutError {
  return new ModelTimeoutError(
    `The model API at ${model.baseUrl} stopped sending its answer for ${Math.round(idleMs / 1000)} s, ` +
      'so the request was given up. Try again, or pick a smaller model with OPENAI_MODEL.',
    model,
  );
}

/** The answer grew past `maxChars`: a model repeating itself forever, not an answer worth waiting for. */
export function outputTooLongError(model: ModelDescription, maxChars: number): ModelResponseError {
  return new ModelResponseError(
    `The model's answer grew past ${maxChars} characters, so reading it was stopped. Try again or rephrase.`,
    model,
  );
}

function timeoutError(model: ModelDescription, options: ErrorOptions): ModelTimeoutError {
  return new ModelTimeoutError(
    `The model API at ${model.baseUrl} did not answer in time. Check OPENAI_BASE_URL; a local model may ` +
      'still be loading: try again, or pick a smaller one with OPENAI_MODEL.',
    model,
    options,
  );
}

function unreachableError(
  model: ModelDescription,
  reason: string,
  options: ErrorOptions,
): ModelUnreachableError {
  const hints: Record<ModelDescription['kind'], string> = {
    openai: 'Check your network connection, or set OPENAI_BASE_URL to use a local model.',
    custom: 'Is Ollama / LM Studio running? Check OPENAI_BASE_URL.',
    demo:
      'Is the offline demo model running? `pnpm ask` and `pnpm chat` start it for you; otherwise run ' +
      '`pnpm --filter @mcp-workshop/demo-model start`, or check DEMO_MODEL_URL.',
  };
  const where = model.kind === 'openai' ? 'the OpenAI API' : 'the model API';
  const message = `Could not reach ${where} at ${model.baseUrl} (${reason}). ${hints[model.kind]}`;
  return new ModelUnreachableError(message, model, reason, options);
}

/** Codes that mean the connection was never made. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^ERR_TLS|^ERR_SSL|^EPROTO$/;

function connectionReason(error: unknown, code: string | undefined): string {
  if (code !== undefined) return REASONS[code] ?? (TLS_CODE.test(code) ? `TLS problem: ${code}` : code);
  return clip(deepestMessage(error) ?? 'connection failed');
}

/** The first network error code (`ECONNREFUSED`, ...) in the cause chain, breadth first. */
export function findErrorCode(error: unknown): string | undefined {
  let level: unknown[] = [error];
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && level.length > 0; depth += 1) {
    const next: unknown[] = [];
    for (const candidate of level) {
      if (!(candidate instanceof Error)) continue;
      const code: unknown = (candidate as Error & { code?: unknown }).code;
      if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
      if (candidate.cause !== undefined) next.push(candidate.cause);
      if (candidate instanceof AggregateError) next.push(...candidate.errors);
    }
    level = next;
  }
  return undefined;
}

function deepestMessage(error: unknown): string | undefined {
  let current = error;
  let message: string | undefined;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current instanceof Error; depth += 1) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

/** ` Server said: "..."` from the error body, or `''` when it said nothing useful. */
function serverSays(error: APIError): string {
  const body: unknown = error.error;
  let text: string | undefined;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    text = body.message;
  } else if (typeof body === 'string') {
    text = body;
  } else if (body !== undefined && body !== null) {
    text = JSON.stringify(body);
  }
  return text?.trim() ? ` Server said: "${clip(text.trim())}"` : '';
}

function retryAfter(error: APIError): string {
  const seconds = Number(error.headers?.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? ` It asks to retry after ${seconds} s.` : '';
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function clip(text: string): string {
  return text.length <= MAX_SERVER_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_SERVER_MESSAGE_LENGTH)}…`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
