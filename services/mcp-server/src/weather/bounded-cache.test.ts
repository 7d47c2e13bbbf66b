import { describe, expect, it, vi } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
  it('creates a value once per key and returns the cached one after', () => {
    const cache = new BoundedCache<string, { key: string }>(10);
    const create = vi.fn((key: string) => ({ key }));
    const first = cache.getOrCreate('a', create);
    expect(cache.getOrCreate('a', create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('caches undefined results too, so a repeated miss is not recomputed', () => {
    const cache = new BoundedCache<string, string | undefined>(10);
    const create = vi.fn(() => undefined);
    cache.getOrCreate('nope', create);
    cache.getOrCreate('nope', create);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('never holds more than maxEntries, dropping the oldest first', () => {
    const cache = new BoundedCache<number, number>(3);
    for (let i = 0; i < 1_000; i++) cache.getOrCreate(i, (key) => key * 2);
    expect(cache.size).toBe(3);
    const create = vi.fn((key: number) => key * 2);
    expect([997, 998, 999].map((key) => cache.getOrCreate(key, create))).toEqual([1994, 1996, 1998]);
    expect(create).not.toHaveBeenCalled();
    cache.getOrCreate(0, create);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('caches nothing when create throws', () => {
    const cache = new BoundedCache<string, string>(3);
    expect(() =>
      cache.getOrCreate('x', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(cache.size).toBe(0);
  });

  it('refuses a cap that is not a positive whole number', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
  });
});
