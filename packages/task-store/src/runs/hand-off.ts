/**
 * @module runs/hand-off
 * What both run queues share: why a handler's signal aborts, how often a failing handler is tried,
 * and what a run becomes once the queue gives up on it. Used by `in-process-queue.ts` and
 * `pg-boss-queue.ts`.
 */
import type { Logger } from '../logger.js';
import type { RunStore } from './types.js';

/**
 * The one handler a queue runs: `'continue'` asks for another turn, `'done'` for none. `yieldSignal`
 * aborts when the queue wants the slot back for another owner: the handler should end its turn at
 * its next step with `'continue'`, losing nothing (unlike `signal`, which means stop at once).
 */
export type RunHandler = (
  id: string,
  signal: AbortSignal,
  yieldSignal: AbortSignal,
) => Promise<'done' | 'continue'>;

/**
 * The reason a run's signal aborts: the queue is handing the run on, to a later turn or another
 * replica. The handler should stop where it is and return `'continue'` (throwing works too): steps
 * it saved are kept, and whoever runs it next replays them.
 */
export class RunHandOffError extends Error {
  constructor(
    /** `stopping`: this process is shutting down. `slice-over`: the turn ran as long as a job may. */
    readonly why: 'stopping' | 'slice-over',
  ) {
    super(why === 'stopping' ? 'The run queue is stopping.' : "The run's turn is over.");
    this.name = new.target.name;
  }
}

/** Runs one process works on at once: long tool calls mostly wait on I/O, but each holds memory and connections. */
export const RUN_CONCURRENCY = 4;

/** How long `stop()` waits for handlers to return after their signals aborted; a handler that ignores its signal does not hold a shutdown for longer. */
export const STOP_GRACE_MS = 10_000;

/**
 * Retries after a handler throws (not counting a throw after its signal aborted). A handler that
 * throws four times in a row is broken, or its run is: retrying more only hides it.
 */
export const RUN_RETRY_LIMIT = 3;

/** What the client sees of a run the queue gave up on: JSON-RPC's internal error, no internals. */
export const GAVE_UP_ERROR = {
  code: -32603,
  message: `The server could not finish this task: its worker failed ${RUN_RETRY_LIMIT + 1} times in a row.`,
} as const;

/** Marks the run failed after its last retry; a run already finished stays as it is. */
export async function giveUp(store: RunStore, id: string, error: unknown, logger: Logger): Promise<void> {
  logger.error({ err: error, run: id }, 'a run failed on every retry; marking it failed');
  try {
    await store.update(id, { status: 'failed', error: { ...GAVE_UP_ERROR } });
  } catch (updateError) {
    // The run stays as it was; the next start picks it up again.
    logger.error({ err: updateError, run: id }, 'could not mark a run failed');
  }
}
