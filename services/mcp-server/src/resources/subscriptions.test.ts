import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import type { TodoStore } from '@mcp-workshop/task-store';
import {
  announceTodoChanges,
  createTodoEvents,
  EVERY_OWNER,
  openTodoStore,
  type TodoEvents,
} from '@mcp-workshop/task-store';
import { type AuthInfo, InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TASKS_READ, TASKS_WRITE } from '../deps.js';
import { type Connected, connectInMemory, testDeps, tokenFor } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { MAX_SUBSCRIPTIONS } from './subscriptions.js';

/** How long a test waits for a notification that should arrive at once. */
const NOTIFICATION_WAIT_MS = 2_000;

function listenerCount(events: TodoEvents): number {
  return events.listenerCount('updated') + events.listenerCount('listChanged');
}

describe('resource subscriptions (2025 era, in memory)', () => {
  let dir: string;
  let todoEvents: TodoEvents;
  let store: TodoStore;
  let conn: Connected;
  let updated: string[];
  let listChanged: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resource-subscriptions-'));
    todoEvents = createTodoEvents();
    store = announceTodoChanges(openTodoStore({ dataDir: dir, logger: createSilentLogger() }), todoEvents);
    conn = await connectInMemory(testDeps({ todos: store, todoEvents }));
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
    const task = await store.add('', 'watch me');
    expect(await conn.client.subscribeResource({ uri: `tasks://${task.id}` })).toEqual({});
    expect(await conn.client.unsubscribeResource({ uri: `tasks://${task.id}` })).toEqual({});
  });

  it('sends resources/updated for tasks://N and tasks://all when a subscribed task is completed', async () => {
    const task = await store.add('', 'watch me');
    const other = await store.add('', 'not watched');
    await conn.client.subscribeResource({ uri: `tasks://${task.id}` });
    await conn.client.subscribeResource({ uri: 'tasks://all' });
    await store.complete('', other.id);
    await vi.waitFor(() => expect(updated).toEqual(['tasks://all']), { timeout: NOTIFICATION_WAIT_MS });
    await store.complete('', task.id);
    await vi.waitFor(() => expect(updated).toEqual(['tasks://all', `tasks://${task.id}`, 'tasks://all']), {
      timeout: NOTIFICATION_WAIT_MS,
    });
  });

  it('stops sending resources/updated after unsubscribe', async () => {
    const task = await store.add('', 'watch me');
    await conn.client.subscribeResource({ uri: `tasks://${task.id}` });
    await conn.client.unsubscribeResource({ uri: `tasks://${task.id}` });
    await store.complete('', task.id);
    await flush();
    expect(updated).toEqual([]);
    expect(todoEvents.listenerCount('updated')).toBe(0);
  });

  it('sends resources/list_changed to an initialized session when a task is added or deleted', async () => {
    const task = await store.add('', 'new');
    await vi.waitFor(() => expect(listChanged).toBe(1), { timeout: NOTIFICATION_WAIT_MS });
    await store.delete('', task.id);
    await vi.waitFor(() => expect(listChanged).toBe(2), { timeout: NOTIFICATION_WAIT_MS });
  });

  it('sends resources/updated for tasks://all to its subscribers when a task is added', async () => {
    await conn.client.subscribeResource({ uri: 'tasks://all' });
    await store.add('', 'new');
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
    const task = await store.add('', 'one');
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
    const task = await store.add('', 'watch me');
    await conn.client.subscribeResource({ uri: `tasks://${task.id}` });
    expect(listenerCount(todoEvents)).toBe(2);
    await conn.close();
    expect(listenerCount(todoEvents)).toBe(0);
    conn = await connectInMemory(testDeps({ todos: store, todoEvents }));
  });
});

