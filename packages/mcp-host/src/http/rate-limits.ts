/**
 * @module http/rate-limits
 * Per-client rate limits (the MCP specification says servers MUST rate-limit tool invocations),
 * counted in fixed one-minute windows by `window-counter.ts`. Two buckets per client, so neither kind of traffic can starve
 * the other:
 * - **calls**: `tools/call` on `/mcp` (either era; each call inside a 2025-03-26 batch counts) and
 *   `POST /tools/:name`, the curl path that runs the same tools;
 * - **handshakes**: everything else that reaches `/mcp`, `/tools` and `/health`: `initialize`,
 *   lists, reads, notifications, responses, SSE streams and `DELETE`.
 * A client is the token's subject and client id when sign-in is on, else its address
 * (`clientKeyOf` in request-reading.ts); what counts as a call comes from the request's one
 * reading. A third budget, **sign-in failures**, is keyed by address alone and spent only by a
 * request whose token is missing or fails verification (`auth/guard.ts` spends it after the
 * check): a flood of bad tokens gets 429 instead of an endless stream of 401s, while a valid token
 * from the same address is never counted and never refused.
 * Over any limit: 429, `Retry-After`, the draft-8 `RateLimit` headers, and a JSON error body.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { requestIdOf } from './json-rpc-errors.js';
import { addressKeyOf, clientKeyOf, readingOf } from './request-reading.js';
import { createWindowCounter, type WindowCounter, type WindowEntry } from './window-counter.js';

/** Both limits are per minute; shorter windows make bursts pass and then stall. */
const WINDOW_MS = 60_000;
const WINDOW_SECONDS = WINDOW_MS / 1000;
/** JSON-RPC's "server error" range: a limit is not a protocol mistake by the client. */
const RATE_LIMITED = -32_000;

export interface RateLimitOptions {
  /** `tools/call`s per client per minute; 0 turns the limit off. */
  callsPerMinute: number;
  /** Every other request per client per minute; 0 turns the limit off. */
  handshakesPerMinute: number;
  /**
   * Requests per address per minute whose token was missing or failed verification; 0 turns it
   * off. Only used when sign-in is on.
   */
  authFailuresPerMinute?: number;
}

export interface RateLimits {
  /** For `/mcp`, after the body is parsed (and after sign-in, when it is on). */
  mcp: RequestHandler;
  /** For `POST /tools/:name`. */
  toolCall: RequestHandler;
  /** For `GET /tools` and `/health`. */
  handshake: RequestHandler;
  /** The address's budget for bad tokens, spent by the token check; undefined when off. */
  authFailures: FailureBudget | undefined;
}

/**
 * What one address may spend on requests that fail sign-in. Only failures are counted, after the
 * token was checked: a valid token is served whatever its address has spent.
 */
export interface FailureBudget {
  /**
   * Counts one failed sign-in against `req`'s address. Resolves to the seconds to wait when that
   * puts the address over its budget (the request is then refused with 429), else undefined.
   */
  spend(req: Request): Promise<number | undefined>;
  readonly perMinute: number;
}

/** A counted entry, with the client's partition key for the `RateLimit-Policy` header, made once per window. */
interface LimitEntry extends WindowEntry {
  partitionKey?: string;
}

/**
 * The draft-8 `pk` parameter, as express-rate-limit writes it: the first 12 hex digits of the key's
 * SHA-256, in base64. It names the client's bucket without showing its address or subject.
 */
function partitionKeyOf(key: string): string {
  return Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
}

/**
 * Counts each request against its client's window and sets the IETF draft-8 headers
 * (`RateLimit`, `RateLimit-Policy`); past `limit`, answers 429 with `Retry-After` and a JSON error.
 * The same headers and answers as express-rate-limit's `rateLimit({ standardHeaders: 'draft-8' })`,
 * which this replaced on the hot path (ADR 012): one lookup, no promise, the key hashed once per window.
 */
function limiter(
  limit: number,
  what: string,
  counter: WindowCounter,
  keyOf: (req: Request) => string = clientKeyOf,
): RequestHandler {
  const name = `"${limit}-in-1min"`;
  const policy = `${name}; q=${limit}; w=${WINDOW_SECONDS}; pk=:`;
  return (req, res, next) => {
    const key = keyOf(req);
    const now = Date.now();
    const entry: LimitEntry = counter.hit(key, now);
    entry.partitionKey ??= partitionKeyOf(key);
    const resetSeconds = Math.max(0, Math.ceil((entry.resetAt - now) / 1000));
    res.setHeader('RateLimit', `${name}; r=${Math.max(limit - entry.hits, 0)}; t=${resetSeconds}`);
    res.setHeader('RateLimit-Policy', `${policy}${entry.partitionKey}:`);
    if (entry.hits <= limit) {
      next();
      return;
    }
    res.setHeader('Retry-After', String(resetSeconds));
    refuse(req, res, limit, what, resetSeconds);
  };
}

/** The 429: JSON-RPC on /mcp; the curl path and /health answer errors as `{ error }`. */
function refuse(req: Request, res: Response, limit: number, what: string, resetSeconds: number): void {
  const retryAfter = resetSeconds || WINDOW_SECONDS;
  const message = `Rate limit exceeded: at most ${limit} ${what} a minute per client. Retry in ${retryAfter} s.`;
  const error = { code: RATE_LIMITED, message, data: { retryAfterSeconds: retryAfter } };
  const onMcp = req.originalUrl.startsWith('/mcp');
  res.status(429).json(onMcp ? { jsonrpc: '2.0', error, id: requestIdOf(req.body) } : { error });
}

const pass: RequestHandler = (_req, _res, next) => next();

export function createRateLimits(options: RateLimitOptions): RateLimits {
  const callCounter = createWindowCounter(WINDOW_MS);
  const calls =
    options.callsPerMinute > 0 ? limiter(options.callsPerMinute, 'tool calls', callCounter) : pass;
  const handshakes =
    options.handshakesPerMinute > 0
      ? limiter(options.handshakesPerMinute, 'requests', createWindowCounter(WINDOW_MS))
      : pass;
  return {
    mcp: (req, res, next) => {
      const reading = readingOf(req);
      const count = reading.toolCalls;
      if (count === 0) return handshakes(req, res, next);
      // The limiter counts one hit per request; a batch's other calls are counted first.
      if (options.callsPerMinute > 0 && count > 1) {
        // Past the limit, more hits change nothing; the body limit already bounds a batch's size.
        const extras = Math.min(count, options.callsPerMinute + 1) - 1;
        callCounter.hit(reading.clientKey, Date.now(), extras);
      }
      return calls(req, res, next);
    },
    toolCall: calls,
    handshake: handshakes,
    authFailures: failureBudget(options.authFailuresPerMinute ?? 0),
  };
}

/**
 * Counts failed sign-ins per address in the same fixed windows as the other limits. Keyed by
 * address: a request with a bad token has no one else to be.
 */
function failureBudget(perMinute: number): FailureBudget | undefined {
  if (perMinute <= 0) return undefined;
  const counter = createWindowCounter(WINDOW_MS);
  return {
    perMinute,
    async spend(req) {
      const now = Date.now();
      const { hits, resetAt } = counter.hit(addressKeyOf(req), now);
      if (hits <= perMinute) return undefined;
      return Math.max(1, Math.ceil((resetAt - now) / 1000));
    },
  };
}
