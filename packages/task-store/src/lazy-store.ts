/**
 * @module lazy-store
 * A {@link TaskStore} that opens the real one on first use. Opening the SQLite database (loading
 * its WebAssembly, checking the schema) blocks for 0.1–0.2 s, and opening Postgres waits for the
 * network and the migrations; stdio hosts start this server on every launch, so `index.ts`
 * serves first and opens the store after. Test: `lazy-store.test.ts`.
 */
import type { TaskStore } from './store.js';

export interface LazyTaskStore extends TaskStore {
  /** Opens the store now unless it is open already; rejects with whatever opening throws. */
  open(): Promise<void>;
}

/**
 * Calls `open` on the first use (or `open()`), and again on the next use if it failed. Calls that
 * arrive while it is opening share that one attempt, so Postgres is migrated once per process.
 */
export function lazyTaskStore(open: () => TaskStore | Promise<TaskStore>): LazyTaskStore {
  let opening: Promise<TaskStore> | undefined;
  let closed = false;
  const opened = async (): Promise<TaskStore> => {
    // Like a closed database: a call after shutdown is a bug, and must not create a new connection.
    if (closed) throw new Error('The task store is closed.');
    if (!opening) {
      const attempt = (async () => open())();
      opening = attempt;
      // Forgotten on failure, so the next call tries again (Postgres may be back by then).
      attempt.catch(() => {
        if (opening === attempt) opening = undefined;
      });
    }
    return opening;
  };
  return {
    open: async () => void (await opened()),
    add: async (owner, title) => (await opened()).add(owner, title),
    list: async (owner, status) => (await opened()).list(owner, status),
    listPage: async (owner, status, page) => (await opened()).listPage(owner, status, page),
    get: async (owner, id) => (await opened()).get(owner, id),
    complete: async (owner, id) => (await opened()).complete(owner, id),
    delete: async (owner, id) => (await opened()).delete(owner, id),
    async close() {
      closed = true;
      // A store still opening is closed once it is open, so its connections do not linger.
      const pending = opening;
      opening = undefined;
      const store = await pending?.catch(() => undefined);
      await store?.close();
    },
  };
}
