/**
 * @module events
 * Tells whoever listens that tasks changed, so MCP sessions can send
 * `notifications/resources/updated` (a subscribed task changed) and
 * `notifications/resources/list_changed` (a task was added or removed), and 2026-07-28 listen
 * streams can hear `notifications/tasks` (an MCP task's status changed: `runChanged`, announced by
 * `runs/announce.ts`). Every event names the owner of the tasks it is about, so listeners pass it
 * on only to that owner's clients.
 */
import { EventEmitter } from 'node:events';
import type { Todo, TodoStore } from './store.js';

/**
 * The owner of a `listChanged` that may concern anybody: events were lost (the LISTEN connection
 * was down, a queue overflowed), so every list may have changed. A list change carries no task
 * data, so telling every client to refetch what it may see reveals nothing.
 */
export const EVERY_OWNER = null;

export interface TodoEventMap {
  /**
   * A task's contents changed (completed, or deleted), and whose task it is. Ids are numbered per
   * owner, so only the owner and the id together name the task.
   */
  updated: [task: Todo, owner: string];
  /** A task of `owner`'s was added or deleted, so that owner's list of task resources changed. */
  listChanged: [owner: string | typeof EVERY_OWNER];
  /**
   * An MCP task (a run) of `owner`'s changed: its status, status message, questions or result.
   * Only the id travels; a listener reads the run itself, so it always sends what is stored now.
   */
  runChanged: [id: string, owner: string];
}

export type TodoEvents = EventEmitter<TodoEventMap>;

export function createTodoEvents(): TodoEvents {
  const events = new EventEmitter<TodoEventMap>();
  // One listener per live session that subscribed; the cap only exists to catch leaks early.
  events.setMaxListeners(1_000);
  return events;
}

/** Wraps a store so every write is announced on `events`, once it is stored. Reads pass straight through. */
export function announceTodoChanges(store: TodoStore, events: TodoEvents): TodoStore {
  return {
    ...store,
    list: (owner, status) => store.list(owner, status),
    listPage: (owner, status, page) => store.listPage(owner, status, page),
    get: (owner, id) => store.get(owner, id),
    close: () => store.close(),
    async add(owner, title) {
      const task = await store.add(owner, title);
      events.emit('listChanged', owner);
      return task;
    },
    async complete(owner, id) {
      const task = await store.complete(owner, id);
      if (task) events.emit('updated', task, owner);
      return task;
    },
    async delete(owner, id) {
      const task = await store.delete(owner, id);
      if (task) {
        events.emit('updated', task, owner);
        events.emit('listChanged', owner);
      }
      return task;
    },
  };
}