describe('resource subscription listeners', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resource-listeners-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds none for connected instances that never initialize, as per-request ones do not', async () => {
    const todoEvents = createTodoEvents();
    const store = announceTodoChanges(
      openTodoStore({ dataDir: dir, logger: createSilentLogger() }),
      todoEvents,
    );
    const deps = testDeps({ todos: store, todoEvents });
    try {
      const servers = [];
      for (let i = 0; i < 200; i += 1) {
        const server = createMcpServer(deps);
        const [, serverTransport] = InMemoryTransport.createLinkedPair();
        await server.connect(serverTransport);
        servers.push(server);
      }
      // Connected but never initialized, like a 2026-07-28 per-request instance: nothing to notify.
      expect(listenerCount(todoEvents)).toBe(0);
      for (const server of servers) await server.close();
      expect(listenerCount(todoEvents)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('is back to zero after 200 sessions that initialized, subscribed and closed', async () => {
    const todoEvents = createTodoEvents();
    const store = announceTodoChanges(
      openTodoStore({ dataDir: dir, logger: createSilentLogger() }),
      todoEvents,
    );
    const task = await store.add('', 'watched by many');
    const deps = testDeps({ todos: store, todoEvents });
    try {
      for (let i = 0; i < 200; i += 1) {
        const { client, close } = await connectInProcess(createMcpServer(deps));
        await client.subscribeResource({ uri: `tasks://${task.id}` });
        await close();
      }
      expect(listenerCount(todoEvents)).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('resource subscriptions per owner (2025 era, sign-in on)', () => {
  let dir: string;
  let todoEvents: TodoEvents;
  let store: TodoStore;
  const open: Connected[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resource-subscriptions-owners-'));
    todoEvents = createTodoEvents();
    store = announceTodoChanges(openTodoStore({ dataDir: dir, logger: createSilentLogger() }), todoEvents);
  });
  afterEach(async () => {
    for (const conn of open.splice(0)) await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A session of `authInfo`'s, recording what it hears. */
  const session = async (authInfo: AuthInfo) => {
    const conn = await connectInMemory(testDeps({ todos: store, todoEvents }), { authInfo });
    open.push(conn);
    const heard = { updated: [] as string[], listChanged: 0 };
    conn.client.setNotificationHandler('notifications/resources/updated', (notification) => {
      heard.updated.push(notification.params.uri);
    });
    conn.client.setNotificationHandler('notifications/resources/list_changed', () => {
      heard.listChanged += 1;
    });
    return { client: conn.client, heard };
  };
  const both = [TASKS_READ, TASKS_WRITE];

  it("tells a session only about its own owner's tasks", async () => {
    const alice = await session(tokenFor('alice', both));
    const bob = await session(tokenFor('bob', both));
    await alice.client.subscribeResource({ uri: 'tasks://all' });
    await bob.client.subscribeResource({ uri: 'tasks://all' });
    const hers = await store.add('sub:alice', 'hers');
    await store.complete('sub:alice', hers.id);
    await vi.waitFor(() => expect(alice.heard.updated).toEqual(['tasks://all', 'tasks://all']), {
      timeout: NOTIFICATION_WAIT_MS,
    });
    expect(alice.heard.listChanged).toBe(1);
    // Bob's own write arrives after hers, so once he hears it he would have heard hers.
    await store.add('sub:bob', 'his');
    await vi.waitFor(() => expect(bob.heard.listChanged).toBe(1), { timeout: NOTIFICATION_WAIT_MS });
    expect(bob.heard.updated).toEqual(['tasks://all']);
  });

  it("refuses to subscribe to another user's task as no such resource, like a missing one", async () => {
    const hers = await store.add('sub:alice', 'hers');
    const bob = await session(tokenFor('bob', both));
    const theirs = await bob.client
      .subscribeResource({ uri: `tasks://${hers.id}` })
      .catch((error: unknown) => error);
    expect(theirs).toMatchObject({ code: -32602, message: expect.stringMatching(/no such resource/) });
  });

  it('refuses to subscribe to task resources without tasks:read, naming the scope', async () => {
    const writer = await session(tokenFor('alice', [TASKS_WRITE]));
    for (const uri of ['tasks://all', 'tasks://1']) {
      const error = await writer.client.subscribeResource({ uri }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32600, message: expect.stringMatching(/tasks:read/) });
    }
    // Resources that are no one's data need no scope.
    expect(await writer.client.subscribeResource({ uri: 'cities://all' })).toEqual({});
  });

  it('tells every session to refetch when a list change concerns every owner', async () => {
    const alice = await session(tokenFor('alice', both));
    const bob = await session(tokenFor('bob', both));
    todoEvents.emit('listChanged', EVERY_OWNER);
    await vi.waitFor(
      () => {
        expect(alice.heard.listChanged).toBe(1);
        expect(bob.heard.listChanged).toBe(1);
      },
      { timeout: NOTIFICATION_WAIT_MS },
    );
  });
});
