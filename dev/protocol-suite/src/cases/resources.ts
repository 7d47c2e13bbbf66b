/**
 * @module protocol-suite/cases/resources
 * Resource cases: list, read, templates, not-found codes per era, subscriptions (legacy GET
 * stream) and `subscriptions/listen` (2026-07-28). Checklist §5 and §9 rows 51–56; addendum §4
 * rows 12 and 14.
 */
import { expect } from 'vitest';
import { ENVELOPE_KEYS } from '../client.js';
import { expectResult, expectResultFor, expectRpcError, listAll, type ProtocolCase } from '../harness.js';
import { ALL, isModern, LEGACY, MODERN } from '../revisions.js';
import { messagesOf, REQUEST_TIMEOUT_MS, safeMessagesOf } from '../sse.js';

type Obj = Record<string, unknown>;

/** The live task list: adding a task changes it, so it is the resource whose updates we can cause. */
const TASKS_URI = 'tasks://all';
/** How long a change notification may take to arrive; the server is local. */
const NOTIFY_TIMEOUT_MS = 3_000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Adds a task through its own request, so any notification about it must travel elsewhere. */
async function addTask(ctx: Parameters<ProtocolCase['run']>[0], title: string): Promise<void> {
  const other = await ctx.connect();
  expectResultFor(ctx.rev, await other.request('tools/call', { name: 'add_task', arguments: { title } }));
}

