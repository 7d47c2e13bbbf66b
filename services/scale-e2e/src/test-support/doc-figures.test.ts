/**
 * The comparison behind `reportFigure`: a quoted figure line matches a printed one with other
 * numbers, never one with other words. Needs no Postgres or HAProxy, so it runs everywhere.
 */
import { describe, expect, it } from 'vitest';
import { quotedFigures, sameShape } from './doc-figures.js';

describe('sameShape', () => {
  it('matches the same words with other numbers, decimals and all', () => {
    expect(
      sameShape(
        '[scale-e2e] attempts 420, acknowledged 400, retryable errors 20 {…}, rows 402',
        '[scale-e2e] attempts 417, acknowledged 400, retryable errors 17 {"HTTP 502":8,"connection: x":9}, rows 403',
      ),
    ).toBe(true);
    expect(sameShape('[scale-e2e] down 873 ms, 1.5 s', '[scale-e2e] down 12 ms, 20.25 s')).toBe(true);
    expect(sameShape('[scale-e2e] tally {…}', '[scale-e2e] tally {}')).toBe(true);
  });

  it('refuses other words, a missing part, or text after the end', () => {
    expect(
      sameShape(
        '[scale-e2e] Postgres down 873 ms (HAProxy answered 503 after 754 ms)',
        '[scale-e2e] Postgres down 3393 ms (HAProxy found no replica ready after 2627 ms and served from the live ones)',
      ),
    ).toBe(false);
    expect(
      sameShape('[scale-e2e] retryable errors 0 {}', '[scale-e2e] retryable errors 21 {"HTTP 502":8}'),
    ).toBe(false);
    expect(sameShape('[scale-e2e] rows 400', '[scale-e2e] rows 400 (and 3 errors)')).toBe(false);
    // Regular-expression characters in a quote are text, not patterns.
    expect(sameShape('[scale-e2e] a.b (c)', '[scale-e2e] axb (c)')).toBe(false);
  });
});

describe('quotedFigures', () => {
  it('reads only the [scale-e2e] lines, and module 12 quotes some', () => {
    expect(quotedFigures('text\n[scale-e2e] one 1  \n  [scale-e2e] indented\n[scale-e2e] two 2')).toEqual([
      '[scale-e2e] one 1',
      '[scale-e2e] two 2',
    ]);
    expect(quotedFigures().length).toBeGreaterThan(5);
  });
});
