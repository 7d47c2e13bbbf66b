/**
 * @module login-limits
 * Limits on guessing, per client address, with express-rate-limit: failed sign-ins on the login
 * form, and failed client authentications at the token endpoint. Two buckets, so a person who
 * mistypes a password does not lock the agent on the same machine out of its tokens. Only failures
 * count (`skipSuccessfulRequests`); once an address is over the limit, every attempt from it gets
 * 429 with Retry-After, a right password too, until its window ends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import { sendPage, tooManyAttemptsPage } from './html.js';

/** The limit is per minute: long enough to slow guessing, short enough for a person who mistyped. */
export const LOGIN_WINDOW_MS = 60_000;

/**
 * A connect-style middleware on plain node:http. express-rate-limit needs no more than this from
 * Express when the key, the answer and what counts as success are ours, as they are here.
 */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

export interface LoginLimits {
  /** For `POST /interaction/<uid>/login`: counts answers of 400 and above. */
  signIn: NodeMiddleware;
  /** For `POST /token` with an Authorization header: counts 401s (`invalid_client`). */
  clientAuthentication: NodeMiddleware;
}

export interface LoginLimitOptions {
  /** Failed attempts per client address per window, in each bucket. */
  attemptsPerMinute: number;
  /** For tests; default `LOGIN_WINDOW_MS`. */
  windowMs?: number;
}

/**
 * The address a request counts against: the TCP peer. Never a forwarded header: nothing here sits
 * behind a proxy, and such a header is the client's to forge. ipKeyGenerator puts an IPv6 client's
 * whole /56 in one bucket (rotating addresses inside it doesn't help) and an IPv4-mapped address
 * in its IPv4 one.
 */
export function clientAddress(req: IncomingMessage): string {
  return ipKeyGenerator(req.socket.remoteAddress ?? 'unknown');
}

/** Seconds until the window ends, as express-rate-limit has just put them in Retry-After. */
function retryAfterSeconds(res: ServerResponse, windowMs: number): number {
  return Number(res.getHeader('retry-after')) || Math.ceil(windowMs / 1000);
}

function limiter(
  options: LoginLimitOptions,
  counts: (res: ServerResponse) => boolean,
  answer: (res: ServerResponse, retryAfter: number) => void,
  skip: (req: IncomingMessage) => boolean = () => false,
): NodeMiddleware {
  const windowMs = options.windowMs ?? LOGIN_WINDOW_MS;
  const middleware = rateLimit({
    windowMs,
    limit: options.attemptsPerMinute,
    store: new MemoryStore(),
    keyGenerator: clientAddress,
    skip,
    // Every attempt counts when it starts (so parallel guesses count too); a success is taken back.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req: IncomingMessage, res: ServerResponse) => !counts(res),
    // draft-7's RateLimit headers: draft-8's are written with Express's `res.append`.
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req: IncomingMessage, res: ServerResponse) => answer(res, retryAfterSeconds(res, windowMs)),
  });
  // Typed for Express, whose request adds `ip`, `app` and the like. Only the default key generator
  // and the default handler read those, and both are replaced above; the rest is node:http.
  return middleware as unknown as NodeMiddleware;
}

export function createLoginLimits(options: LoginLimitOptions): LoginLimits {
  return {
    signIn: limiter(
      options,
      (res) => res.statusCode >= 400,
      (res, retryAfter) =>
        sendPage(res, 429, tooManyAttemptsPage(retryAfter, new Date(Date.now() + retryAfter * 1000))),
    ),
    clientAuthentication: limiter(
      options,
      (res) => res.statusCode === 401,
      (res, retryAfter) => {
        res.writeHead(429, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(
          JSON.stringify({
            // RFC 8628's "back off" error; the status and Retry-After say the same to any HTTP client.
            error: 'slow_down',
            error_description: `Too many failed client authentications from your address. Retry in ${retryAfter} s.`,
            retry_after: retryAfter,
          }),
        );
      },
      // Public clients send no secret, so there is nothing to guess: only Basic authentication counts.
      (req) => req.headers.authorization === undefined,
    ),
  };
}
