/**
 * @module test-support/run-queue-fairness
 * How both run queues share their slots between owners, as a suite any backend registers
 * (`runs/backend-runs.test.ts`, SQLite's in-process queue and Postgres's pg-boss queue): a second
 * owner's run starts before the first owner's pile drains, and no owner is given more than half the
 * slots while another owner waits. Every assertion is about the order of starts, never about time.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NewTaskRecord, TaskQueue } from '@mcp-workshop/shared/tasks-port';
import { afterEach, describe, expect, it } from 'vitest';
import { RUN_CONCURRENCY } from '../runs/hand-off.js';
import type { RunStore } from '../runs/types.js';

/** What the suite needs of a backend: its runs, and a new queue over them at `RUN_CONCURRENCY`. */
export interface QueueUnderTest {
  runs: RunStore;
  queue: TaskQueue;
  close(): Promise<void>;
}

const ALICE = 'sub:alice';
const BOB = 'sub:bob';
/** A safety net for a loaded machine, never a bound the test measures. */
const WAIT_LIMIT_MS = 60_000;

const newRun = (owner: string): NewTaskRecord => ({
  owner,
  tool: 'generate_report',
  arguments: {},
  caller: {},
  ttlMs: 600_000,
  pollIntervalMs: 1_000,
});

async function until(check: () => boolean, what: string): Promise<void> {
  const began = Date.now();
  while (!check()) {
    if (Date.now() - began > WAIT_LIMIT_MS) throw new Error(`gave up waiting for ${what}`);
    await sleep(10);
  }
}

/** A gate every turn waits at until the test opens it; later turns pass straight through. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

export function describeRunQueueFairness(backend: string, openQueue: () => Promise<QueueUnderTest>): void {
  describe(`run queue fairness: ${backend}`, () => {
    const opened: QueueUnderTest[] = [];
    const open = async () => {
      const under = await openQueue();
      opened.push(under);
      return under;
    };
    afterEach(async () => {
      for (const under of opened.splice(0)) await under.close();
    });

    /** Queues `count` runs of `owner`, each durable before it is enqueued, as the runtime does. */
    const queueRuns = async ({ runs, queue }: QueueUnderTest, owner: string, count: number) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const run = await runs.create(newRun(owner));
        await queue.enqueue(run.id, owner);
        ids.push(run.id);
      }
      return ids;
    };

    it.each([12, 24])(
      "starts a second owner's run before the first owner's %i queued runs drain",
      async (count) => {
        const under = await open();
        const starts: string[] = [];
        const turnsWait = gate();
        await under.queue.start(async (id) => {
          starts.push(id);
          await turnsWait.opened;
          // Each run takes two turns, so a slice that ends rejoins a line too.
          return starts.filter((started) => started === id).length < 2 ? 'continue' : 'done';
        });
        const alice = await queueRuns(under, ALICE, count);
        // Every slot is taken by alice before bob asks: he arrives behind her whole pile.
        await until(() => starts.length === RUN_CONCURRENCY, "alice's first turns");
        const [bob] = await queueRuns(under, BOB, 1);
        turnsWait.open();
        await until(() => starts.length === 2 * (count + 1), 'every turn');
        const bobAt = starts.indexOf(bob as string);
        const aliceAfterBob = starts.slice(bobAt + 1).filter((id) => alice.includes(id)).length;
        console.warn(
          `${backend}: bob's run started as turn ${bobAt + 1} of ${starts.length}, with alice's ${count} runs queued before it; ${aliceAfterBob} of alice's turns started after it`,
        );
        // One of the first two slots that free up after bob joined is his; FIFO would make it turn count + 1.
        expect(bobAt).toBeLessThanOrEqual(RUN_CONCURRENCY + 1);
      },
      WAIT_LIMIT_MS * 2,
    );

    it(
      'asks a turn of an owner past half the slots to yield when another owner arrives',
      async () => {
        const under = await open();
        const owners = new Map<string, string>();
        const starts: string[] = [];
        const yielded: string[] = [];
        const turnsWait = gate();
        await under.queue.start(async (id, _signal, yieldSignal) => {
          starts.push(id);
          if (owners.get(id) === BOB) return 'done';
          // Alice's turns hold their slots until the test opens the gate, unless asked to yield.
          await Promise.race([turnsWait.opened, once(yieldSignal, 'abort')]);
          if (!yieldSignal.aborted) return 'done';
          yielded.push(id);
          return 'continue';
        });
        const enqueue = async (owner: string, count: number) => {
          const ids: string[] = [];
          for (let i = 0; i < count; i += 1) {
            const run = await under.runs.create(newRun(owner));
            owners.set(run.id, owner);
            await under.queue.enqueue(run.id, owner);
            ids.push(run.id);
          }
          return ids;
        };
        await enqueue(ALICE, 8);
        await until(() => starts.length === RUN_CONCURRENCY, "alice's first turns");
        const [bob] = await enqueue(BOB, 1);
        // No turn of alice's ends on its own: bob starts only if the queue asks one to yield.
        await until(() => starts.includes(bob as string), "bob's turn, while alice's turns hold");
        expect(yielded).toHaveLength(1);
        turnsWait.open();
        await until(() => new Set(starts).size === 9, 'every run');
      },
      WAIT_LIMIT_MS * 2,
    );

    it(
      'never gives one owner more than half the slots while another owner waits',
      async () => {
        const under = await open();
        const share = RUN_CONCURRENCY / 2;
        const owners = new Map<string, string>();
        const waiting = new Set<string>();
        /** Turns running now, oldest first, each with what ends it. */
        const active: Array<{ id: string; end: () => void; ended: Promise<void> }> = [];
        const overShare: string[] = [];
        const heldBy = (owner: string) => active.filter((turn) => owners.get(turn.id) === owner).length;
        await under.queue.start(async (id) => {
          const owner = owners.get(id) ?? 'unknown';
          waiting.delete(id);
          const before = heldBy(owner);
          if (before >= share && [...waiting].some((other) => owners.get(other) !== owner))
            overShare.push(`${owner} held ${before} of ${RUN_CONCURRENCY} while another owner waited`);
          let end!: () => void;
          const ended = new Promise<void>((resolve) => {
            end = resolve;
          });
          const turn = { id, end, ended };
          active.push(turn);
          await ended;
          active.splice(active.indexOf(turn), 1);
          return 'done';
        });
        const enqueue = async (owner: string, count: number) => {
          for (let i = 0; i < count; i += 1) {
            const run = await under.runs.create(newRun(owner));
            owners.set(run.id, owner);
            waiting.add(run.id);
            await under.queue.enqueue(run.id, owner);
          }
        };
        await enqueue(ALICE, 10);
        // Alice alone was waiting, so she may take every slot; from here on bob waits too.
        await until(() => heldBy(ALICE) === RUN_CONCURRENCY, "alice's first turns");
        await enqueue(BOB, 10);
        // Turns end one at a time, each once the queue has filled every slot it can: so each start
        // below is the queue's choice for one freed slot, with both owners' runs before it.
        while (active.length > 0) {
          const oldest = active[0] as (typeof active)[number];
          oldest.end();
          await until(() => !active.includes(oldest), 'a turn to end');
          await until(
            () => active.length === Math.min(RUN_CONCURRENCY, active.length + waiting.size),
            'the queue to fill the slot',
          );
        }
        expect(waiting.size).toBe(0);
        expect(overShare).toEqual([]);
      },
      WAIT_LIMIT_MS * 2,
    );
  });
}
