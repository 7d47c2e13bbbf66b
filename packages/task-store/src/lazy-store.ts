/**
 * @module lazy-store
 * A {@link TodoStore} that opens the real one on first use. Opening the SQLite database (loading
 * its WebAssembly, checking the schema) blocks for 0.1–0.2 s, and opening Postgres waits for the
 * network and the migrations; stdio hosts start this server on every launch, so `index.ts`
 * serves first and opens the store after. The opening itself is `lazy-open.ts`'s. Test:
 * `lazy-store.test.ts`.
 */
import { lazyOpen } from './lazy-open.js';
import type { TodoStore } from './store.js';

export interface LazyTodoStore extends TodoStore {
  /** Opens the store now unless it is open already; rejects with whatever opening throws. */
  open(): Promise<void>;
}

/**
 * Calls `open` on the first use (or `open()`), and again on the next use if it failed. Calls that
 * arrive while it is opening share that one attempt, so Postgres is migrated once per process
 * (`lazyOpen`).
 */
export function lazyTodoStore(open: () => TodoStore | Promise<TodoStore>): LazyTodoStore {
  const store = lazyOpen(open, 'task store');
  return {
    open: async () => void (await store.get()),
    add: async (owner, title) => (await store.get()).add(owner, title),
    list: async (owner, status) => (await store.get()).list(owner, status),
    listPage: async (owner, status, page) => (await store.get()).listPage(owner, status, page),
    get: async (owner, id) => (await store.get()).get(owner, id),
    complete: async (owner, id) => (await store.get()).complete(owner, id),
    delete: async (owner, id) => (await store.get()).delete(owner, id),
    close: () => store.close(),
  };
}
