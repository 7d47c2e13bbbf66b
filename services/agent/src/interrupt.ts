/**
 * @module interrupt
 * Ctrl-C in the CLI: the first press stops the running question (its signal aborts, so the hub
 * sends `tasks/cancel` for any task it waits on), a press with no question running, or a second
 * press, means "leave". `cli.ts` feeds it the process's SIGINT and the line editor's. Test:
 * `interrupt.test.ts`.
 */

export interface Interrupter {
  /** A signal for the question about to run: Ctrl-C while it runs aborts it. */
  begin(): AbortSignal;
  /** The question is over, answered or not. */
  end(): void;
  /** One Ctrl-C. */
  interrupt(): void;
}

/** The reason a question's signal carries: shown to the person, and read by the loop's callers. */
export class InterruptedError extends Error {
  constructor() {
    super('Cancelled with Ctrl-C.');
    this.name = new.target.name;
  }
}

/**
 * `leave` runs on a Ctrl-C that has no question left to stop: `stopping` is true when one is still
 * winding down (the person pressed twice), false when none runs.
 */
export function createInterrupter(leave: (stopping: boolean) => void): Interrupter {
  let running: AbortController | undefined;
  return {
    begin() {
      running = new AbortController();
      return running.signal;
    },
    end() {
      running = undefined;
    },
    interrupt() {
      if (running && !running.signal.aborted) running.abort(new InterruptedError());
      else leave(running !== undefined);
    },
  };
}
