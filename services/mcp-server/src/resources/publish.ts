/**
 * @module resources/publish
 * Feeds task writes to 2026-07-28 clients. Those clients hear about changes only on a
 * `subscriptions/listen` stream, which `createMcpHandler` owns; its server instances live for
 * one request and cannot hold listeners, so the host calls this once (`publishEvents`) with the
 * handler's event bus. Each event goes only to its owner's streams; a list change for every owner
 * (events were lost) goes to all. (2025-era sessions are fed per instance by `subscriptions.ts`.)
 * Test: `publish.test.ts`, and over HTTP dev/host-integration's `http/subscriptions.http.test.ts`.
 */

import type { OwnerEventBus } from '@mcp-workshop/mcp-host';
import type { Todo } from '@mcp-workshop/task-store';
import { EVERY_OWNER, type TodoEvents } from '@mcp-workshop/task-store';
import { ALL_TODOS_URI, todoUri } from './tasks.js';

/** Publishes every task write on `bus`, to its owner's streams only; returns the function that stops it. */
export function publishTodoChanges(events: TodoEvents, bus: OwnerEventBus): () => void {
  // The handler filters by each stream's own filter, so publishing to nobody is a no-op.
  const onUpdated = (task: Todo, owner: string) => {
    bus.publishTo(owner, { kind: 'resource_updated', uri: todoUri(task.id) });
    bus.publishTo(owner, { kind: 'resource_updated', uri: ALL_TODOS_URI });
  };
  const onListChanged = (owner: string | typeof EVERY_OWNER) => {
    const send = owner === EVERY_OWNER ? bus.publish.bind(bus) : bus.publishTo.bind(bus, owner);
    send({ kind: 'resources_list_changed' });
    send({ kind: 'resource_updated', uri: ALL_TODOS_URI });
  };
  events.on('updated', onUpdated);
  events.on('listChanged', onListChanged);
  return () => {
    events.off('updated', onUpdated);
    events.off('listChanged', onListChanged);
  };
}
