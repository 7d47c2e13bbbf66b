import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.js';

describe('paginate', () => {
  const items = Array.from({ length: 7 }, (_, i) => i);

  it('walks every item exactly once and ends without a cursor', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = paginate(items, cursor, 3);
      seen.push(...page.items);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(items);
  });

  it('returns one page without nextCursor when everything fits', () => {
    expect(paginate(items, undefined, 50)).toEqual({ items });
  });

  it.each([
    '%%bad',
    Buffer.from('o:-1').toString('base64url'),
    Buffer.from('o:999').toString('base64url'),
    '',
    'x'.repeat(10_000),
  ])('rejects the cursor %j with -32602', (cursor) => {
    expect(() => paginate(items, cursor, 3)).toThrow(expect.objectContaining({ code: -32602 }));
  });
});
