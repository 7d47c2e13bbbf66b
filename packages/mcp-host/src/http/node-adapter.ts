/**
 * @module http/node-adapter
 * Serves an SDK fetch-shaped handler (`createMcpHandler().fetch`) from express, like the SDK's
 * `toNodeHandler`, but without rebuilding the body: express has already parsed it, and the handler
 * reads it from `parsedBody`, so the web `Request` carries headers only, and no signal (the handler
 * gets it as `options.signal`, series patch 09). A JSON answer is written in one piece, from its
 * text when the handler kept it (`jsonText`, series patch 12); an SSE stream is copied with backpressure
 * and stops when the client goes away. `onFinish` tells the caller whether the exchange ended
 * normally, so a pooled server can return. It is the host's one Node adapter: the series' patches
 * that teach `toNodeHandler` the same things (03, 04, 10, 11) are not installed, and only the
 * bench's SDK floor serves through them (patches/README.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthInfo, PerRequestHTTPServerTransport } from '@modelcontextprotocol/server';

export type FetchHandler = (
  request: Request,
  options: { parsedBody: unknown; authInfo?: AuthInfo; signal: AbortSignal },
) => Promise<Response>;

export interface AdapterOptions {
  /** Called once per exchange with the `Request` the handler saw; `completed` is false when the client left first. */
  onFinish?: (request: Request, completed: boolean) => void;
  onerror?: (error: Error) => void;
}

/** Node's header object as web `Headers`; pseudo-headers (HTTP/2) are not real headers. */
function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

export function nodeAdapter(handler: FetchHandler, options: AdapterOptions = {}) {
  return async (req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> => {
    const abort = new AbortController();
    let completed = false;
    res.once('close', () => {
      if (!completed) abort.abort();
    });
    // No signal on the Request: undici's follows one through a WeakRef and a FinalizationRegistry,
    // which costs more than the rest of the Request. The handler follows `signal` instead (patch 09).
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers: toHeaders(req),
    });
    try {
      // The verified token (when sign-in is on), for tools that read `ctx.http.authInfo`.
      const { auth } = req as IncomingMessage & { auth?: AuthInfo };
      const response = await handler(request, { parsedBody, authInfo: auth, signal: abort.signal });
      const headers: Record<string, string> = {};
      for (const [name, value] of response.headers) headers[name] = value;
      // A JSON answer of a handler built with `jsonText: true` (series patch 12) has no body: its
      // text is kept beside it, and goes out as it is, with no web stream built or read.
      const text = PerRequestHTTPServerTransport.jsonTextOf(response);
      if (text !== undefined) {
        headers['content-length'] = String(Buffer.byteLength(text));
        res.writeHead(response.status, headers);
        completed = true;
        res.end(text);
        return;
      }
      if (response.body === null || !isEventStream(response)) {
        const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
        // Its length, so Node sends it as one plain body rather than in chunked encoding.
        if (body !== undefined) headers['content-length'] = String(body.length);
        res.writeHead(response.status, headers);
        completed = true;
        res.end(body);
        return;
      }
      res.writeHead(response.status, headers);
      res.flushHeaders();
      for await (const chunk of response.body) {
        if (abort.signal.aborted) break;
        if (!res.write(chunk)) await waitForDrain(res, abort.signal);
      }
      completed = !abort.signal.aborted;
      res.end();
    } catch (error) {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32603, message: 'Internal server error' },
            id: null,
          }),
        );
      } else {
        res.end();
      }
    } finally {
      options.onFinish?.(request, completed);
    }
  };
}

function waitForDrain(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
