/**
 * @module test-support/run-store-contract
 * The one behaviour both run stores (MCP tasks' storage) must share, as a suite any adapter
 * registers: `runs/sqlite-run-store.contract.test.ts` and `runs/postgres-run-store.contract.test.ts`.
 * The shape of a run, owner binding, expiry, terminal statuses, steps, size bounds, hostile ids,
 * and what two stores on one database (replicas) see when they race.
 */

import type { NewTaskRecord, TaskRecord } from '@mcp-workshop/shared/tasks-port';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RUN_JSON_BYTES, MAX_RUN_TTL_MS } from '../runs/limits.js';
import type { RunStore } from '../runs/types.js';
import { MAX_OWNER_LENGTH, SHARED_OWNER } from '../store.js';

export interface RunStoreOpenOptions {
  now?: () => Date;
  maxSteps?: number;
  maxStepsBytes?: number;
}

/** How the suite reaches one adapter. */
export interface RunStoreUnderTest {
  /** Points later `open` calls at a new, empty database. */
  freshDatabase(): Promise<void>;
  /** Opens a store on the current database; several may be open at once, like replicas. */
  open(options?: RunStoreOpenOptions): Promise<RunStore>;
}

const ALICE = 'sub:alice';
const BOB = 'sub:bob';
const START = Date.parse('2026-07-28T12:00:00.000Z');
const RUN_ID = /^[A-Za-z0-9_-]{22}$/;
/** Concurrent callers per race: enough to interleave on a pool of connections. */
const RACERS = 20;

/** The ids of the runs `unfinished()` lists, in its order. */
async function unfinishedIds(store: RunStore): Promise<string[]> {
  return (await store.unfinished()).map(({ id }) => id);
}

/** A clock the test moves by hand; every store of a test reads the same one. */
function manualClock() {
  const clock = { ms: START, now: () => new Date(clock.ms) };
  return clock;
}

const report = (owner = ALICE): NewTaskRecord => ({
  owner,
  tool: 'generate_report',
  arguments: { month: '2026-07', sections: ['sales', 'costs'] },
  caller: { scopes: ['tasks:write'], clientId: 'cli' },
  ttlMs: 60_000,
  pollIntervalMs: 2_000,
});

/** Ids no store could have made, and the ones an attacker would try. */
const HOSTILE_IDS = [
  '',
  'x'.repeat(100_000),
  'ünïcödé-ünïcödé-ünïcö',
  '😀'.repeat(11),
  "'; DROP TABLE mcp_runs;--",
  "AAAAAAAAAAAAAAAAAAAA' OR '1'='1",
  'AAAAAAAAAAAAAAAAAAAAA\u0000',
  'AAAAAAAAAAAAAAAAAAAA.A',
  'AAAAAAAAAAAAAAAAAAAAAA',
];

