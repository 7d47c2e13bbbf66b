import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectInProcess } from '../in-process.js';
import { createSilentLogger } from '../logger.js';
import { createMcpServer } from '../server.js';
import { announceTaskChanges, createTaskEvents, type TaskEvents } from '../tasks/events.js';
import { openTaskStore } from '../tasks/sqlite-store.js';
import type { TaskStore } from '../tasks/store.js';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { MAX_SUBSCRIPTIONS } from './subscriptions.js';

/** How long a test waits for a notification that should arrive at once. */
const NOTIFICATION_WAIT_MS = 2_000;

function listenerCount(events: TaskEvents): number {
  return events.listenerCount('updated') + events.listenerCount('listChanged');
}

describe('resource subscriptions (2025 era, in memory)', () => {
  let dir: string;
  let taskEvents: TaskEvents;
  let store: TaskStore;
  let conn: Connected;
  let updated: string[];
  let listChanged: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resource-subscriptions-'));
    taskEvents = createTaskEvents();
    store = announceTaskChanges(openTaskStore({ dataDir: dir, logger: createSilentLogger() }), taskEvents);
    conn = await connectInMemory(testDeps({ tasks: store, taskEvents }));
    updated = [];
    listChanged = 0;
    conn.client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    conn.client.setNotificationHandler('notifications/resources/list_changed', () => {
      listChanged += 1;
    });
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A request round trip: every notification sent before it has arrived once it returns. */
  const flush = () => conn.client.ping();

  it('answers subscribe and unsubscribe with an empty result', async () => {
    const task = await store.add('watch me');
    expect(await conn.client.subscribeResource({ uri: `tasks://${task.id}` })).toEqual({});
    expect(await conn.client.unsubscribeResource({ uri: `tasks://${task.id}` })).toEqual({});
  });

  it('sends resources/updated for tasks://N and tasks://all when a subscribed task is completed', async () => {
    const task = await store.add('watch me');
    const other = await store.add('not watched');
    await conn.client.subscribeResource({ uri: `tasks://${task.id}` });
    await conn.client.subscribeResource({ uri: 'tasks://all' });
    await store.complete(other.id);
    await vi.waitFor(() => expect(updated).toEqual(['tasks://all']), { timeout: NOTIFICATION_WAIT_MS });
    await store.complete(task.id);
    await vi.waitFor(() => expect(updated).toEqual(['tasks://all', `tasks://${task.id}`, 'tasks://all']), {
      timeout: NOTIFICATION_WAIT_MS,
    });
  });

  it('stops sending resources/updated after unsubscribe', async () => {
    const task = await store.add('watch me');
    await conn.client.subscribeResource({ uri: `tasks://${task.id}` });
    await conn.client.unsubscribeResource({ uri: `tasks://${task.id}` });
    await store.complete(task.id);
    await flush();
    expect(updated).toEqual([]);
    expect(taskEvents.listenerCount('updated')).toBe(0);
  });

  it('sends resources/list_changed to an initialized session when a task is added or deleted', async () => {
    const task = await store.add('new');
    await vi.waitFor(() => expect(listChanged).toBe(1), { timeout: NOTIFICATION_WAIT_MS });
    await store.delete(task.id);
    await vi.waitFor(() => expect(listChanged).toBe(2), { timeout: NOTIFICATION_WAIT_MS });
  });

  it('sends resources/updated for tasks://all to its subscribers when a task is added', async () => {
    await conn.client.subscribeResource({ uri: 'tasks://all' });
    await store.add('new');
    await vi.waitFor(() => expect(updated).toEqual(['tasks://all']), { timeout: NOTIFICATION_WAIT_MS });
  });

  it.each([
    'tasks://999',
    'tasks://0',
    'tasks://../../etc/passwd',
    'TASKS://01',
    'adr://../../etc/passwd',
    'cities://oslo',
    'not a uri',
    `x://${'a'.repeat(3000)}`,
  ])('refuses to subscribe to %s with resource-not-found', async (uri) => {
    await expect(conn.client.subscribeResource({ uri })).rejects.toMatchObject({
      code: -32602,
      data: { uri },
    });
  });

  it.each(['cities://all', 'adr://001-dynamic-tool-discovery', 'test://watched-resource'])(
    'accepts a subscription to %s, a resource that never changes',
    async (uri) => {
      expect(await conn.client.subscribeResource({ uri })).toEqual({});
    },
  );

  it(`refuses more than ${MAX_SUBSCRIPTIONS} subscriptions on one session`, async () => {
    const task = await store.add('one');
    // Distinct URIs are needed to fill the set; well-formed ADR slugs are accepted without a file.
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i += 1) {
      await conn.client.subscribeResource({ uri: `adr://${String(i % 1000).padStart(3, '0')}-x${i}` });
    }
    await expect(conn.client.subscribeResource({ uri: `tasks://${task.id}` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/unsubscribe/),
    });
  });

  it('removes its listeners when the connection closes', async () => {
    const task = await store.add('watch me');
    await conn.client.subscribeResource({ uri: `tasks://${task.id}` });
    expect(listenerCount(taskEvents)).toBe(2);
    await conn.close();
    expect(listenerCount(taskEvents)).toBe(0);
    conn = await connectInMemory(testDeps({ tasks: store, taskEvents }));
  });
});

describe('resource subscription listeners', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resource-listeners-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds none for connected instances that never initialize, as per-request ones do not', async () => {
    const taskEvents = createTaskEvents();
    const store = announceTaskChanges(
      openTaskStore({ dataDir: dir, logger: createSilentLogger() }),
      taskEvents,
    );
    const deps = testDeps({ tasks: store, taskEvents });
    try {
      const servers = [];
      for (let i = 0; i < 200; i += 1) {
        const server = createMcpServer(deps);
        const [, serverTransport] = InMemoryTransport.createLinkedPair();
        await server.connect(serverTransport);
        servers.push(server);
      }
      // Connected but never initialized, like a 2026-07-28 per-request instance: nothing to notify.
      expect(listenerCount(taskEvents)).toBe(0);
      for (const server of servers) await server.close();
      expect(listenerCount(taskEvents)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('is back to zero after 200 sessions that initialized, subscribed and closed', async () => {
    const taskEvents = createTaskEvents();
    const store = announceTaskChanges(
      openTaskStore({ dataDir: dir, logger: createSilentLogger() }),
      taskEvents,
    );
    const task = await store.add('watched by many');
    const deps = testDeps({ tasks: store, taskEvents });
    try {
      for (let i = 0; i < 200; i += 1) {
        const { client, close } = await connectInProcess(createMcpServer(deps));
        await client.subscribeResource({ uri: `tasks://${task.id}` });
        await close();
      }
      expect(listenerCount(taskEvents)).toBe(0);
    } finally {
      await store.close();
    }
  });
});
