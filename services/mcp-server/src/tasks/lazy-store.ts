/**
 * @module tasks/lazy-store
 * A {@link TaskStore} that opens the real one on first use. Opening the SQLite database (loading
 * its WebAssembly, checking the schema) blocks for 0.1–0.2 s, and stdio hosts start this server
 * on every launch, so `index.ts` serves first and opens the store after.
 * Test: `lazy-store.test.ts`.
 */
import type { TaskStore } from './store.js';

export interface LazyTaskStore extends TaskStore {
  /** Opens the store now unless it is open already; throws whatever opening throws. */
  open(): void;
}

/** Calls `open` on the first use (or `open()`), and again on the next use if it threw. */
export function lazyTaskStore(open: () => TaskStore): LazyTaskStore {
  let store: TaskStore | undefined;
  let closed = false;
  const opened = (): TaskStore => {
    // Like a closed database: a call after shutdown is a bug, and must not create a new connection.
    if (closed) throw new Error('The task store is closed.');
    store ??= open();
    return store;
  };
  return {
    open: () => void opened(),
    add: (title) => opened().add(title),
    list: (status) => opened().list(status),
    get: (id) => opened().get(id),
    complete: (id) => opened().complete(id),
    delete: (id) => opened().delete(id),
    close() {
      closed = true;
      store?.close();
    },
  };
}
