/**
 * @module test-support/todo-store-contract
 * The one behaviour both task stores must share, as a suite any adapter registers:
 * `sqlite-store.contract.test.ts` and `postgres-store.contract.test.ts`. Ids, order, timestamps,
 * answers for a missing id, title and list bounds, the exact messages, what concurrent
 * writers (several stores on one database, like replicas) see, and that every owner sees only
 * their own tasks, with a bound and ids of their own (an id tells nothing about anybody else's
 * writes), also on a database migrated from before owners or from one id sequence for everybody.
 */
import { ToolError } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_OWNER_LENGTH, MAX_TITLE_LENGTH, SHARED_OWNER, type Todo, type TodoStore } from '../store.js';

export interface StoreOpenOptions {
  now?: () => Date;
  maxTodos?: number;
}

/** How the suite reaches one adapter. */
export interface StoreUnderTest {
  /** Points later `open` calls at a new, empty database. */
  freshDatabase(): Promise<void>;
  /** Opens a store on the current database; several may be open at once, like replicas. */
  open(options?: StoreOpenOptions): Promise<TodoStore>;
  /**
   * Makes the current database one at the first schema (before tasks had owners) holding `tasks`,
   * ids 1 to n in order, as a server of that version left it: the migration's starting point.
   */
  seedVersion1(tasks: ReadonlyArray<{ title: string; done: boolean }>): Promise<void>;
  /**
   * Makes the current database one at the schema before per-owner ids (owners, one id sequence
   * for everybody), as a server of that version left it after adding `tasks` (ids 1 to n in
   * order) and then deleting the ids in `deleted`: the migration's starting point.
   */
  seedVersion2(
    tasks: ReadonlyArray<{ owner: string; title: string; done: boolean }>,
    deleted: readonly number[],
  ): Promise<void>;
}

/** Signed-in users, as `ownerOf` names them. */
const ALICE = 'sub:alice';
const BOB = 'sub:bob';
const CAROL = 'sub:carol';
const DAN = 'sub:dan';

/** Concurrent callers per race: enough to interleave on a pool of connections. */
const RACERS = 20;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const START = Date.parse('2026-07-28T12:00:00.000Z');

/** A clock that moves one second per reading, so every write gets its own time. */
function tickingClock(): () => Date {
  let reading = 0;
  return () => new Date(START + 1000 * reading++);
}

