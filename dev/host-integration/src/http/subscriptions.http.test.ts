/**
 * Resource notifications over real HTTP, in both protocol eras: the 2025 session's GET stream
 * (`resources/subscribe`), the 2026-07-28 `subscriptions/listen` stream through the official v2
 * client, the resource-not-found code each era puts on the wire, and listener leaks. With sign-in
 * on, each user's streams (a 2025 session's GET stream, a 2026-07-28 listen stream) hear only
 * about that user's own tasks.
 */

import { discoverIssuer } from '@mcp-workshop/mcp-host';
import type { TodoEvents } from '@mcp-workshop/task-store';
import {
  type JsonRpcMessage,
  MCP_HEADERS,
  openRawSession,
  postOnSession,
  readMessages,
  startTestIssuer,
  type TestIssuer,
} from '@mcp-workshop/test-infra';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';
import { TASKS_READ, TASKS_WRITE } from '../test-support/workshop.js';

/** How long a test waits for a notification that should arrive at once. */
const NOTIFICATION_WAIT_MS = 3_000;
/** How many probe writes, each waited on this long, a 2025 client gets to open its GET stream. */
const PROBES = 10;
const PROBE_WAIT_MS = 500;

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '0' },
};

function listenerCount(events: TodoEvents): number {
  return events.listenerCount('updated') + events.listenerCount('listChanged');
}

/** One raw 2026-07-28 request, with the envelope and the headers the revision requires. */
function postModern(mcpUrl: string, method: string, params: Record<string, unknown>, name?: string) {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } }),
  });
}

/**
 * The 2025 session's GET stream, read message by message. `next()` gives up after
 * NOTIFICATION_WAIT_MS, so a missing notification fails the test instead of hanging it.
 */
async function openGetStream(mcpUrl: string, sessionId: string) {
  const abort = new AbortController();
  const response = await fetch(mcpUrl, {
    method: 'GET',
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const body = response.body;
  if (!body) throw new Error('GET stream has no body');
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const queue: JsonRpcMessage[] = [];
  let buffer = '';

  const readOnce = async (): Promise<void> => {
    const { value, done } = await reader.read();
    if (done) throw new Error('GET stream ended');
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('');
      if (data) queue.push(JSON.parse(data) as JsonRpcMessage);
      end = buffer.indexOf('\n\n');
    }
  };

  return {
    async next(): Promise<JsonRpcMessage> {
      const deadline = Date.now() + NOTIFICATION_WAIT_MS;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no message on the GET stream in time');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          readOnce(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no message on the GET stream in time')), left);
          }),
        ]).finally(() => clearTimeout(timer));
      }
      return queue.shift() as JsonRpcMessage;
    },
    close() {
      abort.abort();
    },
  };
}

