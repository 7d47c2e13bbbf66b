/**
 * @module http/window-counter
 * Hits per client in fixed one-minute windows, for the rate limits (`rate-limits.ts`): the same
 * counting as express-rate-limit's `MemoryStore` (each client's window starts at its first hit and
 * lasts `windowMs`), made for the hot path: one `Map` lookup per request, no promise, and nothing
 * allocated per request beyond the key; a client's entry is made once per window it is active in.
 *
 * Memory stays bounded by the clients of the last two windows: entries live in `current`, and each
 * tick (every `windowMs`) drops the older map whole, so a client idle for two windows costs nothing
 * and no per-entry timer exists. A client found in the older map moves to the current one.
 * Test: `window-counter.test.ts`.
 */

export interface WindowEntry {
  /** Hits in this client's current window, this one included. */
  hits: number;
  /** When the window ends (epoch ms); the next hit after it starts a new window at 1. */
  resetAt: number;
}

export interface WindowCounter {
  /** Counts `count` hits (default 1) for `key` at `now`; returns its entry, which the next hit changes. */
  hit(key: string, now: number, count?: number): WindowEntry;
  /** Clients counted in the last two windows (tests, introspection). */
  readonly size: number;
  /** Stops the tick (tests, shutdown); the counter keeps counting. */
  stop(): void;
}

export function createWindowCounter(windowMs: number): WindowCounter {
  let current = new Map<string, WindowEntry>();
  let previous = new Map<string, WindowEntry>();
  const tick = setInterval(() => {
    previous = current;
    current = new Map();
  }, windowMs);
  // A limit must never keep a process alive on its own.
  tick.unref();
  return {
    hit(key, now, count = 1) {
      let entry = current.get(key);
      if (entry === undefined) {
        entry = previous.get(key);
        if (entry === undefined) entry = { hits: 0, resetAt: now + windowMs };
        else previous.delete(key);
        current.set(key, entry);
      }
      if (entry.resetAt <= now) {
        entry.hits = 0;
        entry.resetAt = now + windowMs;
      }
      entry.hits += count;
      return entry;
    },
    get size() {
      let size = current.size;
      for (const key of previous.keys()) if (!current.has(key)) size++;
      return size;
    },
    stop() {
      clearInterval(tick);
    },
  };
}
