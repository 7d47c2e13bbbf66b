/**
 * @module weather/fetch-json
 * One bounded GET to the weather upstream: a timeout tied to the caller's signal, a cap on the
 * body size, zod validation, and every failure turned into a `ToolError` the model can act on.
 * Used by `open-meteo.ts`, and tested through it in `open-meteo.test.ts`.
 */
import { ToolError } from '@mcp-workshop/shared';
import type { z } from 'zod';
import { quoteForMessage } from './lookup.js';

/** Real Open-Meteo answers are a few KB; this stops a broken upstream from filling memory. */
export const MAX_RESPONSE_BYTES = 1_000_000;

const SERVICE = 'The weather service (open-meteo)';

export interface FetchJsonOptions {
  fetch: typeof fetch;
  /** Covers the whole exchange, headers and body. */
  timeoutMs: number;
  /** The tool call's signal: a cancelled call stops the request too. */
  signal?: AbortSignal | undefined;
}

/** GETs `url`, parses the JSON and validates it with `schema`. Throws only `ToolError`. */
export async function fetchJson<T>(url: URL, schema: z.ZodType<T>, options: FetchJsonOptions): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let status: number;
  let body: string;
  try {
    const response = await options.fetch(url, { signal, headers: { accept: 'application/json' } });
    status = response.status;
    body = await readBounded(response);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (timeout.aborted) {
      throw new ToolError(`${SERVICE} did not answer within ${options.timeoutMs} ms. Try again later.`, {
        cause: error,
      });
    }
    if (options.signal?.aborted) throw new ToolError('The weather request was cancelled.', { cause: error });
    throw new ToolError(
      `${SERVICE} could not be reached${networkCode(error)}. It may be down or blocked; try again later.`,
      { cause: error },
    );
  }
  if (status < 200 || status > 299) throw new ToolError(httpErrorMessage(status, body));

  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new ToolError(`${SERVICE} sent a malformed answer (not valid JSON). Try again later.`, {
      cause: error,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ToolError(`${SERVICE} sent an answer in an unexpected format. Try again later.`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Reads the body as text, giving up once it passes {@link MAX_RESPONSE_BYTES}. */
async function readBounded(response: Response): Promise<string> {
  const tooLarge = () => new ToolError(`${SERVICE} sent an answer larger than ${MAX_RESPONSE_BYTES} bytes.`);
  if (Number(response.headers.get('content-length') ?? 0) > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** " (ECONNREFUSED)" from undici's `fetch failed` error, which hides the reason in `cause`. */
function networkCode(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause && typeof cause === 'object' && 'code' in cause ? cause.code : undefined;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : '';
}

/** Open-Meteo explains a 400 as `{ "error": true, "reason": "..." }`; pass the reason on, shortened. */
function httpErrorMessage(status: number, body: string): string {
  let reason = '';
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'reason' in parsed && typeof parsed.reason === 'string') {
      reason = `: ${quoteForMessage(parsed.reason)}`;
    }
  } catch {
    // Not JSON (an HTML error page, say): the status alone has to do.
  }
  if (status >= 500) return `${SERVICE} is having problems (HTTP ${status}${reason}). Try again later.`;
  return `${SERVICE} rejected the request (HTTP ${status}${reason}). Check the place name and days.`;
}
