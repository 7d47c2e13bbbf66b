/**
 * @module eval/document
 * A run of `pnpm eval` as one JSON document (`--json`, `--save`): a record per case, per-tool
 * precision and recall, where the model went wrong, and the summary. The text report and the
 * comparison of two runs both read this, so what is printed and what is saved cannot disagree.
 */
import type { ModelDescription } from '../llm/provider.js';
import { describe } from './judge.js';
import type { Attempt, CaseResult } from './run.js';

export const EVAL_DOCUMENT_KIND = 'mcp-workshop-eval';

export interface CaseRecord {
  id: string;
  file: string;
  question: string;
  /** The first expected tool, or null for a "no tool" case; `expectedTools` has them all. */
  expected: string | null;
  expectedTools: string[];
  /** The first tool chosen in the first attempt, or null when the model called none. */
  chosen: string | null;
  chosenTools: string[];
  /** The arguments of each chosen step, first attempt. */
  arguments: unknown[];
  argsOk: boolean;
  pass: boolean;
  /** Attempts that passed, of `attempts`. */
  passes: number;
  attempts: number;
  problems: string[];
  /** Median over the attempts. */
  latencyMs: number;
  /** The endpoint's own count, summed over the first attempt's requests (absent when it reports none). */
  inputTokens?: number;
  outputTokens?: number;
  /** The first request (system prompt, question and offered tools) counted with the model's tokenizer. */
  firstRequestTokens?: number;
  /** How many functions the first request offered (with discovery: search_tools and what was found). */
  firstRequestFunctions: number;
  /** Model requests the first attempt took. */
  requests: number;
}

export interface ToolRecord {
  tool: string;
  /** Cases that expect it, the times it was chosen, and the times both held. */
  expected: number;
  chosen: number;
  correct: number;
  /** correct / chosen, null when it was never chosen. */
  precision: number | null;
  /** correct / expected, null when no case expects it. */
  recall: number | null;
}

export interface Confusion {
  expected: string;
  chosen: string;
  cases: string[];
}

export interface EvalDocument {
  kind: typeof EVAL_DOCUMENT_KIND;
  version: 1;
  startedAt: string;
  durationMs: number;
  model: Pick<ModelDescription, 'kind' | 'model' | 'baseUrl' | 'api' | 'label'>;
  /** Whether the agent offered `search_tools` instead of every tool. */
  discovery: boolean;
  repeat: number;
  cases: CaseRecord[];
  tools: ToolRecord[];
  confusion: Confusion[];
  /** Model-visible tools without a case, and with fewer than `MIN_CASES_PER_TOOL`. */
  coverage: { uncovered: string[]; thin: Array<{ tool: string; cases: number }>; unknown: string[] };
  summary: { passed: number; failed: number; total: number; passRate: number; passAtN: number };
}

/** Fewer cases than this for a tool is a thin net: one lucky question proves little. */
export const MIN_CASES_PER_TOOL = 3;

export interface DocumentInput {
  results: readonly CaseResult[];
  model: ModelDescription;
  discovery: boolean;
  repeat: number;
  startedAt: Date;
  durationMs: number;
  /** The model-visible tools of every connected server, for coverage. */
  offeredTools: readonly string[];
  /** The cases are a selection (--only): tools without one are left out on purpose, not reported. */
  selection?: boolean;
  /** Counts a first request with the model's tokenizer. */
  countFirstRequest?: (attempt: Attempt) => number | undefined;
}

export function buildDocument(input: DocumentInput): EvalDocument {
  const cases = input.results.map((result) => caseRecord(result, input.countFirstRequest));
  const passed = cases.filter((record) => record.pass).length;
  const { label, kind, model, baseUrl, api } = input.model;
  return {
    kind: EVAL_DOCUMENT_KIND,
    version: 1,
    startedAt: input.startedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    model: { kind, model, baseUrl, api, label },
    discovery: input.discovery,
    repeat: input.repeat,
    cases,
    tools: toolRecords(cases),
    confusion: confusions(cases),
    coverage: coverage(cases, input.offeredTools, input.selection ?? false),
    summary: {
      passed,
      failed: cases.length - passed,
      total: cases.length,
      passRate: cases.length === 0 ? 0 : passed / cases.length,
      passAtN: cases.filter((record) => record.passes > 0).length,
    },
  };
}

