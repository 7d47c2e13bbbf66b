/**
 * @module eval/report
 * The text report of `pnpm eval`: which model judged, a row per case, precision and recall per
 * tool, where the model went wrong, what failed and why, coverage, and last the line
 * `N passed, M failed`. Pure: it formats an `EvalDocument`.
 */
import type { CaseRecord, EvalDocument } from './document.js';
import { MIN_CASES_PER_TOOL } from './document.js';

/** The demo model is a scorer of words, not a language model: the report must never let it pass for one. */
const DEMO_MODEL_CAVEAT =
  'The offline demo model picks a tool by the words of its name and description, so this run ' +
  'measures how findable each description is, not how a language model would choose. Set ' +
  'OPENAI_API_KEY, or OPENAI_BASE_URL for Ollama or LM Studio, to ask a real model.';

export function formatReport(document: EvalDocument): string {
  const lines: string[] = [];
  const { model, summary } = document;
  lines.push(`Judged by: ${model.label} (model ${model.model} at ${model.baseUrl}, ${model.api} API)`);
  if (model.kind === 'demo') lines.push(...wrap(DEMO_MODEL_CAVEAT, '  '));
  lines.push(
    `Tools offered: ${document.discovery ? 'through search_tools (progressive discovery)' : 'all of them'}` +
      (document.repeat > 1 ? `; each case asked ${document.repeat} times, the majority decides` : ''),
  );
  lines.push('');
  lines.push(...caseTable(document));
  lines.push('');
  lines.push(...toolTable(document));
  if (document.confusion.length > 0) {
    lines.push('', 'Where the model went wrong:');
    for (const entry of document.confusion)
      lines.push(`  expected ${entry.expected}, chose ${entry.chosen}: ${entry.cases.join(', ')}`);
  }
  const failed = document.cases.filter((record) => !record.pass);
  if (failed.length > 0) {
    lines.push('', 'Failed cases:');
    for (const record of failed) {
      lines.push(`  ${record.id} (${record.file}) "${clip(record.question, 70)}"`);
      for (const problem of record.problems) lines.push(`    ${problem}`);
    }
  }
  lines.push(...coverageLines(document));
  lines.push('');
  if (document.repeat > 1)
    lines.push(`pass@${document.repeat}: ${summary.passAtN} of ${summary.total} cases passed at least once`);
  lines.push(`${summary.passed} passed, ${summary.failed} failed`);
  return lines.join('\n');
}

function caseTable(document: EvalDocument): string[] {
  const repeat = document.repeat > 1;
  const header = ['case', 'expected', 'chosen', 'args', repeat ? 'passes' : '', 'ms', 'tokens', 'result'];
  const rows = document.cases.map((record) => [
    record.id,
    tools(record.expectedTools),
    tools(record.chosenTools),
    argsCell(record),
    repeat ? `${record.passes}/${record.attempts}` : '',
    String(record.latencyMs),
    tokensCell(record),
    record.pass ? 'pass' : 'FAIL',
  ]);
  return table(header, rows, repeat ? [] : [4]);
}

function toolTable(document: EvalDocument): string[] {
  const rate = (value: number | null) => (value === null ? '-' : value.toFixed(2));
  const rows = document.tools.map((tool) => [
    tool.tool,
    String(tool.expected),
    String(tool.chosen),
    String(tool.correct),
    rate(tool.precision),
    rate(tool.recall),
  ]);
  return table(['tool', 'expected', 'chosen', 'right', 'precision', 'recall'], rows);
}

function coverageLines(document: EvalDocument): string[] {
  const { uncovered, thin, unknown } = document.coverage;
  const lines: string[] = [];
  if (uncovered.length > 0)
    lines.push(`No cases for: ${uncovered.join(', ')} (write <tool>.eval.yaml beside it)`);
  if (thin.length > 0)
    lines.push(
      `Fewer than ${MIN_CASES_PER_TOOL} cases for: ${thin.map((entry) => `${entry.tool} (${entry.cases})`).join(', ')}`,
    );
  if (unknown.length > 0) lines.push(`Cases expect tools no server offers: ${unknown.join(', ')}`);
  return lines.length > 0 ? ['', ...lines] : [];
}

const tools = (names: readonly string[]) => (names.length === 0 ? '-' : names.join(' > '));

function argsCell(record: CaseRecord): string {
  if (record.expectedTools.length === 0) return '';
  return record.chosenTools.join() === record.expectedTools.join() ? (record.argsOk ? 'ok' : 'WRONG') : '';
}

function tokensCell(record: CaseRecord): string {
  if (record.inputTokens !== undefined) return String(record.inputTokens + (record.outputTokens ?? 0));
  return record.firstRequestTokens === undefined ? '-' : `~${record.firstRequestTokens}`;
}

/** Left-aligned columns; columns listed in `skip` are left out. */
function table(header: string[], rows: string[][], skip: number[] = []): string[] {
  const keep = (row: string[]) => row.filter((_, index) => !skip.includes(index));
  const all = [keep(header), ...rows.map(keep)].map((row) => row.map((cell) => clip(cell, 40)));
  const widths = all[0]?.map((_, column) => Math.max(...all.map((row) => row[column]?.length ?? 0))) ?? [];
  return all.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function wrap(text: string, indent: string, width = 96): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + word.length + 1 > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}
