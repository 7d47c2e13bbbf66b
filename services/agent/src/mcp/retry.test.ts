import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, describeCause, isRetryable, type RetryPolicy } from './retry.js';

describe('backoffDelayMs', () => {
  it('doubles from the initial delay up to the cap', () => {
    const retry: RetryPolicy = { attempts: 6, initialDelayMs: 500, maxDelayMs: 3_000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(attempt, retry))).toEqual([
      500, 1_000, 2_000, 3_000, 3_000,
    ]);
  });
});

describe('describeCause', () => {
  it('reports the deepest cause, e.g. the refused connection under "fetch failed"', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' });
    const error = new SdkError(
      SdkErrorCode.EraNegotiationFailed,
      'Version negotiation probe failed: fetch failed',
      {},
      {
        cause: new TypeError('fetch failed', { cause: refused }),
      },
    );
    expect(describeCause(error)).toBe('connect ECONNREFUSED 127.0.0.1:3000');
  });

  it('falls back to the error code when the message is empty, as for AggregateError', () => {
    const aggregate = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    expect(describeCause(new TypeError('fetch failed', { cause: aggregate }))).toBe('ECONNREFUSED');
  });

  it('names the HTTP status instead of quoting an HTML error page', () => {
    const error = new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      '<html>\n<body>Cannot POST</body>',
      {
        status: 404,
        statusText: 'Not Found',
      },
    );
    expect(describeCause(error)).toBe('HTTP 404 Not Found');
  });

  it('keeps a long message on one short line', () => {
    const text = describeCause(new Error(`line one\n${'x'.repeat(1_000)}`));
    expect(text).not.toContain('\n');
    expect(text.length).toBeLessThanOrEqual(301);
  });
});

describe('isRetryable', () => {
  it('retries what a starting server causes, not what retrying cannot fix', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
    });
    const missing = Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' });
    const http = (status: number) =>
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${status}`, { status });
    expect(isRetryable(refused)).toBe(true);
    expect(isRetryable(http(503))).toBe(true);
    expect(isRetryable(http(429))).toBe(true);
    expect(isRetryable(missing)).toBe(false);
    expect(isRetryable(http(404))).toBe(false);
    expect(isRetryable(http(401))).toBe(false);
  });
});
