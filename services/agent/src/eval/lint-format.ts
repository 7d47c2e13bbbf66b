/**
 * @module eval/lint-format
 * The lint report as text for a terminal: findings grouped by tool, the token table, the totals.
 * Test: `lint.test.ts`.
 */
import type { LintFinding, LintLevel, LintReport } from './lint.js';

/** Human text: findings grouped by tool, the token table, then the totals line. */
export function formatLint(report: LintReport): string {
  const lines = [
    `Lint of ${report.tools} tool${report.tools === 1 ? '' : 's'} as the model receives them (${safe(report.model)}; tokens in ${report.encoding})`,
  ];
  const byTool = new Map<string, LintFinding[]>();
  for (const finding of report.findings)
    byTool.set(finding.tool, [...(byTool.get(finding.tool) ?? []), finding]);
  for (const [tool, findings] of byTool) {
    lines.push('', safe(tool));
    for (const finding of findings)
      lines.push(`  ${finding.level.padEnd(7)} ${finding.rule}: ${safe(finding.message)}`);
  }
  lines.push('', `Tokens per tool (${report.encoding}, each function as the JSON the agent sends)`);
  const width = Math.min(48, Math.max(5, ...report.tokens.perTool.map((entry) => safe(entry.tool).length)));
  for (const entry of report.tokens.perTool) {
    lines.push(`  ${safe(entry.tool).padEnd(width)} ${String(entry.tokens).padStart(7)}`);
  }
  lines.push(`  ${'total'.padEnd(width)} ${String(report.tokens.total).padStart(7)}`);
  const count = (level: LintLevel) => report.findings.filter((finding) => finding.level === level).length;
  lines.push(
    '',
    `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('note'), 'note')}`,
  );
  return lines.join('\n');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Tool names and descriptions come from servers: control characters must not reach the terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

function safe(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
