/**
 * @module http/body-errors
 * A request body that cannot be read is the client's mistake, never the server's: not JSON, not
 * the compression its Content-Encoding names, too large, nested too deep, in an encoding or a
 * charset this server does not read, or abandoned half way. Each gets its 4xx and a JSON-RPC error
 * (an abandoned one, whose client is gone, gets nothing), is logged at debug level at most (anyone
 * can send junk, and junk must not fill the log), and spends the sender's budget like any other
 * request, so a flood of bad bodies gets 429. A failure the parser reports that no client causes
 * (a 5xx) is still a bug, and goes on to the app's error handler.
 * Test: `body-errors.test.ts`, and over raw sockets `body-errors.http.test.ts`.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { sendJsonRpcError } from './json-rpc-errors.js';

/** What to answer a body that could not be read. */
export interface BodyRefusal {
  status: 400 | 413 | 415;
  /** JSON-RPC: -32700 for bytes that are not JSON, -32600 for a request this server will not read. */
  code: -32700 | -32600;
  message: string;
}

/** The client hung up before its body arrived: nobody is left to answer. */
export const ABANDONED = 'abandoned';

/** Errors that came out of the body parser, as opposed to any other middleware's. */
const fromParser = new WeakSet<object>();

/**
 * `parse` (express.json) with its failures marked as the body's, so {@link bodyErrorHandler}
 * answers those and nothing else.
 */
export function readBody(parse: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (typeof error === 'object' && error !== null) fromParser.add(error);
      next(error);
    });
}

function property(error: object, key: string): unknown {
  return key in error ? (error as Record<string, unknown>)[key] : undefined;
}

/**
 * How to answer a body parser's failure: a refusal, {@link ABANDONED}, or undefined for one no
 * client causes. `limitLabel` is the body limit as people read it ("1 MB").
 */
export function classifyBodyError(
  error: object,
  limitLabel: string,
  contentEncoding: string | undefined,
): BodyRefusal | typeof ABANDONED | undefined {
  const type = property(error, 'type');
  switch (type) {
    case 'request.aborted':
      return ABANDONED;
    case 'entity.too.large':
      return { status: 413, code: -32600, message: `Request body too large: the limit is ${limitLabel}.` };
    case 'entity.too.deep':
      return { status: 400, code: -32600, message: String(property(error, 'message')) };
    case 'entity.parse.failed':
      return { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
    case 'charset.unsupported':
      return { status: 415, code: -32600, message: 'Unsupported charset: send the body as UTF-8 JSON.' };
    case 'encoding.unsupported':
      return {
        status: 415,
        code: -32600,
        message: `Unsupported Content-Encoding "${String(property(error, 'encoding'))}": send the body uncompressed, or as gzip, deflate or br.`,
      };
    case 'request.size.invalid':
      return {
        status: 400,
        code: -32700,
        message: 'Parse error: the request body is not as long as its Content-Length says.',
      };
  }
  const status = property(error, 'status');
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  // What is left of the client's making is a body its decompressor could not read (zlib's errors
  // carry no type), or one the parser refused for a reason it has not named.
  return {
    status: 400,
    code: -32700,
    message: contentEncoding
      ? `Parse error: the request body could not be decoded as its Content-Encoding (${contentEncoding}) says.`
      : 'Parse error: the request body could not be read.',
  };
}

export interface BodyErrorOptions {
  /** The body limit as people read it, for the 413's message. */
  limitLabel: string;
  logger: Logger;
  /**
   * The sender's budget (the rate limits' handshake bucket): it runs first, and either answers 429
   * or lets the refusal through. Absent when the host has no rate limits.
   */
  count?: RequestHandler;
}

/** Answers the body parser's failures that a client caused (see the module header). */
export function bodyErrorHandler({ limitLabel, logger, count }: BodyErrorOptions): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (typeof error !== 'object' || error === null || !fromParser.has(error) || res.headersSent)
      return next(error);
    const encoding = req.headers['content-encoding'];
    const refusal = classifyBodyError(error, limitLabel, encoding);
    if (refusal === undefined) return next(error);
    if (refusal === ABANDONED) {
      logger.debug({ url: req.originalUrl }, 'the client left before its request body arrived');
      return;
    }
    logger.debug({ status: refusal.status, reason: refusal.message }, 'refused a request body');
    const answer = () => sendJsonRpcError(res, refusal.status, refusal.code, refusal.message);
    if (count) count(req, res, answer);
    else answer();
  };
}
