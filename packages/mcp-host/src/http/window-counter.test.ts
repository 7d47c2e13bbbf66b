/**
 * The rate limits' counter: one window per client from its first hit, a new window at 1 once it
 * ends, batches counted at once, clients apart, and memory bounded by the clients of the last two
 * windows (the tick drops the older map whole).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWindowCounter, type WindowCounter } from './window-counter.js';

const WINDOW = 60_000;

describe('createWindowCounter', () => {
  let counter: WindowCounter | undefined;
  afterEach(() => {
    counter?.stop();
    vi.useRealTimers();
  });

  it("counts a client's hits in a window that starts at its first hit, and starts again at 1 after it", () => {
    counter = createWindowCounter(WINDOW);
    expect(counter.hit('a', 1_000)).toEqual({ hits: 1, resetAt: 61_000 });
    expect(counter.hit('a', 30_000)).toEqual({ hits: 2, resetAt: 61_000 });
    expect(counter.hit('a', 60_999, 3)).toEqual({ hits: 5, resetAt: 61_000 });
    expect(counter.hit('a', 61_000)).toEqual({ hits: 1, resetAt: 121_000 });
  });

  it('keeps clients apart, whatever their keys hold', () => {
    counter = createWindowCounter(WINDOW);
    for (const key of [
      'sub:alice',
      'sub:bob',
      '',
      "' OR 1=1 --",
      'x'.repeat(10_000),
      '__proto__',
      'constructor',
    ]) {
      expect(counter.hit(key, 0).hits, JSON.stringify(key.slice(0, 20))).toBe(1);
    }
    expect(counter.hit('sub:alice', 1).hits).toBe(2);
    expect(counter.size).toBe(7);
  });

  it('forgets a client idle for two windows, keeps one active in the last, and never holds more', () => {
    vi.useFakeTimers();
    counter = createWindowCounter(WINDOW);
    counter.hit('idle', Date.now());
    counter.hit('active', Date.now());
    vi.advanceTimersByTime(WINDOW);
    // After one tick both are in the older map; a hit moves "active" back into the current one.
    expect(counter.size).toBe(2);
    expect(counter.hit('active', Date.now()).hits).toBe(1);
    vi.advanceTimersByTime(WINDOW);
    expect(counter.size).toBe(1);
    // A flood of distinct keys is dropped two ticks later, all at once.
    for (let i = 0; i < 10_000; i++) counter.hit(`flood-${i}`, Date.now());
    vi.advanceTimersByTime(2 * WINDOW);
    expect(counter.size).toBe(0);
  });
});
