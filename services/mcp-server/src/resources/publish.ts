/**
 * @module resources/publish
 * Feeds task writes to 2026-07-28 clients. Those clients hear about changes only on a
 * `subscriptions/listen` stream, which `createMcpHandler` owns; its server instances live for
 * one request and cannot hold listeners, so the HTTP endpoint calls this once with the handler's
 * notifier. (2025-era sessions are fed per instance by `subscriptions.ts`.)
 * Test: `subscriptions.http.test.ts`.
 */
import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { TaskEvents } from '../tasks/events.js';
import type { Task } from '../tasks/store.js';
import { ALL_TASKS_URI, taskUri } from './tasks.js';

/** Publishes every task write on `notify`; returns the function that stops it. */
export function publishTaskChanges(events: TaskEvents, notify: ServerNotifier): () => void {
  // The handler filters by each stream's own filter, so publishing to nobody is a no-op.
  const onUpdated = (task: Task) => {
    notify.resourceUpdated(taskUri(task.id));
    notify.resourceUpdated(ALL_TASKS_URI);
  };
  const onListChanged = () => {
    notify.resourcesChanged();
    notify.resourceUpdated(ALL_TASKS_URI);
  };
  events.on('updated', onUpdated);
  events.on('listChanged', onListChanged);
  return () => {
    events.off('updated', onUpdated);
    events.off('listChanged', onListChanged);
  };
}
