/**
 * @module http/body-errors.test
 * Which answer each body-parser failure gets: a 4xx with its JSON-RPC code for what a client
 * caused, nothing for an abandoned body, and nothing here (so the app's 500) for a parser's own fault.
 */
import { describe, expect, it } from 'vitest';
import { ABANDONED, classifyBodyError } from './body-errors.js';
import { JsonTooDeepError } from './json-depth.js';

const classify = (error: object, encoding?: string) => classifyBodyError(error, '1 MB', encoding);

describe('classifyBodyError', () => {
  it('answers bytes that are not JSON with 400 and -32700', () => {
    expect(classify({ type: 'entity.parse.failed', status: 400 })).toMatchObject({
      status: 400,
      code: -32700,
    });
  });

  it('answers a body that is not the compression it names with 400 and -32700, naming the encoding', () => {
    const zlibError = Object.assign(new Error('incorrect header check'), {
      code: 'Z_DATA_ERROR',
      status: 400,
    });
    expect(classify(zlibError, 'gzip')).toEqual({
      status: 400,
      code: -32700,
      message: 'Parse error: the request body could not be decoded as its Content-Encoding (gzip) says.',
    });
  });

  it('answers too large with 413, too deep with 400, and an unread encoding or charset with 415', () => {
    expect(classify({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 413, code: -32600 });
    expect(classify(new JsonTooDeepError())).toMatchObject({ status: 400, code: -32600 });
    expect(classify({ type: 'encoding.unsupported', encoding: 'compress', status: 415 })).toMatchObject({
      status: 415,
      message: expect.stringContaining('"compress"'),
    });
    expect(classify({ type: 'charset.unsupported', status: 415 })).toMatchObject({ status: 415 });
  });

  it('answers nothing to a body whose client left', () => {
    expect(classify({ type: 'request.aborted', status: 400 })).toBe(ABANDONED);
  });

  it("leaves a parser's own fault (a 5xx) to the app's error handler", () => {
    expect(classify({ type: 'stream.not.readable', status: 500 })).toBeUndefined();
    expect(classify(new Error('no status'))).toBeUndefined();
  });
});
