/**
 * @module http/rate-limits
 * Per-client rate limits, with express-rate-limit (the MCP specification says servers MUST
 * rate-limit tool invocations). Two buckets per client, so neither kind of traffic can starve
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
import type { Request, RequestHandler, Response } from 'express';
import { MemoryStore, type Options, rateLimit } from 'express-rate-limit';
import { requestIdOf } from './json-rpc-errors.js';
import { addressKeyOf, clientKeyOf, readingOf } from './request-reading.js';

/** Both limits are per minute; shorter windows make bursts pass and then stall. */
const WINDOW_MS = 60_000;
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

function limiter(
  limit: number,
  what: string,
  store: MemoryStore,
  keyGenerator: (req: Request) => string = clientKeyOf,
): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    store,
    keyGenerator,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (req: Request, res: Response) => {
      // express-rate-limit has set Retry-After already; the body says the same in words.
      const retryAfter = Number(res.getHeader('retry-after')) || Math.ceil(WINDOW_MS / 1000);
      const message = `Rate limit exceeded: at most ${limit} ${what} a minute per client. Retry in ${retryAfter} s.`;
      const error = { code: RATE_LIMITED, message, data: { retryAfterSeconds: retryAfter } };
      // JSON-RPC on /mcp; the curl path and /health answer errors as `{ error }`.
      const onMcp = req.originalUrl.startsWith('/mcp');
      res.status(429).json(onMcp ? { jsonrpc: '2.0', error, id: requestIdOf(req.body) } : { error });
    },
  });
}

const pass: RequestHandler = (_req, _res, next) => next();

export function createRateLimits(options: RateLimitOptions): RateLimits {
  const callStore = new MemoryStore();
  const calls = options.callsPerMinute > 0 ? limiter(options.callsPerMinute, 'tool calls', callStore) : pass;
  const handshakes =
    options.handshakesPerMinute > 0
      ? limiter(options.handshakesPerMinute, 'requests', new MemoryStore())
      : pass;
  return {
    mcp: async (req, res, next) => {
      const reading = readingOf(req);
      const count = reading.toolCalls;
      if (count === 0) return handshakes(req, res, next);
      // The limiter counts one hit per request; a batch's other calls are added to its store first.
      if (options.callsPerMinute > 0) {
        const key = reading.clientKey;
        // Past the limit, more hits change nothing; the body limit already bounds a batch's size.
        const extras = Math.min(count, options.callsPerMinute + 1) - 1;
        for (let extra = 0; extra < extras; extra++) await callStore.increment(key);
      }
      return calls(req, res, next);
    },
    toolCall: calls,
    handshake: handshakes,
    authFailures: failureBudget(options.authFailuresPerMinute ?? 0),
  };
}

/**
 * Counts failed sign-ins per address in express-rate-limit's own store (the same fixed window as
 * the other limits). Keyed by address: a request with a bad token has no one else to be.
 */
function failureBudget(perMinute: number): FailureBudget | undefined {
  if (perMinute <= 0) return undefined;
  const store = new MemoryStore();
  // The store reads only windowMs from the options a limiter would hand it.
  store.init({ windowMs: WINDOW_MS } as Options);
  return {
    perMinute,
    async spend(req) {
      const { totalHits, resetTime } = await store.increment(addressKeyOf(req));
      if (totalHits <= perMinute) return undefined;
      const resetAt = resetTime?.getTime() ?? Date.now() + WINDOW_MS;
      return Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
    },
  };
}
