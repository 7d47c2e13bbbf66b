/**
 * @module line-reader
 * Every line that reaches `pnpm chat` on stdin, typed or piped, kept in order from the moment the
 * CLI starts: a line that arrives while nothing is asking (start-up, a running turn) waits for the
 * next question instead of being dropped. Its readers: `chat.ts` and `terminal-input.ts`.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * A person types a few lines ahead; a piped file may hold thousands. Past this many unread lines
 * the reader stops reading its input until some are taken, so memory stays bounded.
 */
export const MAX_QUEUED_LINES = 64;

export interface LineReader {
  /** Shows `prompt`, then resolves with the next line (no newline), or `undefined` once the input has ended. */
  next(prompt: string): Promise<string | undefined>;
  close(): void;
}

export interface LineReaderOptions {
  input: Readable;
  output: Writable;
  /**
   * A terminal: readline edits and echoes what is typed. Otherwise (a pipe) nothing echoes, so each
   * line is written after its prompt and the transcript reads as a conversation.
   */
  terminal: boolean;
  /**
   * A terminal's Ctrl-C, which the line editor catches before the process sees it. Without this,
   * Ctrl-C ends the input.
   */
  onInterrupt?: () => void;
}

export function createLineReader({ input, output, terminal, onInterrupt }: LineReaderOptions): LineReader {
  const rl = createInterface({ input, output, terminal });
  if (onInterrupt) rl.on('SIGINT', onInterrupt);
  const queued: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let ended = false;

  rl.on('line', (line) => {
    const take = waiting;
    waiting = undefined;
    if (take) return take(line);
    queued.push(line);
    if (queued.length >= MAX_QUEUED_LINES) rl.pause();
  });
  rl.on('close', () => {
    ended = true;
    const take = waiting;
    waiting = undefined;
    take?.(undefined);
  });

  return {
    next(prompt) {
      if (waiting) return Promise.reject(new Error('LineReader.next: the previous question is still open'));
      const line = queued.shift();
      if (line !== undefined) {
        // Typed ahead or piped: shown after the prompt it answers, wherever it was first echoed.
        output.write(`${prompt}${line}\n`);
        if (!ended && queued.length < MAX_QUEUED_LINES) rl.resume();
        return Promise.resolve(line);
      }
      if (ended) {
        // The question still shows, so a transcript says what the end of input left unanswered.
        output.write(`${prompt}\n`);
        return Promise.resolve(undefined);
      }
      return new Promise((resolve) => {
        waiting = (next) => {
          if (next === undefined || !terminal) output.write(`${next ?? ''}\n`);
          resolve(next);
        };
        rl.setPrompt(prompt);
        rl.prompt(true);
      });
    },
    close() {
      rl.close();
    },
  };
}
