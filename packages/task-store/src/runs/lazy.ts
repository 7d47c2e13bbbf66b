/**
 * @module runs/lazy
 * A run store that opens on first use, and a run queue that loads on `start`, so a server that
 * never runs a task never opens their tables, and a SQLite server never loads `pg` or pg-boss.
 * Used by `backend-runs.ts`. Test: `lazy.test.ts`.
 */
import type { TaskQueue } from '@mcp-workshop/shared/tasks-port';
import { lazyOpen } from '../lazy-open.js';
import type { RunStore } from './types.js';

/**
 * Calls `open` on the first use, and again on the next use if it failed (Postgres may be back by
 * then). Calls that arrive while it opens share that one attempt (`lazyOpen`).
 */
export function lazyRunStore(open: () => RunStore | Promise<RunStore>): RunStore {
  const store = lazyOpen(open, 'run store');
  return {
    create: async (run) => (await store.get()).create(run),
    createWithin: async (run, maxActive) => (await store.get()).createWithin(run, maxActive),
    get: async (owner, id) => (await store.get()).get(owner, id),
    load: async (id) => (await store.get()).load(id),
    update: async (id, update) => (await store.get()).update(id, update),
    cancel: async (owner, id) => (await store.get()).cancel(owner, id),
    answer: async (owner, id, responses) => (await store.get()).answer(owner, id, responses),
    steps: async (id) => (await store.get()).steps(id),
    saveStep: async (id, key, value) => (await store.get()).saveStep(id, key, value),
    unfinished: async () => (await store.get()).unfinished(),
    deleteExpired: async () => (await store.get()).deleteExpired(),
    close: () => store.close(),
  };
}

/**
 * Loads the real queue on `start`. Before that, `enqueue` does nothing, as any queue's does before
 * start: the run is stored, and start picks it up. A start that failed may be tried again.
 */
export function lazyRunQueue(load: () => Promise<TaskQueue>): TaskQueue {
  let loading: Promise<TaskQueue> | undefined;
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
