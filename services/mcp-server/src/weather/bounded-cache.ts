/**
 * @module weather/bounded-cache
 * A `Map` with a size cap, for caches whose keys can come from model or client input (time zone
 * names, say), so hostile input can slow a cache down but never grow it without bound. When
 * full, the oldest entry goes. Test: `bounded-cache.test.ts`.
 */

export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`BoundedCache needs a positive whole number of entries, got ${maxEntries}`);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached value for `key`, or `create(key)`, which is cached unless it throws. */
  getOrCreate(key: K, create: (key: K) => V): V {
    if (this.#entries.has(key)) return this.#entries.get(key) as V;
    const value = create(key);
    if (this.#entries.size >= this.maxEntries) {
      // Insertion order: the first key is the oldest. A hit does not refresh it; the cap only
      // has to bound memory, and the common keys are re-added quickly if they are ever evicted.
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, value);
    return value;
  }
}