export function describeRunStoreContract(adapter: string, under: RunStoreUnderTest): void {
  describe(`RunStore contract: ${adapter}`, () => {
    const opened: RunStore[] = [];
    let clock = manualClock();
    const open = async (options?: RunStoreOpenOptions) => {
      const store = await under.open({ now: clock.now, ...options });
      opened.push(store);
      return store;
    };

    beforeEach(async () => {
      clock = manualClock();
      await under.freshDatabase();
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('stores a new run as working, in exactly this shape, with timestamps from its clock', async () => {
      const store = await open();
      const run = await store.create({ ...report(), statusMessage: 'Queued' });
      expect(run).toEqual({
        id: expect.stringMatching(RUN_ID),
        owner: ALICE,
        tool: 'generate_report',
        arguments: { month: '2026-07', sections: ['sales', 'costs'] },
        caller: { scopes: ['tasks:write'], clientId: 'cli' },
        status: 'working',
        statusMessage: 'Queued',
        createdAt: '2026-07-28T12:00:00.000Z',
        lastUpdatedAt: '2026-07-28T12:00:00.000Z',
        ttlMs: 60_000,
        pollIntervalMs: 2_000,
        result: null,
        error: null,
        inputRequests: null,
      } satisfies TaskRecord);
      expect(await store.get(ALICE, run.id)).toEqual(run);
      expect(await store.load(run.id)).toEqual(run);
      expect((await store.create(report())).statusMessage).toBeNull();
    });

    it('gives every run its own unguessable id: 128 random bits in base64url', async () => {
      const store = await open();
      const ids = await Promise.all(Array.from({ length: 50 }, () => store.create(report())));
      expect(new Set(ids.map((run) => run.id)).size).toBe(50);
      for (const { id } of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    });

    it('keeps JSON exactly: key order, unicode, a NUL inside a string, numbers and nesting', async () => {
      const store = await open();
      const args = { z: 1, a: { 'ü😀': [1.5, -0.25, null, true, 'a\u0000b'] }, m: '"quoted" \\ back' };
      const run = await store.create({ ...report(), arguments: args });
      const loaded = await store.load(run.id);
      expect(JSON.stringify(loaded?.arguments)).toBe(JSON.stringify(args));
    });

    it("answers another owner's run exactly like one that does not exist", async () => {
      const store = await open();
      const hers = await store.create(report(ALICE));
      for (const owner of [BOB, SHARED_OWNER]) {
        expect(await store.get(owner, hers.id)).toBeUndefined();
        expect(await store.cancel(owner, hers.id)).toBeUndefined();
      }
      // Nothing changed for her.
      expect(await store.get(ALICE, hers.id)).toEqual(hers);
      // The shared owner's runs are the shared owner's alone, too.
      const shared = await store.create(report(SHARED_OWNER));
      expect(await store.get(ALICE, shared.id)).toBeUndefined();
      expect((await store.get(SHARED_OWNER, shared.id))?.id).toBe(shared.id);
    });

    it.each(HOSTILE_IDS.map((id, index) => [index, id] as const))(
      'answers hostile id #%i like an unknown one, and changes nothing',
      async (_index, id) => {
        const store = await open();
        const run = await store.create(report());
        await store.saveStep(run.id, 'one', 1);
        expect(await store.get(ALICE, id)).toBeUndefined();
        expect(await store.load(id)).toBeUndefined();
        expect(await store.update(id, { status: 'cancelled' })).toBeUndefined();
        expect(await store.cancel(ALICE, id)).toBeUndefined();
        expect(await store.answer(ALICE, id, { q: 1 })).toBeUndefined();
        expect(await store.steps(id)).toEqual([]);
        expect(await store.saveStep(id, 'one', 2)).toBe(false);
        expect(await store.load(run.id)).toEqual(run);
        expect(await store.steps(run.id)).toEqual([{ key: 'one', value: 1 }]);
        expect(await unfinishedIds(store)).toEqual([run.id]);
      },
    );

    it('forgets a run at createdAt + ttlMs: gone to every reader, then deleted with its steps', async () => {
      const store = await open();
      const run = await store.create({ ...report(), ttlMs: 1_000 });
      const kept = await store.create({ ...report(), ttlMs: 5_000 });
      await store.saveStep(run.id, 'a', 'x');
      await store.saveStep(kept.id, 'a', 'y');
      clock.ms = START + 999;
      expect(await store.get(ALICE, run.id)).toEqual(run);
      clock.ms = START + 1_000;
      expect(await store.get(ALICE, run.id)).toBeUndefined();
      expect(await store.load(run.id)).toBeUndefined();
      expect(await store.update(run.id, { status: 'completed', result: {} })).toBeUndefined();
      expect(await store.cancel(ALICE, run.id)).toBeUndefined();
      expect(await store.answer(ALICE, run.id, { q: 1 })).toBeUndefined();
      expect(await store.steps(run.id)).toEqual([]);
      expect(await store.saveStep(run.id, 'b', 'x')).toBe(false);
      expect(await unfinishedIds(store)).toEqual([kept.id]);
      expect(await store.deleteExpired()).toBe(1);
      expect(await store.deleteExpired()).toBe(0);
      // Back before its expiry, the run would be live again, were it still stored: it is not.
      clock.ms = START;
      expect(await store.load(run.id)).toBeUndefined();
      expect(await store.steps(run.id)).toEqual([]);
      expect(await store.load(kept.id)).toEqual(kept);
      expect(await store.steps(kept.id)).toEqual([{ key: 'a', value: 'y' }]);
    });

    it('moves through working and input_required, and lastUpdatedAt moves with every change', async () => {
      const store = await open();
      const run = await store.create({ ...report(), statusMessage: 'Starting' });
      clock.ms += 1_000;
      const asking = await store.update(run.id, { status: 'input_required', statusMessage: 'Which month?' });
      expect(asking).toEqual({
        ...run,
        status: 'input_required',
        statusMessage: 'Which month?',
        lastUpdatedAt: '2026-07-28T12:00:01.000Z',
      });
      clock.ms += 1_000;
      // Left out, the message stays; null clears it.
      const back = await store.update(run.id, { status: 'working' });
      expect(back).toMatchObject({ status: 'working', statusMessage: 'Which month?' });
      expect(back?.lastUpdatedAt).toBe('2026-07-28T12:00:02.000Z');
      expect(
        (await store.update(run.id, { status: 'working', statusMessage: null }))?.statusMessage,
      ).toBeNull();
      expect(await unfinishedIds(store)).toEqual([run.id]);
    });

    it('completes with the exact result, and never changes a terminal run again', async () => {
      const store = await open();
      const run = await store.create(report());
      const result = { content: [{ type: 'text', text: 'Report ready' }], structuredContent: { pages: 3 } };
      clock.ms += 5_000;
      const done = await store.update(run.id, { status: 'completed', result, statusMessage: 'Done' });
      expect(done).toEqual({
        ...run,
        status: 'completed',
        statusMessage: 'Done',
        result,
        lastUpdatedAt: '2026-07-28T12:00:05.000Z',
      });
      clock.ms += 5_000;
      const error = { code: -32603, message: 'too late' };
      expect(await store.update(run.id, { status: 'failed', error })).toBeUndefined();
      expect(await store.update(run.id, { status: 'working' })).toBeUndefined();
      expect(await store.cancel(ALICE, run.id)).toEqual(done);
      expect(await store.saveStep(run.id, 'late', 1)).toBe(false);
      expect(await store.load(run.id)).toEqual(done);
      expect(await unfinishedIds(store)).toEqual([]);
    });

    it('fails with a JSON-RPC error, data and all', async () => {
      const store = await open();
      const run = await store.create(report());
      const error = { code: -32000, message: 'The source is down', data: { retryAfter: 30 } };
      expect(await store.update(run.id, { status: 'failed', error })).toMatchObject({
        status: 'failed',
        error,
        result: null,
      });
    });

    it("cancels the owner's live run once; later cancels and updates find it as it is", async () => {
      const store = await open();
      const run = await store.create(report());
      await store.update(run.id, { status: 'input_required' });
      clock.ms += 3_000;
      const cancelled = await store.cancel(ALICE, run.id);
      expect(cancelled).toMatchObject({ status: 'cancelled', lastUpdatedAt: '2026-07-28T12:00:03.000Z' });
      clock.ms += 3_000;
      expect(await store.cancel(ALICE, run.id)).toEqual(cancelled);
      expect(await store.update(run.id, { status: 'completed', result: {} })).toBeUndefined();
      expect(await store.get(ALICE, run.id)).toEqual(cancelled);
    });

    it.each([
      [{ status: 'completed' }, 'result goes with status completed'],
      [{ status: 'working', result: {} }, 'result goes with status completed'],
      [{ status: 'failed' }, 'error goes with status failed'],
      [
        { status: 'completed', result: {}, error: { code: 1, message: 'x' } },
        'error goes with status failed',
      ],
      [{ status: 'done' }, 'Not a run status'],
      [{ status: 'failed', error: { code: 1.5, message: 'x' } }, 'JSON-RPC error'],
      [{ status: 'working', statusMessage: 'a\u0000b' }, 'without NUL'],
      [{ status: 'working', inputRequests: { q: {} } }, 'inputRequests go with status input_required'],
      [{ status: 'input_required', inputRequests: {} }, 'at least one question'],
      [{ status: 'input_required', inputRequests: { ['k'.repeat(251)]: {} } }, 'input request key must be'],
      [{ status: 'input_required', inputRequests: [] }, 'JSON object'],
    ])('refuses the update %j with a clear Error and writes nothing', async (update, message) => {
      const store = await open();
      const run = await store.create(report());
      // @ts-expect-error: the update is wrong on purpose.
      await expect(store.update(run.id, update)).rejects.toThrow(message);
      expect(await store.load(run.id)).toEqual(run);
    });

    it('keeps open questions while input_required, and clears them with any other status', async () => {
      const store = await open();
      const run = await store.create(report());
      const questions = { month: { method: 'elicitation/create', params: { message: 'Which month?' } } };
      const asking = await store.update(run.id, { status: 'input_required', inputRequests: questions });
      expect(asking?.inputRequests).toEqual(questions);
      // Left out while still asking, the questions stay.
      expect(
        (await store.update(run.id, { status: 'input_required', statusMessage: 'Waiting' }))?.inputRequests,
      ).toEqual(questions);
      expect((await store.update(run.id, { status: 'working' }))?.inputRequests).toBeNull();
      await store.update(run.id, { status: 'input_required', inputRequests: questions });
      expect((await store.cancel(ALICE, run.id))?.inputRequests).toBeNull();
    });

    it('records answers as input steps and works again once no question is open', async () => {
      const store = await open();
      const run = await store.create(report());
      const questions = { month: { method: 'elicitation/create' }, format: { method: 'elicitation/create' } };
      await store.update(run.id, { status: 'input_required', inputRequests: questions });
      clock.ms += 1_000;
      const half = await store.answer(ALICE, run.id, {
        month: { action: 'accept', content: { month: '2026-07' } },
        nope: 1,
      });
      expect(half).toMatchObject({
        status: 'input_required',
        inputRequests: { format: questions.format },
        lastUpdatedAt: '2026-07-28T12:00:01.000Z',
      });
      // An answer to nothing open changes nothing, not even the time.
      clock.ms += 1_000;
      expect(await store.answer(ALICE, run.id, { month: 'again', other: 2 })).toEqual(half);
      const working = await store.answer(ALICE, run.id, { format: 'pdf' });
      expect(working).toMatchObject({
        status: 'working',
        inputRequests: null,
        lastUpdatedAt: '2026-07-28T12:00:02.000Z',
      });
      expect(await store.steps(run.id)).toEqual([
        { key: 'input:month', value: { action: 'accept', content: { month: '2026-07' } } },
        { key: 'input:format', value: 'pdf' },
      ]);
      // A run that asks nothing is handed back as it is.
      expect(await store.answer(ALICE, run.id, { format: 'docx' })).toEqual(working);
      expect(await store.steps(run.id)).toHaveLength(2);
    });

    it("answers another owner's run, or a finished one, without recording anything", async () => {
      const store = await open();
      const run = await store.create(report());
      const asking = await store.update(run.id, { status: 'input_required', inputRequests: { q: {} } });
      expect(await store.answer(BOB, run.id, { q: 1 })).toBeUndefined();
      expect(await store.get(ALICE, run.id)).toEqual(asking);
      const cancelled = await store.cancel(ALICE, run.id);
      expect(await store.answer(ALICE, run.id, { q: 1 })).toEqual(cancelled);
      expect(await store.steps(run.id)).toEqual([]);
    });

    it('records a round of answers whole or not at all', async () => {
      const store = await open();
      const run = await store.create(report());
      const asking = await store.update(run.id, {
        status: 'input_required',
        inputRequests: { a: {}, b: {} },
      });
      const refused = store.answer(ALICE, run.id, { a: 'fine', b: 'x'.repeat(MAX_RUN_JSON_BYTES) });
      await expect(refused).rejects.toThrow('MAX_RUN_JSON_BYTES');
      await expect(store.answer(ALICE, run.id, [] as unknown as Record<string, unknown>)).rejects.toThrow(
        'Input responses must be a JSON object',
      );
      expect(await store.get(ALICE, run.id)).toEqual(asking);
      expect(await store.steps(run.id)).toEqual([]);
    });

    it('takes each question once when racing stores answer them', async () => {
      const stores = [await open(), await open()];
      const run = await stores[0]?.create(report());
      if (!run) throw new Error('no run');
      const keys = ['a', 'b', 'c', 'd'];
      await stores[0]?.update(run.id, {
        status: 'input_required',
        inputRequests: Object.fromEntries(keys.map((k) => [k, {}])),
      });
      await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          stores[i % 2]?.answer(ALICE, run.id, { [keys[i % 4] ?? 'a']: i }),
        ),
      );
      expect(await stores[1]?.get(ALICE, run.id)).toMatchObject({ status: 'working', inputRequests: null });
      const steps = (await stores[1]?.steps(run.id)) ?? [];
      expect(steps.map((step) => step.key).sort()).toEqual(keys.map((k) => `input:${k}`));
      // The first answer of each question won: the racer that got there first (i % 4 is the key).
      for (const step of steps) expect(Number(step.value) % 4).toBe(keys.indexOf(step.key.slice(6)));
    });

    it('records steps in order, keeps the first value of a key, and reads them back as JSON', async () => {
      const store = await open();
      const run = await store.create(report());
      const other = await store.create(report());
      const values: Array<[string, unknown]> = [
        ['fetch:b', { rows: [1, 2] }],
        ['fetch:a', 'text with ünïcödé 😀'],
        ['count', 42],
        ['nothing', null],
        ['list', [true, false]],
      ];
      for (const [key, value] of values) expect(await store.saveStep(run.id, key, value)).toBe(true);
      expect(await store.saveStep(run.id, 'count', 43)).toBe(true);
      expect(await store.saveStep(other.id, 'count', 7)).toBe(true);
      expect(await store.steps(run.id)).toEqual(values.map(([key, value]) => ({ key, value })));
      expect(await store.steps(other.id)).toEqual([{ key: 'count', value: 7 }]);
    });

    it('records a step only while the run is working', async () => {
      const store = await open();
      const run = await store.create(report());
      await store.update(run.id, { status: 'input_required' });
      expect(await store.saveStep(run.id, 'a', 1)).toBe(false);
      await store.update(run.id, { status: 'working' });
      expect(await store.saveStep(run.id, 'a', 1)).toBe(true);
      await store.cancel(ALICE, run.id);
      expect(await store.saveStep(run.id, 'b', 2)).toBe(false);
      // A key recorded before counts as recorded no more once the run stopped: the caller stops.
      expect(await store.saveStep(run.id, 'a', 1)).toBe(false);
      expect(await store.steps(run.id)).toEqual([{ key: 'a', value: 1 }]);
    });

    it.each<[string, (store: RunStore, run: TaskRecord) => Promise<unknown>, string]>([
      [
        'arguments over 1 MiB',
        (s) => s.create({ ...report(), arguments: { a: 'x'.repeat(MAX_RUN_JSON_BYTES) } }),
        'MAX_RUN_JSON_BYTES',
      ],
      [
        'caller over 1 MiB',
        (s) => s.create({ ...report(), caller: { a: 'x'.repeat(MAX_RUN_JSON_BYTES) } }),
        'MAX_RUN_JSON_BYTES',
      ],
      [
        'arguments that are an array',
        (s) => s.create({ ...report(), arguments: [] as unknown as Record<string, unknown> }),
        'JSON object',
      ],
      ['arguments with a BigInt', (s) => s.create({ ...report(), arguments: { n: 1n } }), 'must be JSON'],
      ['an empty tool name', (s) => s.create({ ...report(), tool: '' }), 'tool must be'],
      [
        'a tool name of 129 characters',
        (s) => s.create({ ...report(), tool: 't'.repeat(129) }),
        'tool must be',
      ],
      ['an owner too long', (s) => s.create(report('o'.repeat(MAX_OWNER_LENGTH + 1))), 'owner must be'],
      ['a TTL of 0', (s) => s.create({ ...report(), ttlMs: 0 }), 'ttlMs must be'],
      ['a TTL past the bound', (s) => s.create({ ...report(), ttlMs: MAX_RUN_TTL_MS + 1 }), 'ttlMs must be'],
      [
        'a fractional poll interval',
        (s) => s.create({ ...report(), pollIntervalMs: 1.5 }),
        'pollIntervalMs must be',
      ],
      [
        'a result over 1 MiB',
        (s, r) => s.update(r.id, { status: 'completed', result: { a: 'x'.repeat(MAX_RUN_JSON_BYTES) } }),
        'MAX_RUN_JSON_BYTES',
      ],
      [
        'a step value of 1 MiB + 1 byte',
        (s, r) => s.saveStep(r.id, 'big', 'x'.repeat(MAX_RUN_JSON_BYTES - 1)),
        'MAX_RUN_JSON_BYTES',
      ],
      ['a step value that is undefined', (s, r) => s.saveStep(r.id, 'u', undefined), 'must be a JSON value'],
      ['an empty step key', (s, r) => s.saveStep(r.id, '', 1), 'step key must be'],
      ['a step key of 257 characters', (s, r) => s.saveStep(r.id, 'k'.repeat(257), 1), 'step key must be'],
    ])('refuses %s with a clear Error and stores nothing', async (_what, act, message) => {
      const store = await open();
      const run = await store.create(report());
      await expect(act(store, run)).rejects.toThrow(message);
      expect(await unfinishedIds(store)).toEqual([run.id]);
      expect(await store.load(run.id)).toEqual(run);
      expect(await store.steps(run.id)).toEqual([]);
    });

    it('takes a step value of exactly 1 MiB of JSON', async () => {
      const store = await open();
      const run = await store.create(report());
      const value = 'x'.repeat(MAX_RUN_JSON_BYTES - 2);
      expect(await store.saveStep(run.id, 'max', value)).toBe(true);
      expect((await store.steps(run.id))[0]?.value).toBe(value);
    });

    it("refuses a step past the run's bounds on count and bytes, with the same Error", async () => {
      const store = await open({ maxSteps: 3, maxStepsBytes: 20 });
      const run = await store.create(report());
      for (const key of ['a', 'b', 'c']) expect(await store.saveStep(run.id, key, 1)).toBe(true);
      await expect(store.saveStep(run.id, 'd', 1)).rejects.toThrow('at most 3 steps');
      // A key already recorded is still "recorded", bound or not.
      expect(await store.saveStep(run.id, 'a', 1)).toBe(true);
      const heavy = await store.create(report());
      expect(await store.saveStep(heavy.id, 'a', 'x'.repeat(16))).toBe(true);
      await expect(store.saveStep(heavy.id, 'b', 'xx')).rejects.toThrow('20 bytes');
      expect(await store.steps(heavy.id)).toHaveLength(1);
    });

    it("refuses a new run past its owner's cap on active runs: working and input_required, live, that owner's only", async () => {
      const store = await open();
      const first = await store.createWithin(report(ALICE), 3);
      const asking = await store.createWithin(report(ALICE), 3);
      const third = await store.createWithin(report(ALICE), 3);
      await store.update(asking?.id as string, { status: 'input_required', inputRequests: { q: {} } });
      // Three active (one of them waiting for input): the fourth is refused, and nothing is stored.
      expect(await store.createWithin(report(ALICE), 3)).toBeUndefined();
      expect(new Set(await unfinishedIds(store))).toEqual(new Set([first?.id, asking?.id, third?.id]));
      // Another owner has a cap of their own.
      expect(await store.createWithin(report(BOB), 3)).toMatchObject({ owner: BOB, status: 'working' });
      // A finished, failed or cancelled run frees its place; `create` itself knows no cap.
      await store.update(first?.id as string, { status: 'completed', result: {} });
      const fourth = await store.createWithin(report(ALICE), 3);
      expect(fourth).toMatchObject({ owner: ALICE, status: 'working' });
      expect(await store.createWithin(report(ALICE), 3)).toBeUndefined();
      await store.cancel(ALICE, fourth?.id as string);
      expect(await store.createWithin(report(ALICE), 3)).toBeDefined();
      expect(await store.create(report(ALICE))).toMatchObject({ status: 'working' });
      for (const cap of [0, -1, 1.5, Number.NaN, 10_001]) {
        await expect(store.createWithin(report(ALICE), cap), String(cap)).rejects.toThrow('maxActive');
      }
    });

    it('frees the places of expired runs for the cap', async () => {
      const store = await open();
      await store.createWithin({ ...report(ALICE), ttlMs: 1_000 }, 1);
      expect(await store.createWithin(report(ALICE), 1)).toBeUndefined();
      clock.ms += 1_000;
      expect(await store.createWithin(report(ALICE), 1)).toMatchObject({ owner: ALICE });
    });

    it('keeps an owner at the cap when racing stores create at once', async () => {
      const stores = [await open(), await open()];
      const created = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => (stores[i % 2] as RunStore).createWithin(report(ALICE), 5)),
      );
      expect(created.filter((run) => run !== undefined)).toHaveLength(5);
      expect(await unfinishedIds(stores[0] as RunStore)).toHaveLength(5);
    });

    it('lists unfinished runs oldest first: working and input_required, live, of every owner', async () => {
      const store = await open();
      const first = await store.create(report(ALICE));
      clock.ms += 1;
      const second = await store.create(report(BOB));
      clock.ms += 1;
      const done = await store.create(report());
      clock.ms += 1;
      const asking = await store.create(report());
      await store.update(done.id, { status: 'completed', result: {} });
      await store.update(asking.id, { status: 'input_required' });
      expect(await store.unfinished()).toEqual([
        { id: first.id, owner: ALICE },
        { id: second.id, owner: BOB },
        { id: asking.id, owner: ALICE },
      ]);
    });

    it('keeps runs and steps when the store is closed and opened again', async () => {
      const first = await open();
      const run = await first.create(report());
      await first.saveStep(run.id, 'a', { kept: true });
      await first.close();
      const again = await open();
      expect(await again.load(run.id)).toEqual(run);
      expect(await again.steps(run.id)).toEqual([{ key: 'a', value: { kept: true } }]);
    });

    it('lets exactly one of many racing stores finish a run', async () => {
      const stores = [await open(), await open()];
      const run = await stores[0]?.create(report());
      if (!run) throw new Error('no run');
      const results = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          i % 3 === 0
            ? stores[i % 2]?.cancel(ALICE, run.id)
            : stores[i % 2]?.update(run.id, { status: 'completed', result: { by: i } }),
        ),
      );
      const final = await stores[1]?.load(run.id);
      const updates = results.filter((result, i) => i % 3 !== 0 && result !== undefined);
      // Every cancel answers with the run as it ended; at most one update won, and then no cancel did.
      expect(updates.length).toBeLessThanOrEqual(1);
      if (updates.length === 1) expect(updates[0]).toEqual(final);
      else expect(final?.status).toBe('cancelled');
      for (const [i, result] of results.entries()) if (i % 3 === 0) expect(result).toEqual(final);
    });

    it('keeps one value per key when racing stores record the same step', async () => {
      const stores = [await open(), await open()];
      const run = await stores[0]?.create(report());
      if (!run) throw new Error('no run');
      const saved = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => stores[i % 2]?.saveStep(run.id, 'contested', { by: i })),
      );
      expect(saved.every((answer) => answer === true)).toBe(true);
      const steps = await stores[1]?.steps(run.id);
      expect(steps).toHaveLength(1);
      expect(steps?.[0]?.key).toBe('contested');
    });
  });
}
