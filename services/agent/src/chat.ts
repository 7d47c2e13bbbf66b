/**
 * @module chat
 * The `pnpm chat` conversation: answers each line from a `LineReader` in the order it came, with
 * streamed answers and a trace of every tool call, until `/exit` or the end of the input. Its
 * entry file is `cli.ts`; the tests drive it through the built CLI (`cli.test.ts`).
 */
import { formatServerLog, formatTaskUpdate, formatToolCall } from './format.js';
import type { Interrupter } from './interrupt.js';
import type { LineReader } from './line-reader.js';
import type { Agent } from './loop.js';

/** The HTTP API's bound on one message (`MAX_MESSAGE_CHARS` in `http.ts`): a runaway paste is not a question. */
export const MAX_QUESTION_CHARS = 8_000;

export interface ChatOptions {
  agent: Agent;
  lines: LineReader;
  /** Where the answers go, as they stream. */
  write: (text: string) => void;
  /** Ctrl-C: stops the running answer, and any task it waits on. */
  interrupter?: Interrupter;
}

/** Resolves when the person types /exit (or /quit) or the input ends. */
export async function runChat({ agent, lines, write, interrupter }: ChatOptions): Promise<void> {
  let conversationId: string | undefined;
  let calls = 0;
  for (;;) {
    const line = (await lines.next('you> '))?.trim();
    if (line === undefined || line === '/exit' || line === '/quit') return;
    if (line === '/new') {
      conversationId = undefined;
      write('(new conversation)\n');
      continue;
    }
    if (!line) continue;
    if (line.length > MAX_QUESTION_CHARS) {
      write(`(not sent: the message is ${line.length} characters; at most ${MAX_QUESTION_CHARS} fit)\n\n`);
      continue;
    }
    write('assistant> ');
    let streamed = false;
    const signal = interrupter?.begin();
    const result = await agent
      .ask(line, {
        conversationId,
        ...(signal && { signal }),
        events: {
          onTextDelta: (delta) => {
            streamed = true;
            write(delta);
          },
          // A task can take a while: each new status shows at once, the whole call when it ends.
          onToolTask: (_id, task) => write(`\n${formatTaskUpdate(task)}`),
          onToolEnd: (trace) => {
            write(`\n${formatToolCall(trace, calls++)}\nassistant> `);
          },
        },
      })
      .catch((error: unknown) => {
        const why = signal?.aborted
          ? '(cancelled with Ctrl-C: the agent sent tasks/cancel for any task it was waiting on)'
          : error instanceof Error
            ? error.message
            : String(error);
        write(`\n${why}\n`);
        return undefined;
      })
      .finally(() => interrupter?.end());
    if (!result) continue;
    conversationId = result.conversationId;
    if (!streamed || result.stoppedBecause === 'max_rounds') write(result.answer);
    // Logs the server sent during the turn that belong to no single call (2025 sessions, stdio).
    for (const log of result.serverLogs) write(`\n${formatServerLog(log)}`);
    write('\n\n');
  }
}