export const resourceCases: ProtocolCase[] = [
  {
    item: 'R2',
    source: '§9 #51',
    title: 'resources/list → resources[] with string uri and name (2026-07-28: plus ttlMs, cacheScope)',
    revisions: ALL,
    async run(ctx) {
      const { items } = await listAll(ctx.client, 'resources/list', 'resources');
      expect(items.length).toBeGreaterThan(0);
      for (const resource of items) {
        expect(typeof resource.uri).toBe('string');
        expect(typeof resource.name).toBe('string');
      }
      if (isModern(ctx.rev)) {
        const first = expectResultFor(ctx.rev, await ctx.client.request('resources/list'));
        expect(typeof first.ttlMs).toBe('number');
        expect(['public', 'private']).toContain(first.cacheScope);
      }
    },
  },
  {
    item: 'R3',
    source: '§9 #52',
    title: 'resources/read of each listed uri → contents[]: uri plus exactly one of text/blob',
    revisions: ALL,
    async run(ctx) {
      const { items } = await listAll(ctx.client, 'resources/list', 'resources');
      expect(items.length).toBeGreaterThan(0);
      for (const resource of items.slice(0, 5)) {
        const result = expectResultFor(
          ctx.rev,
          await ctx.client.request('resources/read', { uri: resource.uri }),
        );
        const contents = result.contents as Obj[];
        expect(Array.isArray(contents) && contents.length > 0, String(resource.uri)).toBe(true);
        for (const item of contents) {
          expect(typeof item.uri).toBe('string');
          expect(('text' in item ? 1 : 0) + ('blob' in item ? 1 : 0)).toBe(1);
          if ('text' in item) expect(typeof item.text).toBe('string');
          if ('blob' in item) expect(String(item.blob)).toMatch(BASE64);
        }
        if (isModern(ctx.rev)) {
          expect(typeof result.ttlMs).toBe('number');
          expect(['public', 'private']).toContain(result.cacheScope);
        }
      }
    },
  },
  {
    item: 'R7',
    source: '§9 #53',
    title: 'resources/read "x://missing" → -32002 (-32602 accepted for forward compatibility)',
    revisions: LEGACY,
    async run(ctx) {
      expectRpcError(await ctx.client.request('resources/read', { uri: 'x://missing' }), [-32002, -32602]);
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.6',
    source: 'A#12',
    title: 'resources/read of a missing uri → -32602 (not -32002) with data.uri',
    revisions: MODERN,
    async run(ctx) {
      const error = expectRpcError(
        await ctx.client.request('resources/read', { uri: 'x://missing' }),
        [-32602],
      );
      expect((error.data as Obj | undefined)?.uri).toBe('x://missing');
      await ctx.expectAlive();
    },
  },
  {
    item: 'R4',
    source: '§9 #54',
    title: 'resources/templates/list → resourceTemplates[] with uriTemplate and name',
    revisions: ALL,
    async run(ctx) {
      const { items } = await listAll(ctx.client, 'resources/templates/list', 'resourceTemplates');
      for (const template of items) {
        expect(typeof template.uriTemplate).toBe('string');
        expect(typeof template.name).toBe('string');
      }
    },
  },
  {
    item: 'R5',
    source: '§9 #55',
    title: 'resources/subscribe → {} when resources.subscribe is declared, else -32601',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request('resources/subscribe', { uri: TASKS_URI });
      if (ctx.client.serverCapabilities.resources?.subscribe === true)
        expect(expectResult(reply)).toEqual({});
      else expectRpcError(reply, [-32601]);
    },
  },
  {
    item: 'R5',
    source: '§9 #56',
    title: 'resources/unsubscribe → {} when resources.subscribe is declared, else -32601',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request('resources/unsubscribe', { uri: TASKS_URI });
      if (ctx.client.serverCapabilities.resources?.subscribe === true)
        expect(expectResult(reply)).toEqual({});
      else expectRpcError(reply, [-32601]);
    },
  },
  {
    item: 'R5',
    source: 'extra',
    title: 'after resources/subscribe, a change sends notifications/resources/updated on the GET stream',
    revisions: LEGACY,
    async run(ctx) {
      const watcher = await ctx.connect();
      expect(watcher.serverCapabilities.resources?.subscribe).toBe(true);
      expectResult(await watcher.request('resources/subscribe', { uri: TASKS_URI }));
      const get = await watcher.openGet();
      try {
        expect(get.status).toBe(200);
        await addTask(ctx, 'protocol-suite: updated');
        const events = await get.live.until(
          (m) => m.method === 'notifications/resources/updated' && m.params?.uri === TASKS_URI,
          NOTIFY_TIMEOUT_MS,
        );
        const updated = messagesOf(events).find((m) => m.method === 'notifications/resources/updated');
        expect(updated?.params?.uri).toBe(TASKS_URI);
      } finally {
        await get.live.close();
      }
    },
  },
  {
    item: 'R6',
    source: 'extra',
    title: 'with resources.listChanged declared, adding a task sends notifications/resources/list_changed',
    revisions: LEGACY,
    async run(ctx) {
      const watcher = await ctx.connect();
      expect(watcher.serverCapabilities.resources?.listChanged).toBe(true);
      const get = await watcher.openGet();
      try {
        expect(get.status).toBe(200);
        await addTask(ctx, 'protocol-suite: list changed');
        const events = await get.live.until(
          (m) => m.method === 'notifications/resources/list_changed',
          NOTIFY_TIMEOUT_MS,
        );
        expect(messagesOf(events).map((m) => m.method)).toContain('notifications/resources/list_changed');
      } finally {
        await get.live.close();
      }
    },
  },
  {
    item: '§1.8',
    source: 'A#14',
    title:
      'subscriptions/listen → SSE whose first event is subscriptions/acknowledged with the subscriptionId',
    revisions: MODERN,
    async run(ctx) {
      const listen = await ctx.client.stream('subscriptions/listen', {
        notifications: { toolsListChanged: true, resourcesListChanged: true },
      });
      try {
        expect(listen.status).toBe(200);
        expect(listen.headers.get('content-type')).toContain('text/event-stream');
        const first = safeMessagesOf([(await listen.live.next(REQUEST_TIMEOUT_MS)) ?? { data: '' }])[0];
        expect(first?.method).toBe('notifications/subscriptions/acknowledged');
        expect((first?.params?._meta as Obj | undefined)?.[ENVELOPE_KEYS.subscriptionId]).toBe(listen.id);
      } finally {
        await listen.live.close();
      }
    },
  },
  {
    item: '§1.8',
    source: 'extra',
    title: 'a change reaches a subscriptions/listen stream tagged with its subscriptionId',
    revisions: MODERN,
    async run(ctx) {
      const listen = await ctx.client.stream('subscriptions/listen', {
        notifications: { resourcesListChanged: true, resourceSubscriptions: [TASKS_URI] },
      });
      try {
        expect(listen.status).toBe(200);
        await listen.live.until(
          (m) => m.method === 'notifications/subscriptions/acknowledged',
          REQUEST_TIMEOUT_MS,
        );
        await addTask(ctx, 'protocol-suite: listen');
        const events = await listen.live.until(
          (m) =>
            m.method === 'notifications/resources/updated' ||
            m.method === 'notifications/resources/list_changed',
          NOTIFY_TIMEOUT_MS,
        );
        const change = messagesOf(events).find((m) => m.method?.startsWith('notifications/resources/'));
        expect(change, 'no resource notification on the listen stream').toBeDefined();
        expect((change?.params?._meta as Obj | undefined)?.[ENVELOPE_KEYS.subscriptionId]).toBe(listen.id);
      } finally {
        await listen.live.close();
      }
    },
  },
];
