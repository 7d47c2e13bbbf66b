/**
 * @module http/request-target
 * The app's first layer: an absolute-form request-target (`POST http://127.0.0.1:3000/mcp HTTP/1.1`)
 * becomes the origin form (`/mcp`) before anything else sees it, so it is served exactly as that
 * form is, through `/mcp`'s one chain, with every check. RFC 9112 §3.2.2: a server MUST accept the
 * absolute form, and MUST then take the target's own authority rather than the Host header's:
 * that authority becomes the `Host` the Host check judges, and the Host header as received must
 * pass the same check first, so neither name can be foreign. The path is kept as it was spelt, not
 * cleaned by a URL parser, so no spelling reaches more than the same path in origin form would.
 * Test: `request-target.http.test.ts`.
 */
import type { RequestHandler } from 'express';
import { sendJsonRpcError } from './json-rpc-errors.js';

/** `http://` or `https://`, an authority without userinfo, and the rest (path and query), case as sent. */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#@]+)([^#]*)$/i;

/**
 * `checkHost` is the app's Host check: the Host header as received must pass it as well, so a
 * request that names a foreign host either way is refused, as its origin form would be.
 */
export function originForm(checkHost: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const target = req.url;
    // The origin form, which nearly every request uses, costs one character's check; `*` is OPTIONS's own form.
    if (target.startsWith('/') || target === '*') return next();
    const match = ABSOLUTE_FORM.exec(target);
    const [, authority, rest = ''] = match ?? [];
    if (authority === undefined) {
      sendJsonRpcError(
        res,
        400,
        -32600,
        'Bad Request: the request-target must be a path, or an http or https URL.',
      );
      return;
    }
    checkHost(req, res, () => {
      const path = rest.startsWith('/') ? rest : `/${rest}`;
      req.headers.host = authority;
      req.url = path;
      req.originalUrl = path;
      next();
    });
  };
}
