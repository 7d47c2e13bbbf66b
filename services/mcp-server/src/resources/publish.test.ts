/**
 * `OwnerScopedEventBus` and `publishTodoChanges` without HTTP: listeners registered inside
 * `runAs(owner)` (as the SDK's listen router registers them, synchronously while serving the
 * request) hear only their owner's task events; owner-less events reach all; a listener
 * registered outside any owner gets only owner-less ones. Partners: the host's `OwnerScopedEventBus`, `publish.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OwnerScopedEventBus } from '@mcp-workshop/mcp-host';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { announceTodoChanges, createTodoEvents, EVERY_OWNER, openTodoStore } from '@mcp-workshop/task-store';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { publishTodoChanges } from './publish.js';

const LIST_CHANGED: ServerEvent = { kind: 'resources_list_changed' };

function listen(bus: OwnerScopedEventBus, owner?: string) {
  const seen: ServerEvent[] = [];
  const subscribe = () => bus.subscribe((event) => void seen.push(event));
  const unsubscribe = owner === undefined ? subscribe() : bus.runAs(owner, subscribe);
  return { seen, unsubscribe };
}

describe('OwnerScopedEventBus', () => {
  it("delivers publishTo(owner) only to that owner's listeners", () => {
    const bus = new OwnerScopedEventBus();
    const alice = listen(bus, 'sub:alice');
    const bob = listen(bus, 'sub:bob');
    bus.publishTo('sub:alice', LIST_CHANGED);
    expect(alice.seen).toEqual([LIST_CHANGED]);
    expect(bob.seen).toEqual([]);
  });

  it('delivers publish() (tools or prompts list changes) to every listener, owner or not', () => {
    const bus = new OwnerScopedEventBus();
    const alice = listen(bus, 'sub:alice');
    const nobody = listen(bus);
    bus.publish({ kind: 'tools_list_changed' });
    expect(alice.seen).toEqual([{ kind: 'tools_list_changed' }]);
    expect(nobody.seen).toEqual([{ kind: 'tools_list_changed' }]);
  });

  it("gives a listener registered outside runAs none of anybody's events, not even the shared owner's", () => {
    const bus = new OwnerScopedEventBus();
    const nobody = listen(bus);
    bus.publishTo('sub:alice', LIST_CHANGED);
    bus.publishTo('', LIST_CHANGED);
    expect(nobody.seen).toEqual([]);
  });

  it('files a listener under the owner of the runAs it was registered in, across awaits too', async () => {
    const bus = new OwnerScopedEventBus();
    const seen: ServerEvent[] = [];
    await bus.runAs('sub:alice', async () => {
      await Promise.resolve();
      bus.subscribe((event) => void seen.push(event));
    });
    bus.publishTo('sub:bob', LIST_CHANGED);
    bus.publishTo('sub:alice', { kind: 'resource_updated', uri: 'tasks://1' });
    expect(seen).toEqual([{ kind: 'resource_updated', uri: 'tasks://1' }]);
  });

  it('returns what runAs ran returned', () => {
    expect(new OwnerScopedEventBus().runAs('x', () => 42)).toBe(42);
  });

  it('stops delivering after unsubscribe, which is idempotent, and keeps the same function subscribed twice apart', () => {
    const bus = new OwnerScopedEventBus();
    const seen: ServerEvent[] = [];
    const listener = (event: ServerEvent) => void seen.push(event);
    const first = bus.runAs('a', () => bus.subscribe(listener));
    bus.runAs('a', () => bus.subscribe(listener));
    first();
    first();
    expect(bus.listenerCount).toBe(1);
    bus.publishTo('a', LIST_CHANGED);
    expect(seen).toHaveLength(1);
  });

  it('keeps delivering to the others when one listener throws, and reports it', () => {
    const errors: Error[] = [];
    const bus = new OwnerScopedEventBus((error) => errors.push(error));
    bus.runAs('a', () =>
      bus.subscribe(() => {
        throw new Error('broken stream');
      }),
    );
    const fine = listen(bus, 'a');
    bus.publishTo('a', LIST_CHANGED);
    expect(fine.seen).toEqual([LIST_CHANGED]);
    expect(errors.map((error) => error.message)).toEqual(['broken stream']);
  });

  it('lets a listener unsubscribe itself, or another, while an event is being delivered', () => {
    const bus = new OwnerScopedEventBus();
    const seen: string[] = [];
    let second: () => void = () => {};
    const first = bus.runAs('a', () =>
      bus.subscribe(() => {
        seen.push('first');
        first();
        second();
      }),
    );
    second = bus.runAs('a', () => bus.subscribe(() => seen.push('second')));
    bus.publishTo('a', LIST_CHANGED);
    bus.publishTo('a', LIST_CHANGED);
    expect(seen).toEqual(['first']);
    expect(bus.listenerCount).toBe(0);
  });
});

describe('publishTodoChanges', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sends each write's notifications only to its owner's streams", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'owner-bus-'));
    dirs.push(dir);
    const events = createTodoEvents();
    const bus = new OwnerScopedEventBus();
    const stop = publishTodoChanges(events, bus);
    const alice = listen(bus, 'sub:alice');
    const bob = listen(bus, 'sub:bob');
    const store = announceTodoChanges(openTodoStore({ dataDir: dir, logger: createSilentLogger() }), events);
    try {
      const hers = await store.add('sub:alice', 'hers');
      await store.complete('sub:alice', hers.id);
      // Bob's attempt on her task changes nothing, so announces nothing.
      await store.delete('sub:bob', hers.id);
      expect(alice.seen).toEqual([
        { kind: 'resources_list_changed' },
        { kind: 'resource_updated', uri: 'tasks://all' },
        { kind: 'resource_updated', uri: `tasks://${hers.id}` },
        { kind: 'resource_updated', uri: 'tasks://all' },
      ]);
      expect(bob.seen).toEqual([]);
      stop();
      await store.delete('sub:alice', hers.id);
      expect(alice.seen).toHaveLength(4);
    } finally {
      await store.close();
    }
  });

  it('tells every stream to refetch when a list change concerns every owner (events were lost)', () => {
    const events = createTodoEvents();
    const bus = new OwnerScopedEventBus();
    publishTodoChanges(events, bus);
    const alice = listen(bus, 'sub:alice');
    const shared = listen(bus, '');
    events.emit('listChanged', EVERY_OWNER);
    for (const stream of [alice, shared]) {
      expect(stream.seen).toEqual([
        { kind: 'resources_list_changed' },
        { kind: 'resource_updated', uri: 'tasks://all' },
      ]);
    }
  });
});
