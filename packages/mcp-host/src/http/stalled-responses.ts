/**
 * @module http/stalled-responses
 * Drops an answer its client does not read. Node keeps whatever a response writes past the
 * socket's buffer in memory until the client takes it, so a client that asks for large answers and
 * never reads them pins that memory for as long as it keeps the connection open. Once a write is
 * refused by a full buffer, the whole answer must reach the client within the bound; if it does
 * not, the socket is destroyed, and what it held goes with it. Event streams (`text/event-stream`)
 * are exempt: they stay open on purpose, and the session and stream shares bound them.
 * Installed by `start.ts`. Test: `stalled-responses.http.test.ts`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';

/**
 * How long an answer may wait on its reader once its socket's buffer is full: long enough for a
 * slow network to take a page of a list, short enough that a client cannot hold many answers.
 */
export const DEFAULT_STALLED_RESPONSE_MS = 30_000;

function isEventStreamType(type: unknown): boolean {
  return typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream');
}

/** The Content-Type among `writeHead`'s headers: an object, or a flat or paired array of names and values. */
function contentTypeIn(headers: unknown): unknown {
  if (Array.isArray(headers)) {
    const pairs: unknown[][] = Array.isArray(headers[0])
      ? (headers as unknown[][])
      : headers.flatMap((item, index) => (index % 2 === 0 ? [[item, headers[index + 1]]] : []));
    return pairs.find(([name]) => String(name).toLowerCase() === 'content-type')?.[1];
  }
  if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === 'content-type') return value;
  }
  return undefined;
}

/** Watches one response: armed by a write the buffer refused, disarmed once everything drained. */
function watch(req: IncomingMessage, res: ServerResponse, stalledMs: number, logger: Logger): void {
  let timer: NodeJS.Timeout | undefined;
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const drop = () => {
    timer = undefined;
    logger.debug(
      { method: req.method, url: req.url, pendingBytes: req.socket.writableLength, stalledMs },
      'dropped an answer its client did not read',
    );
    // The socket, not just the response: its buffer is what holds the answer.
    req.socket.destroy();
  };
  // Headers handed to `writeHead` as an object never reach `getHeader`, so they are read on the way.
  let eventStream = false;
  const arm = () => {
    if (timer || eventStream || isEventStreamType(res.getHeader('content-type'))) return;
    timer = setTimeout(drop, stalledMs);
  };
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    eventStream = isEventStreamType(contentTypeIn(args.find((arg) => typeof arg === 'object')));
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    const accepted = write(...args);
    if (!accepted) arm();
    return accepted;
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    const result = end(...args);
    // `end` returns the response, not whether the buffer took it: ask the socket. An answer the
    // socket took at once is finished here already, and arms nothing.
    if (!res.writableFinished && req.socket.writableNeedDrain) arm();
    return result;
  }) as ServerResponse['end'];
  res.on('drain', disarm);
  res.once('finish', disarm);
  res.once('close', disarm);
}

/** Throws a RangeError for a bound that is not a positive number of milliseconds (a setting the caller got wrong). */
export function checkStalledResponseMs(stalledMs: number): void {
  if (!Number.isFinite(stalledMs) || stalledMs < 1) {
    throw new RangeError(`stalledResponseMs must be a positive number of milliseconds, not ${stalledMs}.`);
  }
}

/** Installs the rule on every response `server` sends. */
export function dropStalledResponses(server: Server, stalledMs: number, logger: Logger): void {
  checkStalledResponseMs(stalledMs);
  // Before the app's own listener, so the watch is in place before the app writes anything.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    watch(req, res, stalledMs, logger),
  );
}
