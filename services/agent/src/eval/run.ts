/**
 * @module eval/run
 * Runs eval cases through the agent's own loop (`createAgent`): the same function names, strict
 * schemas and result handling as `pnpm ask`. Each attempt is a new conversation; the tools really
 * run, against whatever server the agent is connected to (the launcher gives `pnpm eval` a fresh
 * one with a temporary database).
 */
import type { Agent } from '../loop.js';
import type { EvalCase } from './cases.js';
import { judge, seenCalls, type Verdict } from './judge.js';
import type { ModelRecorder, ModelUse } from './recorder.js';

/** More failures of the model endpoint itself than this, and the run stops: the rest would fail the same way. */
export const MAX_MODEL_ERRORS = 3;

export interface Attempt {
  verdict: Verdict;
  latencyMs: number;
  use: ModelUse;
  /** The agent's final answer, for reading a case that went wrong. */
  answer: string;
  /** Set when the turn itself failed (the model endpoint, a timeout): the attempt counts as failed. */
  error?: string;
}

export interface CaseResult {
  evalCase: EvalCase;
  attempts: Attempt[];
  /** Passed in more than half its attempts (with one attempt: passed). */
  pass: boolean;
  /** Passed in at least one attempt. */
  passAtN: boolean;
}

export interface RunOptions {
  agent: Pick<Agent, 'ask' | 'reset'>;
  recorder: ModelRecorder;
  /** Attempts per case; above 1 for real models, whose choices vary. */
  repeat: number;
  /** Cases asked at once. */
  concurrency: number;
  signal?: AbortSignal;
  /** Told as each case finishes, for a progress line. */
  onCase?: (result: CaseResult, done: number, total: number) => void;
}

export class ModelUnavailableError extends Error {}

export async function runCases(cases: readonly EvalCase[], options: RunOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  let modelErrors = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const evalCase = cases[index] as EvalCase;
      const attempts: Attempt[] = [];
      for (let attempt = 0; attempt < options.repeat; attempt++) {
        options.signal?.throwIfAborted();
        const result = await attemptCase(evalCase, options);
        if (result.error !== undefined && ++modelErrors > MAX_MODEL_ERRORS)
          throw new ModelUnavailableError(
            `stopped after ${modelErrors} failed turns; the last, on ${evalCase.id}: ${result.error}`,
          );
        attempts.push(result);
      }
      const passes = attempts.filter((attempt) => attempt.verdict.pass).length;
      results[index] = { evalCase, attempts, pass: passes * 2 > attempts.length, passAtN: passes > 0 };
      options.onCase?.(results[index], ++done, cases.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, cases.length)) }, worker));
  return results;
}

async function attemptCase(evalCase: EvalCase, { agent, recorder, signal }: RunOptions): Promise<Attempt> {
  const started = performance.now();
  const conversationId = `eval-${evalCase.id}-${Math.random().toString(36).slice(2)}`;
  try {
    const { value: turn, use } = await recorder.measure(() =>
      agent.ask(evalCase.question, { conversationId, ...(signal && { signal }) }),
    );
    return {
      verdict: judge(evalCase, seenCalls(turn.toolCalls)),
      latencyMs: Math.round(performance.now() - started),
      use,
      answer: turn.answer,
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      verdict: {
        pass: false,
        chosen: [],
        arguments: [],
        argsOk: false,
        problems: [`the turn failed: ${message}`],
      },
      latencyMs: Math.round(performance.now() - started),
      use: { requests: 0 },
      answer: '',
      error: message,
    };
  } finally {
    agent.reset(conversationId);
  }
}
