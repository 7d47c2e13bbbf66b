import { describe, expect, it } from 'vitest';
import type { ModelProvider, ModelRequest } from '../llm/provider.js';
import type { AskOptions } from '../loop.js';
import type { ToolCallTrace, TurnResult } from '../trace.js';
import type { EvalCase } from './cases.js';
import { createModelRecorder } from './recorder.js';
import { MAX_MODEL_ERRORS, ModelUnavailableError, runCases } from './run.js';

const cases: EvalCase[] = ['a', 'b', 'c', 'd', 'e'].map((name) => ({
  id: `${name}#1`,
  file: 'x.eval.yaml',
  question: `use ${name}`,
  steps: [{ tool: name, args: {} }],
}));

const model: ModelProvider = {
  description: { kind: 'custom', model: 'm', baseUrl: 'http://x/v1', api: 'chat', label: 'm' },
  complete: async (request: ModelRequest) => ({
    text: '',
    toolCalls: [],
    report: { inputTokens: request.messages.length * 10, outputTokens: 1 },
  }),
};

/** An agent whose "model" calls the tool its question names, through the recorded model. */
function fakeAgent(choose: (question: string, attempt: number) => string | Error) {
  const recorder = createModelRecorder();
  const wrapped = recorder.wrap(model);
  const asked = new Map<string, number>();
  const reset: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const agent = {
    reset: (id: string) => reset.push(id) > 0,
    async ask(question: string, options: AskOptions = {}): Promise<TurnResult> {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const attempt = asked.get(question) ?? 0;
      asked.set(question, attempt + 1);
      await wrapped.complete({ messages: [{ role: 'user', content: question }], functions: [] });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await wrapped.complete({
        messages: [
          { role: 'user', content: question },
          { role: 'assistant', content: 'x' },
        ],
        functions: [],
      });
      inFlight -= 1;
      const tool = choose(question, attempt);
      if (tool instanceof Error) throw tool;
      const trace = { functionName: tool, tool, arguments: {} } as ToolCallTrace;
      return {
        answer: 'ok',
        conversationId: options.conversationId ?? '',
        toolCalls: [trace],
        rounds: 2,
        stoppedBecause: 'answer',
        serverLogs: [],
      };
    },
  };
  return { agent, recorder, reset, maxInFlight: () => maxInFlight };
}

describe('runCases', () => {
  it('judges every case, in order, with its tokens, at most `concurrency` at once, and forgets each conversation', async () => {
    const fake = fakeAgent((question) => (question === 'use c' ? 'a' : question.slice(4)));
    const seen: number[] = [];
    const results = await runCases(cases, {
      agent: fake.agent,
      recorder: fake.recorder,
      repeat: 1,
      concurrency: 2,
      onCase: (_result, done) => seen.push(done),
    });
    expect(results.map((result) => [result.evalCase.id, result.pass])).toEqual([
      ['a#1', true],
      ['b#1', true],
      ['c#1', false],
      ['d#1', true],
      ['e#1', true],
    ]);
    expect(results[2]?.attempts[0]?.verdict.problems).toEqual(['expected c, chose a']);
    // Two requests each: 10 + 20 input tokens, 1 + 1 output; the first request is kept for counting.
    expect(results[0]?.attempts[0]?.use).toMatchObject({ requests: 2, inputTokens: 30, outputTokens: 2 });
    expect(results[0]?.attempts[0]?.use.first?.messages).toHaveLength(1);
    expect(fake.maxInFlight()).toBe(2);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(fake.reset).toHaveLength(5);
  });

  it('asks each case `repeat` times; the majority decides, and pass@N counts any pass', async () => {
    const fake = fakeAgent((question, attempt) => (attempt === 1 ? 'wrong' : question.slice(4)));
    const [result] = await runCases(cases.slice(0, 1), {
      agent: fake.agent,
      recorder: fake.recorder,
      repeat: 3,
      concurrency: 1,
    });
    expect(result?.attempts.map((attempt) => attempt.verdict.pass)).toEqual([true, false, true]);
    expect(result).toMatchObject({ pass: true, passAtN: true });
  });

  it('records a failed turn as a failed case, and stops once the model keeps failing', async () => {
    const once = fakeAgent((question) => (question === 'use b' ? new Error('HTTP 500') : question.slice(4)));
    const results = await runCases(cases, {
      agent: once.agent,
      recorder: once.recorder,
      repeat: 1,
      concurrency: 1,
    });
    expect(results[1]?.attempts[0]).toMatchObject({
      error: 'HTTP 500',
      verdict: { pass: false, problems: ['the turn failed: HTTP 500'] },
    });
    expect(results.filter((result) => result.pass)).toHaveLength(4);

    const down = fakeAgent(() => new Error('connect ECONNREFUSED'));
    await expect(
      runCases(cases, { agent: down.agent, recorder: down.recorder, repeat: 1, concurrency: 1 }),
    ).rejects.toThrow(ModelUnavailableError);
    expect(down.reset.length).toBe(MAX_MODEL_ERRORS + 1);
  });

  it('stops when aborted', async () => {
    const fake = fakeAgent((question) => question.slice(4));
    const controller = new AbortController();
    controller.abort();
    await expect(
      runCases(cases, {
        agent: fake.agent,
        recorder: fake.recorder,
        repeat: 1,
        concurrency: 1,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });
});
