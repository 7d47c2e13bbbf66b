import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelDescription } from '../llm/provider.js';
import type { EvalCase } from './cases.js';
import { compareRuns, formatComparison, readSavedRun, SavedRunError } from './compare.js';
import { formatDiscoveryComparison } from './discovery-report.js';
import { buildDocument, NO_TOOL } from './document.js';
import { judge } from './judge.js';
import { formatReport } from './report.js';
import type { CaseResult } from './run.js';

const demo: ModelDescription = {
  kind: 'demo',
  model: 'offline-demo-model',
  baseUrl: 'http://127.0.0.1:3002/v1',
  api: 'chat',
  label: 'offline demo model (scripted, not a language model)',
};

const evalCase = (id: string, tools: string[]): EvalCase => ({
  id,
  file: 'tools/x.eval.yaml',
  question: `question ${id}`,
  steps: tools.map((tool) => ({ tool, args: {} })),
});

/** A case result whose attempts chose `chosen[i]` (one tool or none). */
function result(id: string, expected: string[], ...chosen: Array<string | null>): CaseResult {
  const item = evalCase(id, expected);
  const attempts = chosen.map((tool) => ({
    verdict: judge(item, tool ? [{ tool, unknown: false, arguments: {} }] : []),
    latencyMs: 10,
    use: { requests: 2, inputTokens: 100, outputTokens: 5 },
    answer: '',
  }));
  const passes = attempts.filter((attempt) => attempt.verdict.pass).length;
  return { evalCase: item, attempts, pass: passes * 2 > attempts.length, passAtN: passes > 0 };
}

const document = (results: CaseResult[], offered = ['get_weather', 'get_time', 'calculate'], repeat = 1) =>
  buildDocument({
    results,
    model: demo,
    discovery: false,
    repeat,
    startedAt: new Date('2026-12-07T10:00:00Z'),
    durationMs: 1234,
    offeredTools: offered,
  });

describe('buildDocument', () => {
  const run = document([
    result('get_weather#1', ['get_weather'], 'get_weather'),
    result('get_weather#2', ['get_weather'], 'get_time'),
    result('get_time#1', ['get_time'], 'get_time'),
    result('no-tool#1', [], 'calculate'),
  ]);

  it('keeps a record per case: expected, chosen or null, arguments, pass', () => {
    expect(run.cases[1]).toMatchObject({
      id: 'get_weather#2',
      expected: 'get_weather',
      chosen: 'get_time',
      arguments: [{}],
      pass: false,
      passes: 0,
      attempts: 1,
      problems: ['expected get_weather, chose get_time'],
      inputTokens: 100,
      outputTokens: 5,
    });
    expect(run.cases[3]).toMatchObject({ expected: null, chosen: 'calculate', pass: false });
    expect(run.summary).toEqual({ passed: 2, failed: 2, total: 4, passRate: 0.5, passAtN: 2 });
  });

  it('computes precision and recall per tool, "no tool" included', () => {
    const byTool = Object.fromEntries(run.tools.map((tool) => [tool.tool, tool]));
    expect(byTool.get_weather).toMatchObject({
      expected: 2,
      chosen: 1,
      correct: 1,
      precision: 1,
      recall: 0.5,
    });
    expect(byTool.get_time).toMatchObject({ expected: 1, chosen: 2, correct: 1, precision: 0.5, recall: 1 });
    expect(byTool.calculate).toMatchObject({
      expected: 0,
      chosen: 1,
      correct: 0,
      precision: 0,
      recall: null,
    });
    expect(byTool[NO_TOOL]).toMatchObject({ expected: 1, chosen: 0, precision: null, recall: 0 });
  });

  it('lists where the model went wrong, and the tools without enough cases', () => {
    expect(run.confusion).toEqual([
      { expected: 'get_weather', chosen: 'get_time', cases: ['get_weather#2'] },
      { expected: 'no tool', chosen: 'calculate', cases: ['no-tool#1'] },
    ]);
    expect(run.coverage).toEqual({
      uncovered: ['calculate'],
      thin: [
        { tool: 'get_weather', cases: 2 },
        { tool: 'get_time', cases: 1 },
      ],
      unknown: [],
    });
    expect(document([result('a#1', ['gone'], null)], []).coverage.unknown).toEqual(['gone']);
    // --only: a selection leaves tools out on purpose, but a case for a tool no server has is still said.
    const selected = buildDocument({
      results: [result('a#1', ['get_time'], 'get_time'), result('a#2', ['gone'], null)],
      model: demo,
      discovery: false,
      repeat: 1,
      startedAt: new Date(),
      durationMs: 1,
      offeredTools: ['get_weather', 'get_time'],
      selection: true,
    });
    expect(selected.coverage).toEqual({ uncovered: [], thin: [], unknown: ['gone'] });
  });

  it('decides a repeated case by its majority, and counts pass@N', () => {
    const repeated = document(
      [
        result('a#1', ['get_time'], 'get_time', 'calculate', 'get_time'),
        result('a#2', ['get_time'], 'calculate', 'calculate', 'get_time'),
      ],
      ['get_time'],
      3,
    );
    expect(repeated.cases.map((record) => [record.pass, record.passes])).toEqual([
      [true, 2],
      [false, 1],
    ]);
    expect(repeated.summary).toMatchObject({ passed: 1, failed: 1, passAtN: 2 });
  });
});

