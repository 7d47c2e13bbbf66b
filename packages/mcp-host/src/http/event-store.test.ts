import { describe, expect, it } from 'vitest';
import { MAX_EVENTS_PER_STREAM, MAX_STREAMS_PER_SESSION, SessionEventStore } from './event-store.js';

const ping = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'ping' });

describe('SessionEventStore', () => {
  it('replays only the later events of the same stream', async () => {
    const store = new SessionEventStore();
    const a1 = await store.storeEvent('a', ping(1));
    await store.storeEvent('b', ping(2));
    await store.storeEvent('a', ping(3));
    const replayed: unknown[] = [];
    const stream = await store.replayEventsAfter(a1, {
      send: async (_id, message) => void replayed.push(message),
    });
    expect(stream).toBe('a');
    expect(replayed).toEqual([ping(3)]);
  });

  it('gives ids that are unique across streams and name their stream', async () => {
    const store = new SessionEventStore();
    const ids = [await store.storeEvent('a/b', ping(1)), await store.storeEvent('c', ping(2))];
    expect(new Set(ids).size).toBe(2);
    expect(await store.getStreamIdForEventId(ids[0] ?? '')).toBe('a/b');
  });

  it('keeps at most the last events of a stream and the most recent streams', async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent('s', ping(0));
    for (let i = 1; i <= MAX_EVENTS_PER_STREAM + 10; i++) await store.storeEvent('s', ping(i));
    const replayed: unknown[] = [];
    await store.replayEventsAfter(first, { send: async (_id, message) => void replayed.push(message) });
    expect(replayed).toHaveLength(MAX_EVENTS_PER_STREAM);
    for (let i = 0; i <= MAX_STREAMS_PER_SESSION; i++) await store.storeEvent(`stream-${i}`, ping(i));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
  });

  it.each(['', 'nonsense', '%E0%A4%A.1', '.5'])('rejects the unknown Last-Event-ID %j', async (id) => {
    const store = new SessionEventStore();
    await expect(store.replayEventsAfter(id, { send: async () => undefined })).rejects.toThrow(/Unknown/);
  });
});
