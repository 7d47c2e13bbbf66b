/**
 * @module http/fast-path
 * `/mcp` without express's router walk (ADR 022). The router tries every request against each of
 * the app's layers in turn, matching a path pattern at each, and `/mcp`'s own middlewares sit
 * among a dozen others (`/health`, the curl path, the error handlers): about 5% of a call's CPU.
 *
 * The app still registers every `/mcp` middleware in its usual place, for every spelling express
 * accepts (`/MCP`, `/mcp/`). `fastPath` runs the same functions, in the same order, for the one
 * spelling clients send, as the app's first layer; any other path goes on to the router, untouched.
 * An error is handed to the app's error handlers, as express would, and never back to the walk:
 * a request the short way took is never seen by the `/mcp` layers a second time.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** `path` exactly, with or without a query string: what clients send, and all this serves. */
function isExactly(url: string, path: string): boolean {
  return url.startsWith(path) && (url.length === path.length || url.charCodeAt(path.length) === 0x3f);
}

export function fastPath(path: string, handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, fallThrough: NextFunction): void => {
    if (!isExactly(req.url, path)) {
      fallThrough();
      return;
    }
    let index = 0;
    const next = (error?: unknown): void => {
      // express's `next('route')` and `next('router')` skip handlers of a route or a router; the
      // chain is neither, and none of its handlers uses them, so any value is an error here.
      if (error !== undefined) {
        fallThrough(error);
        return;
      }
      const handler = handlers[index++];
      if (!handler) {
        // The last handler answers every request; passing one on would run the `/mcp` layers again.
        fallThrough(new Error(`${req.method} ${path}: every handler passed the request on, none answered.`));
        return;
      }
      try {
        const result: unknown = handler(req, res, next);
        // express 5 hands a handler's rejected promise to `next`, and so does this.
        if (result instanceof Promise)
          result.catch((reason: unknown) => next(reason ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}
