/**
 * @module http-access
 * The HTTP edge of `api-access.ts`: which browser origins may call, who the caller is (bearer
 * token or session cookie), the one-time link that sets the cookie, JSON-only bodies, and the per
 * caller rate limits (express-rate-limit). `http.ts` puts these in front of its routes.
 */
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { type ApiAccess, type Caller, SESSION_TTL_MS } from './api-access.js';

/** Limits count per minute: shorter windows let a burst through and then stall. */
const WINDOW_MS = 60_000;

/**
 * One cookie per host port: cookies ignore ports, so agents on :3001 and :3021 of one host would
 * otherwise overwrite each other's session (docker compose runs four).
 */
export function sessionCookieName(req: Request): string {
  const port = /:(\d{1,5})$/.exec(req.headers.host ?? '')?.[1] ?? (req.secure ? '443' : '80');
  return `mcp_agent_session_${port}`;
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The caller of a request, or undefined when it brings no valid token or session. */
export function callerFrom(access: ApiAccess, req: Request): Caller | undefined {
  const bearer = /^Bearer ([^\s]+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const session = cookieValue(req, sessionCookieName(req));
  return access.identify({
    ...(bearer !== undefined && { bearer }),
    ...(session !== undefined && { session }),
  });
}

/** The caller `requireCaller` found; only for routes behind it. */
export function callerOf(res: Response): Caller {
  const caller: unknown = res.locals.caller;
  if (typeof caller !== 'object' || caller === null || !('id' in caller)) {
    throw new Error('callerOf: the route is not behind requireCaller');
  }
  return caller as Caller;
}

/**
 * A browser always sends Origin on a POST and names the page that sent it. Only the page's own
 * origin (scheme, host and port: a page on another port of the same host is another origin, yet
 * the same "site" to SameSite cookies) and the listed ones may call. Without Origin, a
 * `Sec-Fetch-Site` of cross-site or same-site still marks another page's request.
 */
export function sameOriginOnly(allowedOrigins: readonly string[] = []): RequestHandler {
  const allowed = new Set(allowedOrigins.map((origin) => origin.toLowerCase()));
  return (req, res, next) => {
    const origin = req.headers.origin;
    const fetchSite = req.headers['sec-fetch-site'];
    if (origin !== undefined) {
      const own = `${req.protocol}://${req.headers.host ?? ''}`.toLowerCase();
      if (origin.toLowerCase() === own || allowed.has(origin.toLowerCase())) return next();
    } else if (fetchSite !== 'cross-site' && fetchSite !== 'same-site') return next();
    res.status(403).json({ error: 'Requests from other web pages are not allowed.' });
  };
}

/** For /api: 401 without a valid caller (when a token is set); the caller goes to `res.locals`. */
export function requireCaller(access: ApiAccess): RequestHandler {
  return (req, res, next) => {
    const caller = callerFrom(access, req);
    if (!caller) {
      return void res.status(401).set('www-authenticate', 'Bearer realm="agent"').json({
        error:
          'Send Authorization: Bearer <AGENT_API_TOKEN>, or open the one-time link the agent printed to get a session.',
      });
    }
    res.locals.caller = caller;
    next();
  };
}

/**
 * Only JSON bodies: an HTML form or `text/plain` can be sent by any page without asking (no CORS
 * preflight), so refusing them closes that door even before the Origin check.
 */
export const jsonBodiesOnly: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.is('application/json')) return next();
  res.status(415).json({ error: 'Send the body as JSON, with Content-Type: application/json.' });
};

/**
 * `GET /?token=…`: trades the one-time token for a session cookie (HttpOnly: no script reads it;
 * SameSite=Strict: no other site's link or form carries it) and redirects to the clean URL, so the
 * token leaves the address bar and the history. Without a token, or with no AGENT_API_TOKEN, it
 * lets the page load.
 */
export function oneTimeLink(access: ApiAccess): RequestHandler {
  return (req, res, next) => {
    const token = req.query.token;
    // Only a GET spends the link: a HEAD (a link checker, say) must not use it up.
    if (!access.secured || token === undefined || req.method !== 'GET') return next();
    res.set({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    const session = typeof token === 'string' ? access.redeem(token) : undefined;
    if (!session) {
      return void res
        .status(401)
        .type('text/plain')
        .send(
          'This link is not valid or was used already: each link works once. The agent prints a new one in its log after each use.\n',
        );
    }
    const cookie = [
      `${sessionCookieName(req)}=${session}`,
      'HttpOnly',
      'SameSite=Strict',
      'Path=/',
      `Max-Age=${SESSION_TTL_MS / 1000}`,
      ...(req.secure ? ['Secure'] : []),
    ];
    res.set('set-cookie', cookie.join('; ')).redirect(303, '/');
  };
}

/**
 * A per-caller limit on an expensive route: a caller is its session or the bearer token, else
 * (no AGENT_API_TOKEN) its address. 429 with Retry-After and a JSON error over it.
 */
export function perCallerLimit(
  limit: number,
  what: string,
  setting = 'AGENT_RATE_LIMIT_PER_MINUTE',
): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req: Request, res: Response) => {
      const caller: unknown = res.locals.caller;
      const id = typeof caller === 'object' && caller !== null && 'id' in caller ? String(caller.id) : '';
      if (id !== '' && id !== 'local') return id;
      // ipKeyGenerator groups an IPv6 client's /56, so rotating addresses inside it doesn't dodge the limit.
      return `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
    },
    handler: (_req: Request, res: Response) => {
      // express-rate-limit has set Retry-After already; the body says the same in words.
      const retryAfter = Number(res.getHeader('retry-after')) || WINDOW_MS / 1000;
      res.status(429).json({
        error: `Rate limit exceeded: at most ${limit} ${what} a minute per caller (${setting}). Retry in ${retryAfter} s.`,
        retryAfterSeconds: retryAfter,
      });
    },
  });
}
