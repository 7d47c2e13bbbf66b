/**
 * @module input-broker
 * Brings a tool's request for input (MCP elicitation) to the chat that asked for the turn, and to
 * no other. `handler` is the `InputHandler` given to `startRuntime({ onInput })`; the HTTP API runs
 * each turn through `runAs`, naming its caller and, for a chat stream, where to ask. The request
 * gets an unguessable id, goes to that stream alone, and only the same caller may `answer` it.
 * With nobody to ask it declines at once. Test: `input-broker.test.ts`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { InputAnswer, InputHandler, InputRequest, JsonSchema } from './types.js';

/** Why the HTTP API answered for the person when no chat page was open to ask. */
export const NO_PAGE_NOT_ASKED = 'no chat page was open to ask you; open http://127.0.0.1:3001 and ask there';
/** Why it answered when it could not tell which of several running chats the request came from. */
export const NO_OWNER_NOT_ASKED =
  'the agent could not tell which chat this request belongs to, so it asked nobody';

/** How long a person may take to answer before the request is cancelled. */
export const INPUT_TIMEOUT_MS = 5 * 60_000;

export interface InputRequestEvent {
  id: string;
  server: string;
  message: string;
  schema: JsonSchema;
}

export type InputListener = (event: InputRequestEvent) => void;

/** The turn a request for input belongs to: who runs it, and the open stream to ask on, if any. */
export interface Asker {
  /** The caller's id (`api-access.ts`): the only one who may answer. */
  caller: string;
  /** The turn's own chat stream; a turn without one (`POST /api/chat`) has nobody to ask. */
  listener?: InputListener;
}

export interface InputBroker {
  handler: InputHandler;
  /** Runs one turn as `asker`: the requests for input it raises go to `asker.listener` alone. */
  runAs<T>(asker: Asker, turn: () => Promise<T>): Promise<T>;
  /**
   * Settles a waiting request; false when the id is unknown, expired, already answered, or was
   * asked of another caller (the same answer for all, so a caller learns nothing of others' ids).
   */
  answer(id: string, answer: InputAnswer, caller: string): boolean;
  /** How many requests are waiting for an answer. */
  pending(): number;
}

export interface InputBrokerOptions {
  timeoutMs?: number;
}

interface Waiting {
  caller: string;
  settle: (answer: InputAnswer) => void;
}

export function createInputBroker(options: InputBrokerOptions = {}): InputBroker {
  const timeoutMs = options.timeoutMs ?? INPUT_TIMEOUT_MS;
  /**
   * The turn the running code works for. A request for input arrives on the response stream of
   * the `tools/call` that caused it, read in an async continuation of that call, so it carries
   * the turn's context (the same reasoning as `mcp/call-routing.ts`).
   */
  const currentTurn = new AsyncLocalStorage<Asker>();
  const running = new Set<Asker>();
  const waiting = new Map<string, Waiting>();

  /**
   * A request that came on no call's stream (stdio, or a 2025 server's GET stream) names no turn;
   * it is only given to a turn when that turn is the only one running. Anything else could show
   * one person's confirmation to another.
   */
  const askerOf = (): Asker | 'unknown' | undefined => {
    const own = currentTurn.getStore();
    if (own) return own;
    if (running.size === 1) return [...running][0];
    return running.size === 0 ? undefined : 'unknown';
  };

  const handler: InputHandler = (request: InputRequest) => {
    const asker = askerOf();
    if (asker === 'unknown') return Promise.resolve({ action: 'decline', notAsked: NO_OWNER_NOT_ASKED });
    const listener = asker?.listener;
    if (!asker || !listener) return Promise.resolve({ action: 'decline', notAsked: NO_PAGE_NOT_ASKED });
    const id = randomUUID();
    return new Promise<InputAnswer>((resolve) => {
      const timer = setTimeout(() => settle({ action: 'cancel' }), timeoutMs);
      timer.unref?.();
      function settle(answer: InputAnswer): void {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer);
      }
      waiting.set(id, { caller: asker.caller, settle });
      try {
        listener({ id, server: request.server, message: request.message, schema: request.schema });
      } catch {
        // The stream broke while asking: nobody will see the question.
        settle({ action: 'cancel' });
      }
    });
  };

  return {
    handler,
    async runAs(asker, turn) {
      running.add(asker);
      try {
        return await currentTurn.run(asker, turn);
      } finally {
        running.delete(asker);
      }
    },
    answer(id, answer, caller) {
      const entry = waiting.get(id);
      if (!entry || entry.caller !== caller) return false;
      entry.settle(answer);
      return true;
    },
    pending: () => waiting.size,
  };
}
