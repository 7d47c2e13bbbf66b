/**
 * @module eval/discovery-report
 * `pnpm eval --discovery compare`: the same cases asked with every tool offered, then through
 * `search_tools`, side by side. What discovery is for: fewer tokens on every request, without
 * the model picking worse. Both figures come from the two runs' documents.
 */
import { compareRuns } from './compare.js';
import type { CaseRecord, EvalDocument } from './document.js';

export interface DiscoveryComparison {
  kind: 'mcp-workshop-eval-discovery';
  version: 1;
  off: EvalDocument;
  on: EvalDocument;
}

const mean = (records: readonly CaseRecord[], value: (record: CaseRecord) => number | undefined) => {
  const values = records.map(value).filter((entry): entry is number => entry !== undefined);
  return values.length === 0 ? undefined : values.reduce((sum, entry) => sum + entry, 0) / values.length;
};

/** The per-case figures compared as means: label, the figure, and the decimals it is shown with. */
const MEANS: ReadonlyArray<[string, (record: CaseRecord) => number | undefined, number]> = [
  ['functions in the first request (mean)', (record) => record.firstRequestFunctions, 1],
  ['tokens of the first request (mean)', (record) => record.firstRequestTokens, 0],
  ['model requests per case (mean)', (record) => record.requests, 2],
];

export function formatDiscoveryComparison({ off, on }: DiscoveryComparison): string {
  const passed = (document: EvalDocument) =>
    `${document.summary.passed}/${document.summary.total} (${Math.round(document.summary.passRate * 100)}%)`;
  const number = (value: number | undefined, digits = 0) =>
    value === undefined ? '-' : value.toLocaleString('en-US', { maximumFractionDigits: digits });
  const row = (label: string, left: string, right: string) =>
    `  ${label.padEnd(40)}${left.padEnd(16)}${right}`;
  const changes = compareRuns(off, on);
  const ids = (list: string[]) => (list.length === 0 ? 'none' : list.join(', '));
  return [
    `Progressive discovery: ${off.cases.length} cases asked with every tool offered, then through search_tools`,
    `Judged by: ${off.model.label} (model ${off.model.model})`,
    '',
    row('', 'every tool', 'search_tools'),
    row('cases passed', passed(off), passed(on)),
    ...MEANS.map(([label, value, digits]) =>
      row(label, number(mean(off.cases, value), digits), number(mean(on.cases, value), digits)),
    ),
    row('time for all cases (s)', number(off.durationMs / 1000, 1), number(on.durationMs / 1000, 1)),
    '',
    'Tokens: the system prompt, the question and the offered functions as JSON, counted with the',
    "model's tokenizer; with search_tools, later requests add the tools found.",
    `Passed only with search_tools: ${ids(changes.fixed)}`,
    `Passed only with every tool: ${ids(changes.broken)}`,
  ].join('\n');
}