describe('resource notifications over HTTP (2025 session)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  /** The response to one request; the log notifications a tool may send before it are skipped. */
  const call = async (sessionId: string, method: string, params: Record<string, unknown>) => {
    const messages = await readMessages(
      await postOnSession(srv.mcpUrl, sessionId, { jsonrpc: '2.0', id: 2, method, params }),
    );
    return messages.find((message) => message.id === 2);
  };

  it('delivers resources/updated on the GET stream after subscribe, and none after unsubscribe', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    const stream = await openGetStream(srv.mcpUrl, sessionId);
    try {
      const added = await call(sessionId, 'tools/call', {
        name: 'add_task',
        arguments: { title: 'Watch me' },
      });
      const structured = added?.result?.structuredContent as { task?: { id: number } } | undefined;
      const id = structured?.task?.id;
      expect(id).toEqual(expect.any(Number));
      expect(await stream.next()).toMatchObject({ method: 'notifications/resources/list_changed' });

      expect((await call(sessionId, 'resources/subscribe', { uri: `tasks://${id}` }))?.result).toEqual({});
      await call(sessionId, 'tools/call', { name: 'complete_task', arguments: { id } });
      expect(await stream.next()).toMatchObject({
        method: 'notifications/resources/updated',
        params: { uri: `tasks://${id}` },
      });

      expect((await call(sessionId, 'resources/unsubscribe', { uri: `tasks://${id}` }))?.result).toEqual({});
      await call(sessionId, 'tools/call', { name: 'delete_task', arguments: { id } });
      // Deleting announces both an update and a list change; only the list change may come through.
      expect(await stream.next()).toMatchObject({ method: 'notifications/resources/list_changed' });
    } finally {
      stream.close();
      await fetch(srv.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    }
  });

  it('sends a task change only to the session that subscribed', async () => {
    const watcher = await openRawSession(srv.mcpUrl);
    const bystander = await openRawSession(srv.mcpUrl);
    const watcherStream = await openGetStream(srv.mcpUrl, watcher);
    const bystanderStream = await openGetStream(srv.mcpUrl, bystander);
    try {
      const task = await srv.deps.todos.add('', 'shared');
      expect(await watcherStream.next()).toMatchObject({ method: 'notifications/resources/list_changed' });
      expect(await bystanderStream.next()).toMatchObject({ method: 'notifications/resources/list_changed' });
      await call(watcher, 'resources/subscribe', { uri: `tasks://${task.id}` });
      await srv.deps.todos.complete('', task.id);
      expect(await watcherStream.next()).toMatchObject({ params: { uri: `tasks://${task.id}` } });
      await srv.deps.todos.add('', 'marker');
      expect(await bystanderStream.next()).toMatchObject({ method: 'notifications/resources/list_changed' });
    } finally {
      watcherStream.close();
      bystanderStream.close();
    }
  });

  it('answers a read of an unknown URI with -32602 and data.uri (the SDK never emits -32002)', async () => {
    const sessionId = await openRawSession(srv.mcpUrl);
    for (const uri of [
      'x://missing',
      'tasks://999999',
      'adr://../../etc/passwd',
      'adr://%2e%2e%2fetc%2fpasswd',
    ]) {
      const message = await call(sessionId, 'resources/read', { uri });
      expect(message?.error).toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it('removes the session listeners when the session is deleted', async () => {
    const baseline = listenerCount(srv.deps.todoEvents);
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) ids.push(await openRawSession(srv.mcpUrl));
    const task = await srv.deps.todos.add('', 'watched');
    for (const id of ids) await call(id, 'resources/subscribe', { uri: `tasks://${task.id}` });
    expect(listenerCount(srv.deps.todoEvents)).toBe(baseline + 40);
    for (const id of ids) {
      await fetch(srv.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    }
    await vi.waitFor(() => expect(listenerCount(srv.deps.todoEvents)).toBe(baseline));
  });
});

describe('resource notifications over HTTP (2026-07-28)', () => {
  let srv: TestServer;
  let client: Client | undefined;
  beforeAll(async () => {
    srv = await startTestServer({ env: { MCP_PAGE_SIZE: '2' } });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  afterAll(async () => srv.close());

  async function connectModern(): Promise<Client> {
    client = new Client({ name: 'modern-test', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    expect(client.getProtocolEra()).toBe('modern');
    return client;
  }

  it('delivers resources/updated and list_changed on a subscriptions/listen stream', async () => {
    const modern = await connectModern();
    const task = await srv.deps.todos.add('', 'watch me');
    const updated: string[] = [];
    let listChanged = 0;
    modern.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    modern.setNotificationHandler('notifications/resources/list_changed', () => {
      listChanged += 1;
    });
    const subscription = await modern.listen({
      resourceSubscriptions: [`tasks://${task.id}`],
      resourcesListChanged: true,
    });
    try {
      expect(subscription.honoredFilter).toMatchObject({
        resourceSubscriptions: [`tasks://${task.id}`],
        resourcesListChanged: true,
      });
      await modern.callTool({ name: 'complete_task', arguments: { id: task.id } });
      await vi.waitFor(() => expect(updated).toEqual([`tasks://${task.id}`]), {
        timeout: NOTIFICATION_WAIT_MS,
      });
      await modern.callTool({ name: 'add_task', arguments: { title: 'another' } });
      await vi.waitFor(() => expect(listChanged).toBe(1), { timeout: NOTIFICATION_WAIT_MS });
      expect(updated).toEqual([`tasks://${task.id}`]);
    } finally {
      await subscription.close();
    }
  });

  it('reads a task resource and rejects resources/subscribe, which the revision removed', async () => {
    const modern = await connectModern();
    const task = await srv.deps.todos.add('', 'read me');
    const { contents } = await modern.readResource({ uri: `tasks://${task.id}` });
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({
      id: task.id,
      title: 'read me',
    });
    await expect(modern.subscribeResource({ uri: `tasks://${task.id}` })).rejects.toThrow();

    const raw = await postModern(srv.mcpUrl, 'resources/subscribe', { uri: `tasks://${task.id}` });
    expect(raw.status).toBe(404);
    expect((await readMessages(raw))[0]?.error?.code).toBe(-32601);
  });

  it('answers a read of an unknown URI with -32602 and data.uri', async () => {
    for (const uri of ['x://missing', 'tasks://999999', 'adr://../../etc/passwd']) {
      const response = await postModern(srv.mcpUrl, 'resources/read', { uri }, uri);
      const [message] = await readMessages(response);
      expect(message?.error).toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it('pages resources/list with pageSize 2 and carries cache hints on reads', async () => {
    const first = (await readMessages(await postModern(srv.mcpUrl, 'resources/list', {})))[0]?.result;
    expect(first?.resources).toHaveLength(2);
    expect(first?.nextCursor).toEqual(expect.any(String));
    const modern = await connectModern();
    const { resources } = await modern.listResources();
    expect(resources.length).toBeGreaterThan(2);

    const read = async (uri: string) =>
      (await readMessages(await postModern(srv.mcpUrl, 'resources/read', { uri }, uri)))[0]?.result;
    expect(await read('tasks://all')).toMatchObject({ ttlMs: 5_000, cacheScope: 'private' });
    expect(await read('cities://all')).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
  });

  it('adds no task listeners for 200 per-request server instances', async () => {
    const baseline = listenerCount(srv.deps.todoEvents);
    for (let i = 0; i < 200; i += 1) {
      const method = i % 2 === 0 ? 'resources/read' : 'resources/list';
      const response = await postModern(
        srv.mcpUrl,
        method,
        method === 'resources/read' ? { uri: 'tasks://all' } : {},
        method === 'resources/read' ? 'tasks://all' : undefined,
      );
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(listenerCount(srv.deps.todoEvents)).toBe(baseline);
  }, 60_000);
});

describe('resource notifications over HTTP (stateless)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ stateless: true });
  });
  afterAll(async () => srv.close());

  it('adds no task listeners for 200 per-request 2025 instances that initialize and subscribe', async () => {
    const task = await srv.deps.todos.add('', 'watched');
    const baseline = listenerCount(srv.deps.todoEvents);
    const headers = { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' };
    const post = async (body: unknown) => {
      const response = await fetch(srv.mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
      return readMessages(response);
    };
    for (let i = 0; i < 200; i += 1) {
      await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 's', version: '0' } },
      });
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const [subscribed] = await post({
        jsonrpc: '2.0',
        id: 2,
        method: 'resources/subscribe',
        params: { uri: `tasks://${task.id}` },
      });
      expect(subscribed?.result).toEqual({});
    }
    await vi.waitFor(() => expect(listenerCount(srv.deps.todoEvents)).toBe(baseline));
    // 600 requests and 400 servers built: about 2.5 s alone, and ten times that on a loaded CI box
    // (a CI run took 10 s for the 200 requests of the test above and hit the 20 s default here).
  }, 60_000);
});

describe('resource notifications over HTTP, per owner (sign-in on)', () => {
  const RESOURCE = 'http://127.0.0.1:3000/mcp';
  let issuer: TestIssuer;
  let srv: TestServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await startTestIssuer();
    srv = await startTestServer({
      auth: { issuer: await discoverIssuer(issuer.issuer), resource: RESOURCE },
    });
  }, 60_000);
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(async () => {
    await srv?.close();
    await issuer?.close();
  });

  /** A signed-in client of `subject`'s in `era`, recording the notifications it hears. */
  async function connectAs(subject: string, era: 'modern' | 'legacy') {
    const token = await issuer.token({ subject, resource: RESOURCE, scopes: [TASKS_READ, TASKS_WRITE] });
    const client = new Client(
      { name: `${subject}-test`, version: '0' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    const heard = { listChanged: 0, updated: [] as string[] };
    client.setNotificationHandler('notifications/resources/list_changed', () => {
      heard.listChanged += 1;
    });
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      heard.updated.push(notification.params.uri);
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(srv.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect(client.getProtocolEra()).toBe(era);
    clients.push(client);
    return { client, heard };
  }

  const addTask = async (client: Client, title: string) => {
    const result = await client.callTool({ name: 'add_task', arguments: { title } });
    return (result.structuredContent as { task: { id: number } }).task.id;
  };

  it("delivers on a 2026-07-28 listen stream only its owner's task changes", async () => {
    const alice = await connectAs('alice', 'modern');
    const bob = await connectAs('bob', 'modern');
    const his = await addTask(bob.client, 'his');
    const aliceListen = await alice.client.listen({
      resourceSubscriptions: ['tasks://all'],
      resourcesListChanged: true,
    });
    const bobListen = await bob.client.listen({
      resourceSubscriptions: [`tasks://${his}`],
      resourcesListChanged: true,
    });
    try {
      const id = await addTask(alice.client, 'hers');
      await alice.client.callTool({ name: 'complete_task', arguments: { id } });
      await vi.waitFor(() => expect(alice.heard.updated).toEqual(['tasks://all', 'tasks://all']), {
        timeout: NOTIFICATION_WAIT_MS,
      });
      expect(alice.heard.listChanged).toBe(1);
      // Bob's write comes after hers on the same bus and his one stream: once he hears it, he
      // would have heard her list change before it.
      await bob.client.callTool({ name: 'complete_task', arguments: { id: his } });
      await vi.waitFor(() => expect(bob.heard.updated).toEqual([`tasks://${his}`]), {
        timeout: NOTIFICATION_WAIT_MS,
      });
      expect(bob.heard.listChanged).toBe(0);
    } finally {
      await aliceListen.close();
      await bobListen.close();
    }
  });

  /**
   * A 2025 client opens its GET stream on its own after the handshake, and a change before that
   * reaches no stream: on two loaded cores that took longer than the first write once. So each
   * client first writes probes until it hears one, then its counters start from zero.
   *
   * A probe written while the one before was still on its way is heard after the loop ends, so
   * the counters are reset only once a marked change made after every probe has been heard: the
   * stream carries changes in the order they were made.
   */
  async function untilListening(who: Awaited<ReturnType<typeof connectAs>>, name: string) {
    for (let probe = 1; probe <= PROBES && who.heard.listChanged === 0; probe++) {
      await addTask(who.client, `${name} probe ${probe}`);
      await vi
        .waitFor(() => expect(who.heard.listChanged).toBeGreaterThan(0), { timeout: PROBE_WAIT_MS })
        .catch(() => undefined);
    }
    expect(who.heard.listChanged, `${name}'s GET stream never opened`).toBeGreaterThan(0);
    const marker = await addTask(who.client, `${name} marker`);
    const uri = `tasks://${marker}`;
    await who.client.subscribeResource({ uri });
    await who.client.callTool({ name: 'complete_task', arguments: { id: marker } });
    await vi.waitFor(() => expect(who.heard.updated).toContain(uri), { timeout: NOTIFICATION_WAIT_MS });
    await who.client.unsubscribeResource({ uri });
    who.heard.listChanged = 0;
    who.heard.updated.length = 0;
  }

  it("delivers on a 2025 session's GET stream only its owner's task changes", async () => {
    const alice = await connectAs('alice', 'legacy');
    const bob = await connectAs('bob', 'legacy');
    await untilListening(alice, 'alice');
    await untilListening(bob, 'bob');
    const his = await addTask(bob.client, 'his');
    await vi.waitFor(() => expect(bob.heard.listChanged).toBe(1), { timeout: NOTIFICATION_WAIT_MS });
    await alice.client.subscribeResource({ uri: 'tasks://all' });
    await bob.client.subscribeResource({ uri: `tasks://${his}` });
    const hers = await addTask(alice.client, 'hers');
    await alice.client.callTool({ name: 'complete_task', arguments: { id: hers } });
    await vi.waitFor(() => expect(alice.heard.updated).toEqual(['tasks://all', 'tasks://all']), {
      timeout: NOTIFICATION_WAIT_MS,
    });
    // Bob's write comes after hers on his one stream: once he hears it, he would have heard hers.
    await bob.client.callTool({ name: 'complete_task', arguments: { id: his } });
    await vi.waitFor(() => expect(bob.heard.updated).toEqual([`tasks://${his}`]), {
      timeout: NOTIFICATION_WAIT_MS,
    });
    expect(bob.heard.listChanged).toBe(1);
    expect(alice.heard.listChanged).toBe(1);
  });
});
