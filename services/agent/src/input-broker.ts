/**
 * @module input-broker
 * Brings a tool's request for input (MCP elicitation) to the chat page. `handler` is the
 * `InputHandler` given to `startRuntime({ onInput })`: it gives the request an id, tells every
 * open chat stream (`subscribe`), and waits until the page answers (`answer`) or the time runs
 * out. With no page listening there is nobody to ask, so it declines at once.
 */
import { randomUUID } from 'node:crypto';
import type { InputAnswer, InputHandler, InputRequest, JsonSchema } from './types.js';

/** How long a person may take to answer before the request is cancelled. */
/** Why the HTTP API answered for the person when no chat page was open to ask. */
export const NO_PAGE_NOT_ASKED = 'no chat page was open to ask you; open http://127.0.0.1:3001 and ask there';

export const INPUT_TIMEOUT_MS = 5 * 60_000;

export interface InputRequestEvent {
  id: string;
  server: string;
  message: string;
  schema: JsonSchema;
}

export type InputListener = (event: InputRequestEvent) => void;

export interface InputBroker {
  handler: InputHandler;
  /** Listens for new requests until the returned function is called. */
  subscribe(listener: InputListener): () => void;
  /** Settles a waiting request; false when the id is unknown, expired or already answered. */
  answer(id: string, answer: InputAnswer): boolean;
  /** How many requests are waiting for an answer. */
  pending(): number;
}

export interface InputBrokerOptions {
  timeoutMs?: number;
}

export function createInputBroker(options: InputBrokerOptions = {}): InputBroker {
  const timeoutMs = options.timeoutMs ?? INPUT_TIMEOUT_MS;
  const listeners = new Set<InputListener>();
  const waiting = new Map<string, (answer: InputAnswer) => void>();

  const handler: InputHandler = (request: InputRequest) => {
    if (listeners.size === 0) return Promise.resolve({ action: 'decline', notAsked: NO_PAGE_NOT_ASKED });
    const id = randomUUID();
    return new Promise<InputAnswer>((resolve) => {
      const timer = setTimeout(() => settle({ action: 'cancel' }), timeoutMs);
      timer.unref?.();
      function settle(answer: InputAnswer): void {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer);
      }
      waiting.set(id, settle);
      const event: InputRequestEvent = {
        id,
        server: request.server,
        message: request.message,
        schema: request.schema,
      };
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // One broken stream must not keep the others from asking.
        }
      }
    });
  };

  return {
    handler,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    answer(id, answer) {
      const settle = waiting.get(id);
      if (!settle) return false;
      settle(answer);
      return true;
    },
    pending: () => waiting.size,
  };
}
