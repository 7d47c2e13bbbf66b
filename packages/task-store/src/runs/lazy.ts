/**
 * @module runs/lazy
 * A run store that opens on first use, and a run queue that loads on `start`, so a server that
 * never runs a task never opens their tables, and a SQLite server never loads `pg` or pg-boss.
 * Used by `backend-runs.ts`. Test: `lazy.test.ts`.
 */
import type { RunQueue, RunStore } from './types.js';

/**
 * Calls `open` on the first use, and again on the next use if it failed (Postgres may be back by
 * then). Calls that arrive while it opens share that one attempt.
 */
export function lazyRunStore(open: () => RunStore | Promise<RunStore>): RunStore {
  let opening: Promise<RunStore> | undefined;
  let closed = false;
  const opened = (): Promise<RunStore> => {
    // Like a closed database: a call after shutdown is a bug, and must not open a new connection.
    if (closed) return Promise.reject(new Error('The run store is closed.'));
    if (!opening) {
      const attempt = (async () => open())();
      opening = attempt;
      attempt.catch(() => {
        if (opening === attempt) opening = undefined;
      });
    }
    return opening;
  };
  return {
    create: async (run) => (await opened()).create(run),
    createWithin: async (run, maxActive) => (await opened()).createWithin(run, maxActive),
    get: async (owner, id) => (await opened()).get(owner, id),
    load: async (id) => (await opened()).load(id),
    update: async (id, update) => (await opened()).update(id, update),
    cancel: async (owner, id) => (await opened()).cancel(owner, id),
    answer: async (owner, id, responses) => (await opened()).answer(owner, id, responses),
    steps: async (id) => (await opened()).steps(id),
    saveStep: async (id, key, value) => (await opened()).saveStep(id, key, value),
    unfinished: async () => (await opened()).unfinished(),
    deleteExpired: async () => (await opened()).deleteExpired(),
    async close() {
      closed = true;
      // A store still opening is closed once it is open, so its connections do not linger.
      const pending = opening;
      opening = undefined;
      await (await pending?.catch(() => undefined))?.close();
    },
  };
}

/**
 * Loads the real queue on `start`. Before that, `enqueue` does nothing, as any queue's does before
 * start: the run is stored, and start picks it up. A start that failed may be tried again.
 */
export function lazyRunQueue(load: () => Promise<RunQueue>): RunQueue {
  let loading: Promise<RunQueue> | undefined;
  let stopped = false;
  return {
    async enqueue(id, owner) {
      await (await loading?.catch(() => undefined))?.enqueue(id, owner);
    },
    async start(handler) {
      if (loading || stopped) throw new Error('A run queue starts once; make a new one after stop().');
      const attempt = load();
      loading = attempt;
      try {
        await (await attempt).start(handler);
      } catch (error) {
        if (loading === attempt) loading = undefined;
        throw error;
      }
    },
    async stop() {
      stopped = true;
      await (await loading?.catch(() => undefined))?.stop();
    },
  };
}
