/**
 * @module tasks/test-support/task-store-contract
 * The one behaviour both task stores must share, as a suite any adapter registers:
 * `sqlite-store.contract.test.ts` and `postgres-store.contract.test.ts`. Ids, order, timestamps,
 * answers for a missing id, title and list bounds, the exact messages, and what concurrent
 * writers (several stores on one database, like replicas) see.
 */
import { ToolError } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TITLE_LENGTH, type Task, type TaskStore } from '../store.js';

export interface StoreOpenOptions {
  now?: () => Date;
  maxTasks?: number;
}

/** How the suite reaches one adapter. */
export interface StoreUnderTest {
  /** Points later `open` calls at a new, empty database. */
  freshDatabase(): Promise<void>;
  /** Opens a store on the current database; several may be open at once, like replicas. */
  open(options?: StoreOpenOptions): Promise<TaskStore>;
}

/** Concurrent callers per race: enough to interleave on a pool of connections. */
const RACERS = 20;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const START = Date.parse('2026-07-28T12:00:00.000Z');

/** A clock that moves one second per reading, so every write gets its own time. */
function tickingClock(): () => Date {
  let reading = 0;
  return () => new Date(START + 1000 * reading++);
}

export function describeTaskStoreContract(adapter: string, under: StoreUnderTest): void {
  describe(`TaskStore contract: ${adapter}`, () => {
    const opened: TaskStore[] = [];
    const open = async (options?: StoreOpenOptions) => {
      const store = await under.open(options);
      opened.push(store);
      return store;
    };

    beforeEach(() => under.freshDatabase());
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('numbers tasks from 1 and never reuses an id, not even the last one deleted', async () => {
      const store = await open();
      const ids = [];
      for (const title of ['a', 'b', 'c']) ids.push((await store.add(title)).id);
      expect(ids).toEqual([1, 2, 3]);
      await store.delete(3);
      await store.delete(2);
      expect((await store.add('d')).id).toBe(4);
    });

    it('lists oldest first, filtered by status', async () => {
      const store = await open();
      for (const title of ['one', 'two', 'three', 'four']) await store.add(title);
      await store.complete(3);
      await store.complete(1);
      const titles = async (status: 'all' | 'open' | 'done') =>
        (await store.list(status)).map((task) => task.title);
      expect(await titles('all')).toEqual(['one', 'two', 'three', 'four']);
      expect(await titles('open')).toEqual(['two', 'four']);
      expect(await titles('done')).toEqual(['one', 'three']);
    });

    it('returns tasks in exactly the same shape, with toISOString() timestamps from its clock', async () => {
      const store = await open({ now: tickingClock() });
      const added = await store.add('Water plants');
      expect(added).toEqual({
        id: 1,
        title: 'Water plants',
        done: false,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: null,
      } satisfies Task);
      expect(await store.get(1)).toEqual(added);
      const done = await store.complete(1);
      expect(done).toEqual({ ...added, done: true, completedAt: '2026-07-28T12:00:01.000Z' });
      expect(done?.completedAt).toMatch(ISO_MS);
      expect(await store.list('all')).toEqual([done]);
      expect(await store.delete(1)).toEqual(done);
    });

    it('keeps milliseconds exactly as the clock gave them', async () => {
      const store = await open({ now: () => new Date('2026-01-02T03:04:05.678Z') });
      expect((await store.add('precise')).createdAt).toBe('2026-01-02T03:04:05.678Z');
    });

    it('keeps the first completion time when a task is completed again', async () => {
      const store = await open({ now: tickingClock() });
      await store.add('once');
      const first = await store.complete(1);
      expect(await store.complete(1)).toEqual(first);
      expect((await store.get(1))?.completedAt).toBe(first?.completedAt);
    });

    it.each([7, 0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
      'answers undefined for an id that names no task (%s)',
      async (id) => {
        const store = await open();
        await store.add('keep me');
        expect(await store.get(id)).toBeUndefined();
        expect(await store.complete(id)).toBeUndefined();
        expect(await store.delete(id)).toBeUndefined();
        expect(await store.list('all')).toHaveLength(1);
      },
    );

    it('answers undefined for a deleted task', async () => {
      const store = await open();
      await store.add('gone');
      await store.delete(1);
      expect(await store.get(1)).toBeUndefined();
      expect(await store.complete(1)).toBeUndefined();
      expect(await store.delete(1)).toBeUndefined();
    });

    it.each(['', 'x'.repeat(MAX_TITLE_LENGTH + 1)])(
      'refuses a title of length %# with the same ToolError',
      async (title) => {
        const store = await open();
        const refused = store.add(title);
        await expect(refused).rejects.toThrow(ToolError);
        await expect(refused).rejects.toThrow(
          `A task title must be 1 to ${MAX_TITLE_LENGTH} characters long.`,
        );
        expect(await store.list('all')).toEqual([]);
      },
    );

    it('refuses a title with a NUL character with the same ToolError (Postgres text cannot hold one)', async () => {
      const store = await open();
      const refused = store.add('before\u0000after');
      await expect(refused).rejects.toThrow(ToolError);
      await expect(refused).rejects.toThrow('A task title cannot contain a NUL character.');
      expect(await store.list('all')).toEqual([]);
    });

    it.each([
      'x'.repeat(MAX_TITLE_LENGTH),
      "Robert'); DROP TABLE tasks;--",
      '😀 ünïcödé ✓',
      '"quoted" and \'single\' and `back`',
    ])('stores the title %j verbatim', async (title) => {
      const store = await open();
      await store.add(title);
      expect((await store.get(1))?.title).toBe(title);
    });

    it('refuses to add past the bound with the same message, and takes a task again after a delete', async () => {
      const store = await open({ maxTasks: 3 });
      for (const title of ['a', 'b', 'c']) await store.add(title);
      const refused = store.add('d');
      await expect(refused).rejects.toThrow(ToolError);
      await expect(refused).rejects.toThrow(
        'The task list is full: it holds at most 3 tasks. Delete finished tasks with delete_task, then add this one again.',
      );
      await store.delete(2);
      // A refused add takes no id: the next one is the next free number.
      expect((await store.add('d')).id).toBe(4);
      expect(await store.list('all')).toHaveLength(3);
    });

    it('lets concurrent writers on two stores add no more than the bound', async () => {
      const maxTasks = 5;
      const stores = [await open({ maxTasks }), await open({ maxTasks })];
      const results = await Promise.allSettled(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.add(`racer ${i}`)),
      );
      const added = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result) => result.status === 'rejected');
      expect(added).toHaveLength(maxTasks);
      expect(refused.every((result) => result.reason instanceof ToolError)).toBe(true);
      expect(await stores[0]?.list('all')).toHaveLength(maxTasks);
    });

    it('gives every concurrent add its own id', async () => {
      const stores = [await open(), await open()];
      const tasks = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.add(`racer ${i}`)),
      );
      const ids = tasks.map((task) => task?.id);
      expect(new Set(ids).size).toBe(RACERS);
      expect((await stores[1]?.list('all'))?.map((task) => task.id)).toEqual(
        [...ids].sort((a, b) => (a ?? 0) - (b ?? 0)),
      );
    });

    it('keeps one completion time when many complete the same task at once', async () => {
      const clock = tickingClock();
      const stores = [await open({ now: clock }), await open({ now: clock })];
      await stores[0]?.add('contested');
      const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.complete(1)));
      const times = new Set(results.map((task) => task?.completedAt));
      expect(times.size).toBe(1);
      expect((await stores[0]?.get(1))?.completedAt).toBe([...times][0]);
    });

    it('hands the task to exactly one of many concurrent deletes', async () => {
      const stores = [await open(), await open()];
      const task = await stores[0]?.add('contested');
      const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.delete(1)));
      expect(results.filter((result) => result !== undefined)).toEqual([task]);
      expect(await stores[1]?.list('all')).toEqual([]);
    });

    it('frees exactly one slot per deleted task, however the deletes race', async () => {
      const stores = [await open({ maxTasks: 2 }), await open({ maxTasks: 2 })];
      await stores[0]?.add('a');
      await stores[0]?.add('b');
      await Promise.all(Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.delete(1)));
      await stores[1]?.add('c');
      await expect(stores[0]?.add('d')).rejects.toThrow('at most 2 tasks');
    });

    it('keeps every task when a store is closed and another opened', async () => {
      const first = await open();
      await first.add('kept');
      await first.close();
      const second = await open();
      expect((await second.list('all')).map((task) => task.title)).toEqual(['kept']);
    });
  });
}
