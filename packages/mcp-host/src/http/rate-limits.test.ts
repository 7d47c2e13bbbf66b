/**
 * The limits' answers are express-rate-limit's, which they replaced on the hot path (ADR 012): the
 * same draft-8 `RateLimit` and `RateLimit-Policy` headers on every request, the same `Retry-After`
 * and status past the limit, side by side with the library on one express app each, over real HTTP.
 */
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimits } from './rate-limits.js';

const LIMIT = 3;
/** The key ours counts an address under (`addressKeyOf`), given to the library too: the `pk` hashes it. */
const KEY = `ip:${ipKeyGenerator('127.0.0.1')}`;

async function serve(limiter: RequestHandler) {
  const app = express();
  app.get('/health', limiter, (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('the rate limits against express-rate-limit', () => {
  let ours: Awaited<ReturnType<typeof serve>>;
  let library: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    ours = await serve(createRateLimits({ callsPerMinute: 0, handshakesPerMinute: LIMIT }).handshake);
    library = await serve(
      rateLimit({
        windowMs: 60_000,
        limit: LIMIT,
        keyGenerator: () => KEY,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
      }),
    );
  });
  afterAll(async () => {
    await ours?.close();
    await library?.close();
  });

  it('answers each request with the same status and limit headers, up to and past the limit', async () => {
    const headersOf = (response: Response) =>
      Object.fromEntries(
        ['ratelimit', 'ratelimit-policy', 'retry-after'].map((name) => [name, response.headers.get(name)]),
      );
    for (let i = 1; i <= LIMIT + 2; i++) {
      const [mine, theirs] = await Promise.all([fetch(ours.url), fetch(library.url)]);
      expect(mine.status, `request ${i}`).toBe(theirs.status);
      // The seconds left may differ by one when the two windows straddle a second.
      const normalize = (headers: Record<string, string | null>) =>
        JSON.stringify(headers)
          .replace(/t=(59|60)/, 't=60')
          .replace(/"retry-after":"(59|60)"/, '"retry-after":"60"');
      expect(normalize(headersOf(mine)), `request ${i}`).toBe(normalize(headersOf(theirs)));
      expect(mine.status).toBe(i <= LIMIT ? 200 : 429);
      expect(mine.headers.get('ratelimit')).toBe(`"3-in-1min"; r=${Math.max(LIMIT - i, 0)}; t=60`);
      expect(mine.headers.get('ratelimit-policy')).toMatch(/^"3-in-1min"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    }
  });
});
