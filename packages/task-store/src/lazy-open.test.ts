/**
 * @module lazy-open.test
 * The one lazy opener: nothing is opened before the first call, concurrent first calls open once,
 * a failed open rejects with its error and is tried again on the next call, and a closed opener
 * never opens again and closes what it opened, even what was still opening.
 */
import { describe, expect, it } from 'vitest';
import { lazyOpen } from './lazy-open.js';

/** A stand-in for a store: counts how often it was opened and closed. */
function opener(options: { fail?: () => boolean; delayMs?: number } = {}) {
  const counts = { opens: 0, closes: 0 };
  const open = async () => {
    counts.opens += 1;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (options.fail?.()) throw new Error('database away');
    const n = counts.opens;
    return {
      n,
      close: async () => {
        counts.closes += 1;
      },
    };
  };
  return { counts, open };
}

describe('lazyOpen', () => {
  it('opens nothing until the first call, then opens once', async () => {
    const { counts, open } = opener();
    const lazy = lazyOpen(open, 'test store');
    expect(counts.opens).toBe(0);
    const first = await lazy.get();
    expect(await lazy.get()).toBe(first);
    expect(counts.opens).toBe(1);
    await lazy.close();
    expect(counts.closes).toBe(1);
  });

  it('shares one opening between calls that arrive while it is under way', async () => {
    const { counts, open } = opener({ delayMs: 10 });
    const lazy = lazyOpen(open, 'test store');
    const [a, b, c] = await Promise.all([lazy.get(), lazy.get(), lazy.get()]);
    expect(counts.opens).toBe(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
    await lazy.close();
  });

  it('rejects with what opening throws, and tries again on the next call', async () => {
    let fail = true;
    const { counts, open } = opener({ fail: () => fail });
    const lazy = lazyOpen(open, 'test store');
    await expect(lazy.get()).rejects.toThrow('database away');
    await expect(lazy.get()).rejects.toThrow('database away');
    expect(counts.opens).toBe(2);
    fail = false;
    expect((await lazy.get()).n).toBe(3);
    expect((await lazy.get()).n).toBe(3);
    await lazy.close();
    expect(counts.closes).toBe(1);
  });

  it('rejects every call that shared a failed attempt, then opens once for the next ones', async () => {
    let fail = true;
    const { counts, open } = opener({ fail: () => fail, delayMs: 10 });
    const lazy = lazyOpen(open, 'test store');
    const results = await Promise.allSettled([lazy.get(), lazy.get()]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(counts.opens).toBe(1);
    fail = false;
    await Promise.all([lazy.get(), lazy.get()]);
    expect(counts.opens).toBe(2);
    await lazy.close();
  });

  it('a synchronous throw from open is a rejection like any other failure', async () => {
    let fail = true;
    const lazy = lazyOpen(() => {
      if (fail) throw new Error('bad setting');
      return { close: async () => {} };
    }, 'test store');
    await expect(lazy.get()).rejects.toThrow('bad setting');
    fail = false;
    await expect(lazy.get()).resolves.toBeDefined();
    await lazy.close();
  });

  it('never opens after close, even if it was never used, and says what is closed', async () => {
    const { counts, open } = opener();
    const lazy = lazyOpen(open, 'test store');
    await lazy.close();
    await expect(lazy.get()).rejects.toThrow('The test store is closed.');
    expect(counts).toEqual({ opens: 0, closes: 0 });
  });

  it('never opens again after close once it was open', async () => {
    const { counts, open } = opener();
    const lazy = lazyOpen(open, 'test store');
    await lazy.get();
    await lazy.close();
    await expect(lazy.get()).rejects.toThrow(/closed/);
    expect(counts).toEqual({ opens: 1, closes: 1 });
  });

  it('closes a value that was still opening when close was called, once it is open', async () => {
    const { counts, open } = opener({ delayMs: 20 });
    const lazy = lazyOpen(open, 'test store');
    const pending = lazy.get();
    await lazy.close();
    expect(counts).toEqual({ opens: 1, closes: 1 });
    // The call that started the opening still gets its value; the next one does not.
    await expect(pending).resolves.toBeDefined();
    await expect(lazy.get()).rejects.toThrow(/closed/);
  });

  it('closes cleanly when the attempt under way fails: there is nothing to close', async () => {
    const { counts, open } = opener({ fail: () => true, delayMs: 10 });
    const lazy = lazyOpen(open, 'test store');
    const pending = lazy.get();
    await expect(lazy.close()).resolves.toBeUndefined();
    await expect(pending).rejects.toThrow('database away');
    expect(counts).toEqual({ opens: 1, closes: 0 });
  });
});
