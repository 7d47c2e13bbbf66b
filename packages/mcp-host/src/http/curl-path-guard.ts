/**
 * @module http/curl-path-guard
 * The curl path (`POST /tools/:name`) runs a tool from one plain HTTP request, which is exactly
 * what a hostile web page would like to make a visitor's browser send. Browsers send a
 * cross-site POST without asking first only for "simple" bodies (text/plain, form encodings), so
 * the path takes `application/json` alone (415 otherwise). And where a browser names its page's
 * origin, it must be this server's own origin, scheme, host and port alike: the localhost-wide
 * check in front of `/mcp` lets any port on localhost through, and any page there is not us.
 * Test: `curl-path-guard.test.ts`.
 */
import type { Request, RequestHandler } from 'express';

/** `application/json`, with or without parameters (`; charset=utf-8`); nothing else. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [type = ''] = value.split(';');
  return type.trim().toLowerCase() === 'application/json';
}

/**
 * The origin this request was sent to, as a browser would write it: scheme, host and port from
 * the Host header (already checked against the allowed hosts). express's `req.protocol` honours
 * `X-Forwarded-Proto` only from a trusted proxy.
 */
function ownOrigin(req: Request): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  try {
    return new URL(`${req.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** Whether a browser's `Origin` names this very server; no `Origin` at all is curl or a script. */
export function isSameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let named: string;
  try {
    named = new URL(origin).origin;
  } catch {
    // "null" (sandboxed frames, file:// pages) and junk alike.
    return false;
  }
  return named === ownOrigin(req);
}

export const curlPathGuard: RequestHandler = (req, res, next) => {
  if (!isSameOrigin(req)) {
    res.status(403).json({
      error: {
        code: -32000,
        message: 'Forbidden: the curl path takes no requests from other web origins.',
      },
    });
    return;
  }
  // A bare POST (no Content-Type, no body) means "no arguments": curl without -d sends exactly
  // that, and a browser never does (a form or fetch() body always comes with a Content-Type).
  const type = req.headers['content-type'];
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (type === undefined ? hasBody : !isJsonContentType(type)) {
    res.status(415).json({
      error: {
        code: -32600,
        message:
          'Unsupported Media Type: send the tool arguments as JSON with "Content-Type: application/json".',
      },
    });
    return;
  }
  next();
};
