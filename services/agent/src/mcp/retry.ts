/**
 * @module mcp/retry
 * When to try connecting again, how long to wait, and how to explain giving up: the error names
 * the server, its URL or command, the attempts made and the cause. Used by `connect.ts`.
 */
import { WorkshopError } from '@mcp-workshop/shared';
import { OAuthError, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import type { ServerSpec } from './config.js';

export interface RetryPolicy {
  /** Connection attempts in total, including the first. */
  attempts: number;
  /** Wait after the first failure; each later wait doubles. */
  initialDelayMs: number;
  /** Cap on a single wait. */
  maxDelayMs: number;
}

/**
 * In docker-compose the agent can start before the server listens. 0.5 + 1 + 2 + 4 + 8 s of
 * waiting (about 15 s over six attempts) covers a cold container start, yet a server that is
 * simply not running is reported before the person wonders whether the agent hung.
 */
export const DEFAULT_CONNECT_RETRY: RetryPolicy = { attempts: 6, initialDelayMs: 500, maxDelayMs: 8_000 };

/** How far `describeCause` follows `error.cause`; real chains are 2–3 deep, a cycle must not loop. */
const MAX_CAUSE_DEPTH = 8;
/** A cause is quoted in one line of an error message; a whole HTML error page is not. */
const MAX_CAUSE_LENGTH = 300;

/** The server could not be reached or started; the message says where, how often, why, and what to try. */
export class McpConnectError extends WorkshopError {
  constructor(
    message: string,
    readonly server: string,
    readonly target: string,
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The wait after failed attempt number `attempt` (1-based): doubling from the initial delay, capped. */
export function backoffDelayMs(attempt: number, retry: RetryPolicy): number {
  return Math.min(retry.initialDelayMs * 2 ** (attempt - 1), retry.maxDelayMs);
}

/**
 * Retrying cannot fix a command that does not exist, a malformed URL, or a server that refuses
 * us (HTTP 4xx such as 401, 403, 404). Everything else (refused connections, timeouts, 5xx, a
 * crashed start) may be a server that is still starting.
 */
export function isRetryable(error: unknown): boolean {
  for (const link of causeChain(error)) {
    const code = link instanceof Error ? (link as NodeJS.ErrnoException).code : undefined;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'ERR_INVALID_URL') return false;
    // A refused sign-in (a wrong secret, a scope the client may not have) stays refused; an
    // authorization server that is down or overloaded may come back.
    if (link instanceof UnauthorizedError) return false;
    if (link instanceof OAuthError)
      return link.code === 'server_error' || link.code === 'temporarily_unavailable';
  }
  return !isClientHttpError(error);
}

/** HTTP 4xx other than 408 (timeout) and 429 (slow down): the server is up and refuses this request. */
function isClientHttpError(error: unknown): boolean {
  const status = httpStatusOf(error)?.status;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * The most specific reason in an error chain, on one line, e.g. `connect ECONNREFUSED
 * 127.0.0.1:3000` or `HTTP 404 Not Found` (rather than the HTML error page that came with it).
 */
export function describeCause(error: unknown): string {
  const chain = causeChain(error);
  const http = httpStatusOf(error);
  if (http) return oneLine(`HTTP ${http.status}${http.statusText ? ` ${http.statusText}` : ''}`);
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i];
    if (link instanceof Error) {
      const code = (link as NodeJS.ErrnoException).code;
      if (link.message) return oneLine(link.message);
      if (typeof code === 'string') return code;
    }
  }
  return oneLine(String(error));
}

function httpStatusOf(error: unknown): { status: number; statusText?: string } | undefined {
  const link = causeChain(error).find((candidate) => candidate instanceof SdkHttpError);
  if (!(link instanceof SdkHttpError)) return undefined;
  return { status: link.status, ...(link.statusText && { statusText: link.statusText }) };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_CAUSE_LENGTH ? `${flat.slice(0, MAX_CAUSE_LENGTH)}…` : flat;
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && chain.length < MAX_CAUSE_DEPTH && !chain.includes(current)) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

export function connectFailureMessage(
  spec: ServerSpec,
  target: string,
  attempts: number,
  lastError: unknown,
  stderrTail: readonly string[],
): string {
  const cause = describeCause(lastError);
  const tries = `after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'} (${cause})`;
  if (spec.transport === 'http') {
    if (isClientHttpError(lastError)) {
      return (
        `The MCP server "${spec.name}" at ${target} answered with an error ${tries}. ` +
        'Check the URL (the path usually ends in /mcp) and any headers it needs, such as Authorization.'
      );
    }
    return [`Could not reach the MCP server "${spec.name}" at ${target} ${tries}. Is it running?`, spec.hint]
      .filter(Boolean)
      .join(' ');
  }
  const stderr =
    stderrTail.length > 0
      ? ` Its last lines on stderr:\n  ${stderrTail.join('\n  ')}\n`
      : ' It wrote nothing to stderr. ';
  return `Could not start the MCP server "${spec.name}" (${target}) ${tries}.${stderr}${
    spec.hint ?? 'Check its "command" and "args" in the servers config.'
  }`;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
