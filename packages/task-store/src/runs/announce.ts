/**
 * @module runs/announce
 * Wraps a run store so every change to a run that a client could see (created, a new status or
 * status message, answered, cancelled, finished) is announced as `runChanged` once it is stored.
 * With Postgres the events go out over NOTIFY (`pg-notify-relay.ts`) and every replica hears them,
 * so a listen stream on any replica learns of a task running on another. Steps are not announced:
 * they change nothing `tasks/get` shows. Test: `announce.test.ts`.
 */

import type { TaskRecord } from '@mcp-workshop/shared/tasks-port';
import type { TodoEvents } from '../events.js';
import type { RunStore } from './types.js';

export function announceRunChanges(runs: RunStore, events: TodoEvents): RunStore {
  const told = (run: TaskRecord | undefined): TaskRecord | undefined => {
    if (run) events.emit('runChanged', run.id, run.owner);
    return run;
  };
  return {
    create: async (run) => told(await runs.create(run)) as TaskRecord,
    createWithin: async (run, maxActive) => told(await runs.createWithin(run, maxActive)),
    get: (owner, id) => runs.get(owner, id),
    load: (id) => runs.load(id),
    update: async (id, update) => told(await runs.update(id, update)),
    // A cancel of a finished task, or answers to no open question, change nothing; announcing
    // them anyway costs a listener one read and saves this store a read before every write.
    cancel: async (owner, id) => told(await runs.cancel(owner, id)),
    answer: async (owner, id, responses) => told(await runs.answer(owner, id, responses)),
    steps: (id) => runs.steps(id),
    saveStep: (id, key, value) => runs.saveStep(id, key, value),
    unfinished: () => runs.unfinished(),
    deleteExpired: () => runs.deleteExpired(),
    close: () => runs.close(),
  };
}