describe('formatReport', () => {
  const text = formatReport(
    document([
      result('get_weather#1', ['get_weather'], 'get_weather'),
      result('get_weather#2', ['get_weather'], 'get_time'),
    ]),
  );

  it('says which model judged, and what the demo model can tell', () => {
    expect(text).toMatch(
      /^Judged by: offline demo model .* \(model offline-demo-model at http:\/\/127\.0\.0\.1:3002\/v1, chat API\)/,
    );
    expect(text).toContain('measures how findable each description is');
  });

  it('shows each case, where the model went wrong, and ends with "N passed, M failed"', () => {
    expect(text).toMatch(/get_weather#2\s+get_weather\s+get_time\s+\d+\s+105\s+FAIL/);
    expect(text).toContain('expected get_weather, chose get_time: get_weather#2');
    expect(text).toContain('No cases for: get_time, calculate');
    expect(text.split('\n').at(-1)).toBe('1 passed, 1 failed');
  });

  it('keeps control characters from a case file out of the table layout', () => {
    const odd = result('x#1', ['get_time'], 'get_time');
    odd.evalCase.question = 'line\nbreak\tand tab';
    expect(formatReport(document([odd]))).not.toContain('line\nbreak');
  });
});

describe('compareRuns', () => {
  const before = document([
    result('a#1', ['get_time'], 'calculate'),
    result('a#2', ['get_time'], 'get_time'),
    result('a#3', ['get_time'], 'calculate'),
    result('a#4', ['get_time'], 'get_time'),
  ]);
  const after = document([
    result('a#1', ['get_time'], 'get_time'),
    result('a#2', ['get_time'], 'calculate'),
    result('a#3', ['get_time'], 'calculate'),
    result('a#5', ['get_time'], 'get_time'),
  ]);

  it('says which cases a change fixed, broke, left failing, added and removed', () => {
    const comparison = compareRuns(before, after);
    expect(comparison).toMatchObject({
      fixed: ['a#1'],
      broken: ['a#2'],
      stillFailing: ['a#3'],
      added: ['a#5'],
      removed: ['a#4'],
    });
    const text = formatComparison(comparison, 'before.json');
    expect(text).toContain('fixed (failed then, pass now): a#1');
    expect(text).toContain('broken (passed then, fail now): a#2');
    expect(text).toContain('pass rate: 50% then, 50% now');
  });

  it('reads a saved run back, and refuses anything else with the reason', () => {
    const folder = mkdtempSync(join(tmpdir(), 'eval-saved-'));
    try {
      const saved = join(folder, 'run.json');
      writeFileSync(saved, JSON.stringify(before));
      expect(readSavedRun(saved).cases).toHaveLength(4);
      writeFileSync(saved, 'not json');
      expect(() => readSavedRun(saved)).toThrow(/not JSON/);
      writeFileSync(saved, JSON.stringify({ kind: 'something-else', cases: [] }));
      expect(() => readSavedRun(saved)).toThrow(SavedRunError);
      expect(() => readSavedRun(join(folder, 'missing.json'))).toThrow(/cannot read it/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('formatDiscoveryComparison', () => {
  it('puts accuracy, functions, tokens and requests of both runs side by side, and the cases that differ', () => {
    const withUse = (record: CaseResult, functions: number, tokens: number, requests: number) => {
      const attempt = record.attempts[0];
      if (attempt)
        attempt.use = {
          requests,
          first: { messages: [], functions: new Array(functions).fill({ name: 'f' }) },
        };
      return { record, tokens };
    };
    const build = (entries: Array<{ record: CaseResult; tokens: number }>, discovery: boolean) =>
      buildDocument({
        results: entries.map((entry) => entry.record),
        model: demo,
        discovery,
        repeat: 1,
        startedAt: new Date(),
        durationMs: 2000,
        offeredTools: [],
        countFirstRequest: (attempt) => entries.find((entry) => entry.record.attempts[0] === attempt)?.tokens,
      });
    const off = build(
      [
        withUse(result('a#1', ['get_time'], 'get_time'), 60, 9000, 2),
        withUse(result('a#2', ['get_time'], 'calculate'), 60, 9100, 2),
      ],
      false,
    );
    const on = build(
      [
        withUse(result('a#1', ['get_time'], 'calculate'), 1, 200, 3),
        withUse(result('a#2', ['get_time'], 'get_time'), 1, 220, 3),
      ],
      true,
    );
    const text = formatDiscoveryComparison({ kind: 'mcp-workshop-eval-discovery', version: 1, off, on });
    expect(text).toMatch(/cases passed\s+1\/2 \(50%\)\s+1\/2 \(50%\)/);
    expect(text).toMatch(/functions in the first request \(mean\)\s+60\s+1/);
    expect(text).toMatch(/tokens of the first request \(mean\)\s+9,050\s+210/);
    expect(text).toMatch(/model requests per case \(mean\)\s+2\s+3/);
    expect(text).toContain('Passed only with search_tools: a#2');
    expect(text).toContain('Passed only with every tool: a#1');
  });
});
