/**
 * @module tasks/events
 * Tells whoever listens that tasks changed, so MCP sessions can send
 * `notifications/resources/updated` (a subscribed task changed) and
 * `notifications/resources/list_changed` (a task was added or removed).
 */
import { EventEmitter } from 'node:events';
import type { Task, TaskStore } from './store.js';

export interface TaskEventMap {
  /** A task's contents changed (completed). */
  updated: [task: Task];
  /** A task was added or deleted, so the list of task resources changed. */
  listChanged: [];
}

export type TaskEvents = EventEmitter<TaskEventMap>;

export function createTaskEvents(): TaskEvents {
  const events = new EventEmitter<TaskEventMap>();
  // One listener per live session that subscribed; the cap only exists to catch leaks early.
  events.setMaxListeners(1_000);
  return events;
}

/** Wraps a store so every write is announced on `events`, once it is stored. Reads pass straight through. */
export function announceTaskChanges(store: TaskStore, events: TaskEvents): TaskStore {
  return {
    ...store,
    list: (status) => store.list(status),
    get: (id) => store.get(id),
    close: () => store.close(),
    async add(title) {
      const task = await store.add(title);
      events.emit('listChanged');
      return task;
    },
    async complete(id) {
      const task = await store.complete(id);
      if (task) events.emit('updated', task);
      return task;
    },
    async delete(id) {
      const task = await store.delete(id);
      if (task) {
        events.emit('updated', task);
        events.emit('listChanged');
      }
      return task;
    },
  };
}
