/**
 * @module runs/in-process-queue
 * `createInProcessRunQueue()`: the {@link TaskQueue} for SQLite, where one process owns the database
 * and so owns every run. Runs wait in memory, and nothing is lost by that: a run is durable in the
 * store before it is enqueued, and `start` enqueues every unfinished run again, so a restart
 * resumes whatever the last process left. Each owner waits in a line of its own, and free slots
 * go round the owners (`fair-share.ts`), so one owner's pile never starves another's. Its
 * multi-replica twin is `pg-boss-queue.ts`. Tests: `in-process-queue.test.ts`, and the fairness
 * suite in `backend-runs.test.ts`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TaskQueue } from '@mcp-workshop/shared/tasks-port';
import type { Logger } from '../logger.js';
import { ownerShare, pickTurns, turnsToYield } from './fair-share.js';
import {
  giveUp,
  RUN_CONCURRENCY,
  RUN_RETRY_LIMIT,
  type RunHandler,
  RunHandOffError,
  STOP_GRACE_MS,
} from './hand-off.js';
import type { RunStore } from './types.js';

/** A handler that threw waits this long before its next try: long enough for a blip to pass. */
export const RUN_RETRY_DELAY_MS = 1_000;

export interface InProcessRunQueueOptions {
  /** Where `start` finds the runs to resume, and where a run the queue gives up on is marked failed. */
  store: RunStore;
  logger: Logger;
  /** Handlers at once; defaults to {@link RUN_CONCURRENCY}. */
  concurrency?: number;
  /** Tests shorten these. */
  retryDelayMs?: number;
  stopGraceMs?: number;
}

interface Turn {
  owner: string;
  controller: AbortController;
  /** Aborted to ask the turn to end at its next step, so another owner gets the slot. */
  yielding: AbortController;
  /** Enqueued again while it ran: it gets another turn once this one ends. */
  again: boolean;
  done: Promise<void>;
}

export function createInProcessRunQueue({
  store,
  logger,
  concurrency = RUN_CONCURRENCY,
  retryDelayMs = RUN_RETRY_DELAY_MS,
  stopGraceMs = STOP_GRACE_MS,
}: InProcessRunQueueOptions): TaskQueue {
  let handler: RunHandler | undefined;
  let stopped = false;
  const share = ownerShare(concurrency);
  // Each owner's line, first in first out; each run at most once, never waiting and running at once.
  const lines = new Map<string, Array<{ id: string; since: number }>>();
  /** The owner of each waiting run. */
  const waiting = new Map<string, string>();
  let arrivals = 0;
  const running = new Map<string, Turn>();
  const heldBy = new Map<string, number>();
  const failures = new Map<string, number>();
  const retries = new Set<NodeJS.Timeout>();
  let pumping = false;

  const add = (id: string, owner: string): void => {
    if (!handler || stopped) return;
    const turn = running.get(id);
    if (turn) turn.again = true;
    else if (!waiting.has(id)) {
      waiting.set(id, owner);
      const line = lines.get(owner) ?? [];
      line.push({ id, since: arrivals++ });
      lines.set(owner, line);
    }
    schedulePump();
  };

  const hold = (owner: string, change: 1 | -1): void => {
    const held = (heldBy.get(owner) ?? 0) + change;
    if (held > 0) heldBy.set(owner, held);
    else heldBy.delete(owner);
  };

  // On the next turn of the event loop, so `enqueue` returns (and the caller answers its client) first.
  const schedulePump = (): void => {
    if (pumping) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      if (stopped) return;
      const candidates = [...lines].map(([owner, line]) => ({
        owner,
        waiting: line,
        heldHere: heldBy.get(owner) ?? 0,
      }));
      for (const id of pickTurns(candidates, concurrency - running.size, share)) {
        const owner = takeFromLine(id);
        if (owner !== undefined) startTurn(id, owner);
      }
      askToYield();
    });
  };

  /** Owners kept waiting while below their share get slots back from owners past theirs. */
  const askToYield = (): void => {
    const wanting = [...lines.keys()].filter((owner) => (heldBy.get(owner) ?? 0) < share).length;
    const turns = [...running.values()];
    const asks = turnsToYield(
      turns.map((turn) => ({ owner: turn.owner, asked: turn.yielding.signal.aborted })),
      wanting,
      share,
    );
    for (const at of asks) turns[at]?.yielding.abort();
  };

  /** Takes `id` out of its owner's line (it is at the front: `pickTurns` takes each line in order). */
  const takeFromLine = (id: string): string | undefined => {
    const owner = waiting.get(id);
    const line = owner === undefined ? undefined : lines.get(owner);
    if (owner === undefined || !line) return undefined;
    line.splice(
      line.findIndex((entry) => entry.id === id),
      1,
    );
    if (line.length === 0) lines.delete(owner);
    waiting.delete(id);
    return owner;
  };

  const startTurn = (id: string, owner: string): void => {
    const run = handler;
    if (!run) return;
    const controller = new AbortController();
    const yielding = new AbortController();
    const turn: Turn = { owner, controller, yielding, again: false, done: Promise.resolve() };
    running.set(id, turn);
    hold(owner, 1);
    turn.done = (async () => {
      try {
        if ((await run(id, controller.signal, yielding.signal)) === 'continue') turn.again = true;
        failures.delete(id);
      } catch (error) {
        // Aborted by stop(): the run stays as it is, and the next start resumes it.
        if (!controller.signal.aborted) await failed(id, owner, error);
      } finally {
        running.delete(id);
        hold(owner, -1);
        // A run's next slice rejoins its owner's line, not everyone's.
        if (turn.again) add(id, owner);
        schedulePump();
      }
    })();
  };

  const failed = async (id: string, owner: string, error: unknown): Promise<void> => {
    const count = (failures.get(id) ?? 0) + 1;
    if (count > RUN_RETRY_LIMIT) {
      failures.delete(id);
      await giveUp(store, id, error, logger);
      return;
    }
    failures.set(id, count);
    logger.warn({ err: error, run: id, attempt: count }, 'a run handler failed; trying it again shortly');
    const timer = setTimeout(() => {
      retries.delete(timer);
      add(id, owner);
    }, retryDelayMs);
    // A pending retry does not keep a finished process alive; the run is in the store either way.
    timer.unref();
    retries.add(timer);
  };

  return {
    async enqueue(id, owner) {
      // Before start or after stop this does nothing: the run is stored, and the next start resumes it.
      add(id, owner);
    },
    async start(runHandler) {
      if (handler || stopped) throw new Error('A run queue starts once; make a new one after stop().');
      handler = runHandler;
      try {
        for (const { id, owner } of await store.unfinished()) add(id, owner);
      } catch (error) {
        // The database was not there (busy, or still opening): the caller may start it again later.
        handler = undefined;
        throw error;
      }
    },
    async stop() {
      stopped = true;
      lines.clear();
      waiting.clear();
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      const turns = [...running.values()];
      for (const turn of turns) turn.controller.abort(new RunHandOffError('stopping'));
      const grace = new AbortController();
      const all = Promise.all(turns.map((turn) => turn.done)).then(() => 'returned' as const);
      const outcome = await Promise.race([
        all,
        sleep(stopGraceMs, 'late' as const, { signal: grace.signal }),
      ]);
      grace.abort();
      if (outcome === 'late') {
        logger.warn(
          { runs: [...running.keys()] },
          'run handlers ignored their abort signal; stopping without them',
        );
      }
    },
  };
}
