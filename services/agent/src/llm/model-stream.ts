/**
 * @module llm/model-stream
 * Reads a streamed model answer with bounds on both waits and size, for both providers
 * (`openai-chat.ts`, `openai-responses.ts`). Errors from the API become `ModelError`s; errors
 * thrown by the caller's `onTextDelta` pass through untouched. Test: `openai-providers.test.ts`.
 */

import type OpenAI from 'openai';
import { ModelAbortedError, outputTooLongError, stalledStreamError, toModelError } from './errors.js';
import type { ModelDescription, ModelRequest } from './provider.js';

/**
 * A local model on a CPU can take a minute or two to read a long prompt before its first token;
 * three minutes of silence means it is stuck, not thinking.
 */
export const MODEL_STREAM_IDLE_TIMEOUT_MS = 180_000;

/** Text plus tool arguments in one turn. A real answer is a few kB; a model stuck in a loop is not. */
export const MAX_TURN_OUTPUT_CHARS = 1_000_000;

/** What the `openai` client returns for `stream: true`: items, plus the controller that cancels the request. */
export interface AbortableStream<T> extends AsyncIterable<T> {
  controller: AbortController;
}

export interface StreamReading<T> {
  model: ModelDescription;
  request: ModelRequest;
  open(): Promise<AbortableStream<T>>;
  /** Folds one item into the turn; returns answer text to forward, if any. May throw a `ModelError`. */
  onItem(item: T): string | undefined;
  /** Characters of text and tool arguments so far, checked against {@link MAX_TURN_OUTPUT_CHARS}. */
  outputLength(): number;
  idleTimeoutMs?: number;
}

/** Reads the whole stream; resolves when it ends, rejects with a `ModelError` (or the callback's own error). */
export async function readModelStream<T>(reading: StreamReading<T>): Promise<void> {
  const { model, request } = reading;
  const idleMs = reading.idleTimeoutMs ?? MODEL_STREAM_IDLE_TIMEOUT_MS;
  let stream: AbortableStream<T>;
  try {
    stream = await reading.open();
  } catch (error) {
    throw toModelError(error, model);
  }

  const iterator = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await nextWithin(iterator, idleMs, () => stream.controller.abort());
      } catch (error) {
        throw error === STALLED ? stalledStreamError(model, idleMs) : toModelError(error, model);
      }
      if (next.done) break;
      const text = reading.onItem(next.value);
      if (reading.outputLength() > MAX_TURN_OUTPUT_CHARS) {
        throw outputTooLongError(model, MAX_TURN_OUTPUT_CHARS);
      }
      if (text) request.onTextDelta?.(text);
    }
    finished = true;
  } finally {
    if (!finished) {
      stream.controller.abort();
      // Lets the client's generator run its own clean-up; its outcome no longer matters.
      iterator.return?.().catch(() => undefined);
    }
  }
  // The client ends a stream quietly when its request is aborted, so a cancelled turn looks complete.
  if (request.signal?.aborted) throw new ModelAbortedError('The model request was cancelled.', model);
}

/** Marks the idle timer firing; never escapes this module. */
const STALLED: unique symbol = Symbol('stalled');

async function nextWithin<T>(
  iterator: AsyncIterator<T>,
  ms: number,
  onStalled: () => void,
): Promise<IteratorResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(STALLED), ms);
  });
  const pending = iterator.next();
  try {
    return await Promise.race([pending, stalled]);
  } catch (error) {
    if (error === STALLED) {
      pending.catch(() => undefined);
      onStalled();
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** What both OpenAI providers (Chat Completions and Responses) are built from. */
export interface OpenAIProviderOptions {
  client: OpenAI;
  description: ModelDescription;
  /** Overrides `MODEL_STREAM_IDLE_TIMEOUT_MS`; tests use a short one. */
  idleTimeoutMs?: number;
  /** Chat Completions only: ask for a last chunk with token usage (see `ModelSettings.reportUsage`). */
  reportUsage?: boolean;
}
