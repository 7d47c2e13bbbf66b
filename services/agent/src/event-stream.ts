/**
 * @module event-stream
 * Opens a server-sent event stream on an HTTP response, for the chat stream (`http.ts`) and a
 * view's tool call (`views/routes.ts`): `send` writes one event, `signal` aborts when the browser
 * goes away, and `ask` shows a tool's request for input on this stream, the only place it is shown.
 */
import type { Response } from 'express';
import type { InputListener } from './input-broker.js';

export interface EventStream {
  send(event: string, data: unknown): void;
  /** Aborted once the browser closes the stream: the work behind it stops. */
  signal: AbortSignal;
  /** An input listener for the input broker that sends `input_request` events here. */
  ask: InputListener;
}

export function openEventStream(res: Response): EventStream {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    // A proxy that buffers (nginx) would hold every event back until the end.
    'x-accel-buffering': 'no',
  });
  const send = (event: string, data: unknown) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const aborted = new AbortController();
  res.on('close', () => aborted.abort(new Error('The browser closed the stream.')));
  return {
    send,
    signal: aborted.signal,
    ask: (request) => {
      if (aborted.signal.aborted) throw new Error('the stream is closed');
      send('input_request', request);
    },
  };
}