function caseRecord(result: CaseResult, count: DocumentInput['countFirstRequest']): CaseRecord {
  const { evalCase, attempts } = result;
  const first = attempts[0] as Attempt;
  const expectedTools = evalCase.steps.map((step) => step.tool);
  const latencies = attempts.map((attempt) => attempt.latencyMs).sort((a, b) => a - b);
  const firstRequestTokens = count?.(first);
  return {
    id: evalCase.id,
    file: evalCase.file,
    question: evalCase.question,
    expected: expectedTools[0] ?? null,
    expectedTools,
    chosen: first.verdict.chosen[0] ?? null,
    chosenTools: first.verdict.chosen,
    arguments: first.verdict.arguments,
    argsOk: first.verdict.argsOk,
    pass: result.pass,
    passes: attempts.filter((attempt) => attempt.verdict.pass).length,
    attempts: attempts.length,
    problems: [...new Set(attempts.flatMap((attempt) => attempt.verdict.problems))],
    latencyMs: latencies[Math.floor(latencies.length / 2)] ?? 0,
    ...(first.use.inputTokens !== undefined && { inputTokens: first.use.inputTokens }),
    ...(first.use.outputTokens !== undefined && { outputTokens: first.use.outputTokens }),
    ...(firstRequestTokens !== undefined && { firstRequestTokens }),
    firstRequestFunctions: first.use.first?.functions.length ?? 0,
    requests: first.use.requests,
  };
}

/** The row of "no tool" cases in the per-tool table: answering without a tool is a choice too. */
export const NO_TOOL = '(no tool)';

/** Per tool: a case counts for every tool it expects, and against every tool it chose and did not expect. */
function toolRecords(cases: readonly CaseRecord[]): ToolRecord[] {
  const tally = new Map<string, { expected: number; chosen: number; correct: number }>();
  const of = (tool: string) => {
    const entry = tally.get(tool) ?? { expected: 0, chosen: 0, correct: 0 };
    tally.set(tool, entry);
    return entry;
  };
  for (const record of cases) {
    const expected = new Set(record.expectedTools.length > 0 ? record.expectedTools : [NO_TOOL]);
    const chosen = new Set(record.chosenTools.length > 0 ? record.chosenTools : [NO_TOOL]);
    for (const tool of expected) {
      of(tool).expected += 1;
      if (chosen.has(tool)) of(tool).correct += 1;
    }
    for (const tool of chosen) of(tool).chosen += 1;
  }
  return [...tally]
    .map(([tool, { expected, chosen, correct }]) => ({
      tool,
      expected,
      chosen,
      correct,
      precision: chosen === 0 ? null : correct / chosen,
      recall: expected === 0 ? null : correct / expected,
    }))
    .sort((a, b) => a.tool.localeCompare(b.tool));
}

/** "Expected X, chose Y" with the cases where it happened, most frequent first. */
function confusions(cases: readonly CaseRecord[]): Confusion[] {
  const found = new Map<string, Confusion>();
  for (const record of cases) {
    const expected = describe(record.expectedTools);
    const chosen = describe(record.chosenTools);
    if (expected === chosen) continue;
    const key = `${expected}\u0000${chosen}`;
    const entry = found.get(key) ?? { expected, chosen, cases: [] };
    entry.cases.push(record.id);
    found.set(key, entry);
  }
  return [...found.values()].sort(
    (a, b) => b.cases.length - a.cases.length || a.expected.localeCompare(b.expected),
  );
}

function coverage(
  cases: readonly CaseRecord[],
  offered: readonly string[],
  selection: boolean,
): EvalDocument['coverage'] {
  const counts = new Map<string, number>();
  for (const record of cases)
    for (const tool of new Set(record.expectedTools)) counts.set(tool, (counts.get(tool) ?? 0) + 1);
  const offeredSet = new Set(offered);
  return {
    uncovered: selection ? [] : offered.filter((tool) => !counts.has(tool)),
    thin: (selection ? [] : offered)
      .filter((tool) => (counts.get(tool) ?? 0) > 0 && (counts.get(tool) ?? 0) < MIN_CASES_PER_TOOL)
      .map((tool) => ({ tool, cases: counts.get(tool) ?? 0 })),
    unknown: [...counts.keys()].filter((tool) => !offeredSet.has(tool)).sort(),
  };
}
