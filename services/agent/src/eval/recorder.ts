/**
 * @module eval/recorder
 * Wraps the model the agent's loop calls, so the eval learns what each case cost: how many
 * requests, the tokens the endpoint reported, and the first request as sent (its tool list is
 * what progressive discovery shrinks). Cases run concurrently, so each is measured in its own
 * async context rather than by a shared counter.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FunctionSpec, ModelProvider, ModelRequest } from '../llm/provider.js';

export interface ModelUse {
  requests: number;
  /** Summed over the requests; undefined when the endpoint reported no usage. */
  inputTokens?: number;
  outputTokens?: number;
  /** What the first request offered, for counting its tokens with a real tokenizer. */
  first?: { messages: ModelRequest['messages']; functions: FunctionSpec[] };
}

export interface ModelRecorder {
  /** Put between the endpoint and the loop (`startRuntime`'s `wrapModel`). */
  wrap(model: ModelProvider): ModelProvider;
  /** Runs `work`, and returns with its result what the model calls inside it cost. */
  measure<T>(work: () => Promise<T>): Promise<{ value: T; use: ModelUse }>;
}

export function createModelRecorder(): ModelRecorder {
  const current = new AsyncLocalStorage<ModelUse>();
  return {
    wrap: (model) => ({
      description: model.description,
      async complete(request) {
        const use = current.getStore();
        if (use && use.requests === 0)
          use.first = { messages: request.messages, functions: request.functions };
        const turn = await model.complete(request);
        if (use) {
          use.requests += 1;
          const { inputTokens, outputTokens } = turn.report ?? {};
          if (inputTokens !== undefined) use.inputTokens = (use.inputTokens ?? 0) + inputTokens;
          if (outputTokens !== undefined) use.outputTokens = (use.outputTokens ?? 0) + outputTokens;
        }
        return turn;
      },
    }),
    async measure(work) {
      const use: ModelUse = { requests: 0 };
      const value = await current.run(use, work);
      return { value, use };
    },
  };
}
