/**
 * @module http/rate-limits
 * Per-client rate limits, with express-rate-limit (the MCP specification says servers MUST
 * rate-limit tool invocations). Two buckets per client, so neither kind of traffic can starve
 * the other:
 * - **calls**: `tools/call` on `/mcp` (either era; each call inside a 2025-03-26 batch counts) and
 *   `POST /tools/:name`, the curl path that runs the same tools;
 * - **handshakes**: everything else that reaches `/mcp`, `/tools` and `/health`: `initialize`,
 *   lists, reads, notifications, responses, SSE streams and `DELETE`.
 * A client is the token's subject and client id when sign-in is on, else its address. Over the
 * limit: 429, `Retry-After`, the draft-8 `RateLimit` headers, and a JSON-RPC error body.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';

/** Both limits are per minute; shorter windows make bursts pass and then stall. */
const WINDOW_MS = 60_000;
/** JSON-RPC's "server error" range: a limit is not a protocol mistake by the client. */
const RATE_LIMITED = -32_000;

export interface RateLimitOptions {
  /** `tools/call`s per client per minute; 0 turns the limit off. */
  callsPerMinute: number;
  /** Every other request per client per minute; 0 turns the limit off. */
  handshakesPerMinute: number;
}

export interface RateLimits {
  /** For `/mcp`, after the body is parsed (and after sign-in, when it is on). */
  mcp: RequestHandler;
  /** For `POST /tools/:name`. */
  toolCall: RequestHandler;
  /** For `GET /tools` and `/health`. */
  handshake: RequestHandler;
}

function toolCallsIn(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((message) => isPlainObject(message) && message.method === 'tools/call').length;
}

/** The client a request counts against: who signed in, or where it comes from. Never the token. */
export function clientKey(req: Request): string {
  const auth = req.auth;
  if (auth) {
    const sub = typeof auth.extra?.sub === 'string' ? auth.extra.sub : '';
    return `sub:${sub}|client:${auth.clientId}`;
  }
  // ipKeyGenerator groups an IPv6 client's /56, so rotating addresses inside it doesn't dodge the limit.
  return `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
}

function jsonRpcId(body: unknown): string | number | null {
  if (!isPlainObject(body)) return null;
  const { id } = body;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function limiter(limit: number, what: string, store: MemoryStore): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    store,
    keyGenerator: clientKey,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (req: Request, res: Response) => {
      // express-rate-limit has set Retry-After already; the body says the same in words.
      const retryAfter = Number(res.getHeader('retry-after')) || Math.ceil(WINDOW_MS / 1000);
      const message = `Rate limit exceeded: at most ${limit} ${what} a minute per client. Retry in ${retryAfter} s.`;
      const error = { code: RATE_LIMITED, message, data: { retryAfterSeconds: retryAfter } };
      // JSON-RPC on /mcp; the curl path and /health answer errors as `{ error }`.
      const onMcp = req.originalUrl.startsWith('/mcp');
      res.status(429).json(onMcp ? { jsonrpc: '2.0', error, id: jsonRpcId(req.body) } : { error });
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
      const count = req.method === 'POST' ? toolCallsIn(req.body) : 0;
      if (count === 0) return handshakes(req, res, next);
      // The limiter counts one hit per request; a batch's other calls are added to its store first.
      if (options.callsPerMinute > 0) {
        const key = clientKey(req);
        // Past the limit, more hits change nothing; the body limit already bounds a batch's size.
        const extras = Math.min(count, options.callsPerMinute + 1) - 1;
        for (let extra = 0; extra < extras; extra++) await callStore.increment(key);
      }
      return calls(req, res, next);
    },
    toolCall: calls,
    handshake: handshakes,
  };
}