export function describeTodoStoreContract(adapter: string, under: StoreUnderTest): void {
  describe(`TodoStore contract: ${adapter}`, () => {
    const opened: TodoStore[] = [];
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
      for (const title of ['a', 'b', 'c']) ids.push((await store.add(ALICE, title)).id);
      expect(ids).toEqual([1, 2, 3]);
      await store.delete(ALICE, 3);
      await store.delete(ALICE, 2);
      expect((await store.add(ALICE, 'd')).id).toBe(4);
    });

    it('lists oldest first, filtered by status', async () => {
      const store = await open();
      for (const title of ['one', 'two', 'three', 'four']) await store.add(ALICE, title);
      await store.complete(ALICE, 3);
      await store.complete(ALICE, 1);
      const titles = async (status: 'all' | 'open' | 'done') =>
        (await store.list(ALICE, status)).map((task) => task.title);
      expect(await titles('all')).toEqual(['one', 'two', 'three', 'four']);
      expect(await titles('open')).toEqual(['two', 'four']);
      expect(await titles('done')).toEqual(['one', 'three']);
    });

    it('pages oldest first by id, each page after the last id of the one before, filtered by status', async () => {
      const store = await open();
      for (const title of ['one', 'two', 'three', 'four', 'five']) await store.add(ALICE, title);
      await store.complete(ALICE, 2);
      const titles = (page: { items: Todo[] }) => page.items.map((task) => task.title);
      const first = await store.listPage(ALICE, 'all', { after: 0, limit: 2 });
      expect([titles(first), first.more]).toEqual([['one', 'two'], true]);
      const second = await store.listPage(ALICE, 'all', { after: 2, limit: 2 });
      expect([titles(second), second.more]).toEqual([['three', 'four'], true]);
      const last = await store.listPage(ALICE, 'all', { after: 4, limit: 2 });
      expect([titles(last), last.more]).toEqual([['five'], false]);
      const exact = await store.listPage(ALICE, 'open', { after: 0, limit: 4 });
      expect([titles(exact), exact.more]).toEqual([['one', 'three', 'four', 'five'], false]);
      const done = await store.listPage(ALICE, 'done', { after: 0, limit: 1 });
      expect([titles(done), done.more]).toEqual([['two'], false]);
    });

    it('keeps pages stable under writes between them: nothing repeats, nothing is skipped', async () => {
      const store = await open();
      for (const title of ['a', 'b', 'c', 'd']) await store.add(ALICE, title);
      const first = await store.listPage(ALICE, 'all', { after: 0, limit: 2 });
      // Before the next page: one already seen and one not yet seen go, two new ones come.
      await store.delete(ALICE, 1);
      await store.delete(ALICE, 3);
      await store.add(ALICE, 'e');
      await store.add(ALICE, 'f');
      const after = first.items.at(-1)?.id ?? 0;
      const rest = await store.listPage(ALICE, 'all', { after, limit: 10 });
      expect(first.items.map((task) => task.title)).toEqual(['a', 'b']);
      expect(rest.items.map((task) => task.title)).toEqual(['d', 'e', 'f']);
    });

    it("pages only the owner's own tasks, whatever id a page starts after", async () => {
      const store = await open();
      for (const title of ['a1', 'a2', 'a3']) await store.add(ALICE, title);
      await store.add(BOB, 'b1');
      const bobs = await store.listPage(BOB, 'all', { after: 0, limit: 10 });
      expect(bobs.items.map((task) => task.title)).toEqual(['b1']);
      expect(await store.listPage(BOB, 'all', { after: 1, limit: 10 })).toEqual({ items: [], more: false });
    });

    it('refuses a page no caller can ask for, as a bug', async () => {
      const store = await open();
      for (const page of [
        { after: -1, limit: 1 },
        { after: 0.5, limit: 1 },
        { after: 0, limit: 0 },
        { after: 0, limit: 10_001 },
      ]) {
        const refusal = await store.listPage(ALICE, 'all', page).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refusal).toBeInstanceOf(Error);
        expect(refusal).not.toBeInstanceOf(ToolError);
      }
    });

    it('returns tasks in exactly the same shape, with toISOString() timestamps from its clock', async () => {
      const store = await open({ now: tickingClock() });
      const added = await store.add(ALICE, 'Water plants');
      expect(added).toEqual({
        id: 1,
        title: 'Water plants',
        done: false,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: null,
      } satisfies Todo);
      expect(await store.get(ALICE, 1)).toEqual(added);
      const done = await store.complete(ALICE, 1);
      expect(done).toEqual({ ...added, done: true, completedAt: '2026-07-28T12:00:01.000Z' });
      expect(done?.completedAt).toMatch(ISO_MS);
      expect(await store.list(ALICE, 'all')).toEqual([done]);
      expect(await store.delete(ALICE, 1)).toEqual(done);
    });

    it('keeps milliseconds exactly as the clock gave them', async () => {
      const store = await open({ now: () => new Date('2026-01-02T03:04:05.678Z') });
      expect((await store.add(ALICE, 'precise')).createdAt).toBe('2026-01-02T03:04:05.678Z');
    });

    it('keeps the first completion time when a task is completed again', async () => {
      const store = await open({ now: tickingClock() });
      await store.add(ALICE, 'once');
      const first = await store.complete(ALICE, 1);
      expect(await store.complete(ALICE, 1)).toEqual(first);
      expect((await store.get(ALICE, 1))?.completedAt).toBe(first?.completedAt);
    });

    it.each([7, 0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
      'answers undefined for an id that names no task (%s)',
      async (id) => {
        const store = await open();
        await store.add(ALICE, 'keep me');
        expect(await store.get(ALICE, id)).toBeUndefined();
        expect(await store.complete(ALICE, id)).toBeUndefined();
        expect(await store.delete(ALICE, id)).toBeUndefined();
        expect(await store.list(ALICE, 'all')).toHaveLength(1);
      },
    );

    it('answers undefined for a deleted task', async () => {
      const store = await open();
      await store.add(ALICE, 'gone');
      await store.delete(ALICE, 1);
      expect(await store.get(ALICE, 1)).toBeUndefined();
      expect(await store.complete(ALICE, 1)).toBeUndefined();
      expect(await store.delete(ALICE, 1)).toBeUndefined();
    });

    it.each(['', 'x'.repeat(MAX_TITLE_LENGTH + 1)])(
      'refuses a title of length %# with the same ToolError',
      async (title) => {
        const store = await open();
        const refused = store.add(ALICE, title);
        await expect(refused).rejects.toThrow(ToolError);
        await expect(refused).rejects.toThrow(
          `A task title must be 1 to ${MAX_TITLE_LENGTH} characters long.`,
        );
        expect(await store.list(ALICE, 'all')).toEqual([]);
      },
    );

    it('refuses a title with a NUL character with the same ToolError (Postgres text cannot hold one)', async () => {
      const store = await open();
      const refused = store.add(ALICE, 'before\u0000after');
      await expect(refused).rejects.toThrow(ToolError);
      await expect(refused).rejects.toThrow('A task title cannot contain a NUL character.');
      expect(await store.list(ALICE, 'all')).toEqual([]);
    });

    it.each([
      'x'.repeat(MAX_TITLE_LENGTH),
      "Robert'); DROP TABLE tasks;--",
      '😀 ünïcödé ✓',
      '"quoted" and \'single\' and `back`',
    ])('stores the title %j verbatim', async (title) => {
      const store = await open();
      await store.add(ALICE, title);
      expect((await store.get(ALICE, 1))?.title).toBe(title);
    });

    it('refuses to add past the bound with the same message, and takes a task again after a delete', async () => {
      const store = await open({ maxTodos: 3 });
      for (const title of ['a', 'b', 'c']) await store.add(ALICE, title);
      const refused = store.add(ALICE, 'd');
      await expect(refused).rejects.toThrow(ToolError);
      await expect(refused).rejects.toThrow(
        'The task list is full: it holds at most 3 tasks. Delete finished tasks with delete_task, then add this one again.',
      );
      await store.delete(ALICE, 2);
      // A refused add takes no id: the next one is the next free number.
      expect((await store.add(ALICE, 'd')).id).toBe(4);
      expect(await store.list(ALICE, 'all')).toHaveLength(3);
    });

    it('lets concurrent writers on two stores add no more than the bound', async () => {
      const maxTodos = 5;
      const stores = [await open({ maxTodos }), await open({ maxTodos })];
      const results = await Promise.allSettled(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.add(ALICE, `racer ${i}`)),
      );
      const added = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result) => result.status === 'rejected');
      expect(added).toHaveLength(maxTodos);
      expect(refused.every((result) => result.reason instanceof ToolError)).toBe(true);
      expect(await stores[0]?.list(ALICE, 'all')).toHaveLength(maxTodos);
    });

    it('gives every concurrent add its own id', async () => {
      const stores = [await open(), await open()];
      const tasks = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.add(ALICE, `racer ${i}`)),
      );
      const ids = tasks.map((task) => task?.id);
      expect(new Set(ids).size).toBe(RACERS);
      expect((await stores[1]?.list(ALICE, 'all'))?.map((task) => task.id)).toEqual(
        [...ids].sort((a, b) => (a ?? 0) - (b ?? 0)),
      );
    });

    it('keeps one completion time when many complete the same task at once', async () => {
      const clock = tickingClock();
      const stores = [await open({ now: clock }), await open({ now: clock })];
      await stores[0]?.add(ALICE, 'contested');
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.complete(ALICE, 1)),
      );
      const times = new Set(results.map((task) => task?.completedAt));
      expect(times.size).toBe(1);
      expect((await stores[0]?.get(ALICE, 1))?.completedAt).toBe([...times][0]);
    });

    it('hands the task to exactly one of many concurrent deletes', async () => {
      const stores = [await open(), await open()];
      const task = await stores[0]?.add(ALICE, 'contested');
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.delete(ALICE, 1)),
      );
      expect(results.filter((result) => result !== undefined)).toEqual([task]);
      expect(await stores[1]?.list(ALICE, 'all')).toEqual([]);
    });

    it('frees exactly one slot per deleted task, however the deletes race', async () => {
      const stores = [await open({ maxTodos: 2 }), await open({ maxTodos: 2 })];
      await stores[0]?.add(ALICE, 'a');
      await stores[0]?.add(ALICE, 'b');
      await Promise.all(Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.delete(ALICE, 1)));
      await stores[1]?.add(ALICE, 'c');
      await expect(stores[0]?.add(ALICE, 'd')).rejects.toThrow('at most 2 tasks');
    });

    it("keeps each owner's tasks to that owner: to anybody else they are no such task", async () => {
      const store = await open();
      const hers = await store.add(ALICE, 'hers');
      expect(await store.list(BOB, 'all')).toEqual([]);
      expect(await store.list(SHARED_OWNER, 'all')).toEqual([]);
      expect(await store.get(BOB, hers.id)).toBeUndefined();
      expect(await store.complete(BOB, hers.id)).toBeUndefined();
      expect(await store.delete(BOB, hers.id)).toBeUndefined();
      // Nothing changed for her: still there, still open.
      expect(await store.list(ALICE, 'all')).toEqual([hers]);
    });

    it("numbers each owner's tasks on their own: two owners interleaving writes each count 1, 2, 3", async () => {
      const store = await open();
      const ids = { [ALICE]: [] as number[], [BOB]: [] as number[] };
      const add = async (owner: typeof ALICE | typeof BOB, title: string) =>
        ids[owner].push((await store.add(owner, title)).id);
      // The finding's case: her ids must not jump by the 7 tasks he wrote in between.
      await add(ALICE, 'a1');
      await add(ALICE, 'a2');
      for (let i = 1; i <= 7; i += 1) await add(BOB, `b${i}`);
      await add(ALICE, 'a3');
      for (let i = 4; i <= 6; i += 1) {
        await add(BOB, `b${i + 4}`);
        await add(ALICE, `a${i}`);
      }
      expect(ids[ALICE]).toEqual([1, 2, 3, 4, 5, 6]);
      expect(ids[BOB]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // The same id names a different task for each: each owner reaches only their own.
      expect((await store.get(ALICE, 1))?.title).toBe('a1');
      expect((await store.get(BOB, 1))?.title).toBe('b1');
      expect((await store.complete(BOB, 1))?.title).toBe('b1');
      expect((await store.get(ALICE, 1))?.done).toBe(false);
      expect((await store.delete(ALICE, 2))?.title).toBe('a2');
      expect((await store.get(BOB, 2))?.title).toBe('b2');
      expect((await store.list(ALICE, 'all')).map((task) => task.id)).toEqual([1, 3, 4, 5, 6]);
      expect((await store.list(BOB, 'done')).map((task) => task.id)).toEqual([1]);
    });

    it("never gives an owner a deleted task's id again, not even after all their tasks are deleted", async () => {
      const store = await open();
      for (const title of ['a1', 'a2', 'a3']) await store.add(ALICE, title);
      for (const id of [1, 2, 3]) await store.delete(ALICE, id);
      expect(await store.list(ALICE, 'all')).toEqual([]);
      const again = await store.add(ALICE, 'a4');
      expect(again.id).toBe(4);
      // Her deletes move nobody else's numbering.
      expect((await store.add(BOB, 'b1')).id).toBe(1);
      await store.delete(ALICE, 4);
      await store.close();
      // Nor does closing and opening again forget her last id.
      expect((await (await open()).add(ALICE, 'a5')).id).toBe(5);
    });

    it("gives two owners' concurrent adds on two stores each their own 1 to n", async () => {
      const stores = [await open(), await open()];
      const owners = [ALICE, BOB];
      const tasks = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          stores[i % 2]?.add(owners[Math.floor(i / 2) % 2] ?? ALICE, `racer ${i}`),
        ),
      );
      const perOwner = RACERS / 2;
      for (const owner of owners) {
        const listed = (await stores[0]?.list(owner, 'all'))?.map((task) => task.id);
        expect(listed).toEqual(Array.from({ length: perOwner }, (_, i) => i + 1));
      }
      expect(tasks.every((task) => task !== undefined && task.id <= perOwner)).toBe(true);
    });

    it('filters by status within the owner only', async () => {
      const store = await open();
      await store.add(ALICE, 'her open');
      await store.complete(BOB, (await store.add(BOB, 'his done')).id);
      expect((await store.list(ALICE, 'done')).map((task) => task.title)).toEqual([]);
      expect((await store.list(BOB, 'open')).map((task) => task.title)).toEqual([]);
      expect((await store.list(BOB, 'done')).map((task) => task.title)).toEqual(['his done']);
    });

    it('bounds each owner on their own: a full list stops only its owner', async () => {
      const store = await open({ maxTodos: 2 });
      await store.add(ALICE, 'a1');
      await store.add(ALICE, 'a2');
      await expect(store.add(ALICE, 'a3')).rejects.toThrow(
        'The task list is full: it holds at most 2 tasks. Delete finished tasks with delete_task, then add this one again.',
      );
      await store.add(BOB, 'b1');
      await store.add(BOB, 'b2');
      await store.delete(BOB, 1);
      // An id only he has (hers are 1 and 2): her attempt on it finds no task and frees nothing.
      const b3 = await store.add(BOB, 'b3');
      expect(await store.delete(ALICE, b3.id)).toBeUndefined();
      await expect(store.add(BOB, 'b4')).rejects.toThrow('at most 2 tasks');
      // His delete frees his slot, not hers.
      await store.delete(BOB, b3.id);
      await expect(store.add(ALICE, 'a3')).rejects.toThrow('at most 2 tasks');
      expect((await store.add(BOB, 'b4')).title).toBe('b4');
    });

    it('lets concurrent writers for two owners each add exactly up to their own bound', async () => {
      const maxTodos = 4;
      const stores = [await open({ maxTodos }), await open({ maxTodos })];
      const owners = [ALICE, BOB];
      const results = await Promise.allSettled(
        Array.from({ length: RACERS }, (_, i) =>
          stores[i % 2]?.add(owners[Math.floor(i / 2) % 2] ?? ALICE, `r${i}`),
        ),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2 * maxTodos);
      expect(await stores[0]?.list(ALICE, 'all')).toHaveLength(maxTodos);
      expect(await stores[1]?.list(BOB, 'all')).toHaveLength(maxTodos);
    });

    it('refuses an owner no caller can have, as a bug (not a message for the model), storing nothing', async () => {
      const store = await open();
      const tooLong = 'x'.repeat(MAX_OWNER_LENGTH + 1);
      const refused = store.add(tooLong, 'title');
      await expect(refused).rejects.toThrow(/at most 512 characters/);
      await expect(refused).rejects.not.toBeInstanceOf(ToolError);
      await expect(store.list(tooLong, 'all')).rejects.toThrow(/at most 512/);
      await expect(store.add('sub:a\u0000b', 'title')).rejects.toThrow(/without NUL/);
      // The longest real owner is fine.
      const longest = 'y'.repeat(MAX_OWNER_LENGTH);
      const task = await store.add(longest, 'title');
      expect(await store.list(longest, 'all')).toEqual([task]);
    });

    it("migrates a database from before owners: its tasks become the shared owner's, ids and bound kept", async () => {
      await under.seedVersion1([
        { title: 'old open', done: false },
        { title: 'old done', done: true },
      ]);
      const store = await open({ maxTodos: 3 });
      const shared = await store.list(SHARED_OWNER, 'all');
      expect(shared.map(({ id, title, done }) => ({ id, title, done }))).toEqual([
        { id: 1, title: 'old open', done: false },
        { id: 2, title: 'old done', done: true },
      ]);
      expect(await store.list(ALICE, 'all')).toEqual([]);
      expect(await store.get(ALICE, 1)).toBeUndefined();
      // The shared list counts its old tasks toward its bound; a new owner starts from zero.
      expect((await store.add(SHARED_OWNER, 'new shared')).id).toBe(3);
      await expect(store.add(SHARED_OWNER, 'one too many')).rejects.toThrow('at most 3 tasks');
      for (const title of ['a1', 'a2', 'a3']) await store.add(ALICE, title);
      // Deleting an old task frees a slot of the shared list's; its numbering is its own.
      expect((await store.delete(SHARED_OWNER, 1))?.title).toBe('old open');
      expect((await store.add(SHARED_OWNER, 'fits again')).id).toBe(4);
    });

    it('migrates a database from one id sequence for everybody: old tasks keep their ids, new ones count per owner above every old id', async () => {
      // Global ids 1 to 6, interleaved; Carol's only task and Alice's last one (the highest id) deleted.
      await under.seedVersion2(
        [
          { owner: ALICE, title: 'a1', done: false },
          { owner: BOB, title: 'b1', done: false },
          { owner: ALICE, title: 'a2', done: true },
          { owner: BOB, title: 'b2', done: false },
          { owner: CAROL, title: 'c1', done: false },
          { owner: ALICE, title: 'a3', done: false },
        ],
        [5, 6],
      );
      const store = await open();
      const listed = async (owner: string) =>
        (await store.list(owner, 'all')).map(({ id, title, done }) => ({ id, title, done }));
      expect(await listed(ALICE)).toEqual([
        { id: 1, title: 'a1', done: false },
        { id: 3, title: 'a2', done: true },
      ]);
      expect(await listed(BOB)).toEqual([
        { id: 2, title: 'b1', done: false },
        { id: 4, title: 'b2', done: false },
      ]);
      expect(await listed(CAROL)).toEqual([]);
      // An old id still names its task, for its owner only, in get, complete and delete.
      expect((await store.get(ALICE, 1))?.title).toBe('a1');
      expect(await store.get(BOB, 1)).toBeUndefined();
      expect(await store.complete(ALICE, 2)).toBeUndefined();
      expect((await store.complete(BOB, 2))?.done).toBe(true);
      expect((await store.delete(ALICE, 1))?.title).toBe('a1');
      expect(await store.get(ALICE, 1)).toBeUndefined();
      expect(await store.get(CAROL, 5)).toBeUndefined();
      // Every owner's new ids start above the last id ever handed out (6, deleted): whether they
      // have tasks, had only deleted ones, or are new, no id a model remembers names a newer task.
      for (const owner of [ALICE, BOB, CAROL, DAN, SHARED_OWNER]) {
        expect((await store.add(owner, 'first after')).id, owner).toBe(7);
      }
      // From there each owner counts on their own.
      expect((await store.add(ALICE, 'second after')).id).toBe(8);
      expect((await store.add(BOB, 'second after')).id).toBe(8);
      expect((await listed(ALICE)).map((task) => task.id)).toEqual([3, 7, 8]);
      await store.close();
      const again = await open();
      expect((await again.add(ALICE, 'after reopening')).id).toBe(9);
      expect((await again.add(CAROL, 'after reopening')).id).toBe(8);
      expect((await again.get(BOB, 4))?.title).toBe('b2');
    });

    it('migrates an empty database from before owners, and opens a migrated one again unchanged', async () => {
      await under.seedVersion1([]);
      const first = await open();
      // No id was ever handed out, so numbering starts at 1.
      expect((await first.add(ALICE, 'after')).id).toBe(1);
      await first.close();
      const second = await open();
      expect((await second.list(ALICE, 'all')).map((task) => task.title)).toEqual(['after']);
      expect(await second.list(SHARED_OWNER, 'all')).toEqual([]);
    });

    it('keeps every task when a store is closed and another opened', async () => {
      const first = await open();
      await first.add(ALICE, 'kept');
      await first.close();
      const second = await open();
      expect((await second.list(ALICE, 'all')).map((task) => task.title)).toEqual(['kept']);
    });
  });
}
