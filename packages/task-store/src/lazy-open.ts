/**
 * @module lazy-open
 * The one lazy opener the stores share: the to-do store (`lazy-store.ts`) and the run store
 * (`runs/lazy.ts`) open their database on first use, so a server serves before its database is
 * open (stdio hosts start it on every launch) and a server that never runs a task never opens the
 * runs' tables. Test: `lazy-open.test.ts`.
 */

/** Something opened once and closed at the end: a store over a database connection. */
export interface Closable {
  close(): Promise<void>;
}

export interface LazyOpened<T extends Closable> {
  /**
   * The opened value: opens it on the first call, and again on the next call after a failed
   * attempt (Postgres may be back by then). Calls that arrive while it opens share that one
   * attempt, so Postgres is migrated once per process. Rejects with whatever opening throws, and
   * after `close()` with an `Error` that says `what` is closed.
   */
  get(): Promise<T>;
  /**
   * Never opens again; closes what was opened. A value still opening is closed once it is open, so
   * its connections do not linger; an attempt that fails is nothing to close.
   */
  close(): Promise<void>;
}

/** Opens with `open` when first asked; `what` names it in the error a call after `close()` gets. */
export function lazyOpen<T extends Closable>(open: () => T | Promise<T>, what: string): LazyOpened<T> {
  let opening: Promise<T> | undefined;
  let closed = false;
  return {
    get() {
      // Like a closed database: a call after shutdown is a bug, and must not open a new connection.
      if (closed) return Promise.reject(new Error(`The ${what} is closed.`));
      if (!opening) {
        const attempt = (async () => open())();
        opening = attempt;
        // Forgotten on failure, so the next call tries again.
        attempt.catch(() => {
          if (opening === attempt) opening = undefined;
        });
      }
      return opening;
    },
    async close() {
      closed = true;
      const pending = opening;
      opening = undefined;
      const opened = await pending?.catch(() => undefined);
      await opened?.close();
    },
  };
}
