import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLANS } from './plan.js';
import { printReport, type Report } from './report.js';
import { TARGETS } from './targets.js';
import { withLimitsOff } from './throughput.js';

/**
 * Module 10 of doc/WORKSHOP.md quotes four tables of a full `pnpm bench` (a run of about 17
 * minutes, so check-docs cannot rerun it). This test feeds the quoted figures back to the code that
 * prints the tables: headings, columns, labels and the ratios derived from the figures must come
 * out as quoted, so a renamed column, a new target or a hand-edited ratio fails here.
 */
const WORKSHOP = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'doc', 'WORKSHOP.md');
const MARKER = '<!-- checked-by: dev/bench/src/report.docs.test.ts -->';
/** The quote's figures were printed rounded, so ratios recomputed from them differ in the last digit. */
const RATIO_TOLERANCE = 0.01;
/** Percentage points, for the shares and differences the limits section prints. */
const PERCENT_TOLERANCE = 0.15;

function quotedBench(): string[] {
  const lines = readFileSync(WORKSHOP, 'utf8').split('\n');
  const marker = lines.indexOf(MARKER);
  expect(marker, `doc/WORKSHOP.md has ${MARKER}`).toBeGreaterThan(0);
  const open = lines.findIndex((line, index) => index > marker && line.startsWith('```text'));
  const close = lines.findIndex((line, index) => index > open && line === '```');
  return lines.slice(open + 1, close).filter((line) => line.trim() !== '');
}

const cells = (row: string) =>
  row
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
/**
 * The rows of the `which`-th table (0: the first) after `heading`, without its header and rule. The
 * quote has no blank lines, so two tables can touch: each starts at the line above its `| --- |` rule.
 */
const tableRows = (quote: string[], heading: string, which = 0) => {
  const start = quote.findIndex((line) => line.startsWith(heading));
  expect(start, `the quote has a "${heading}" section`).toBeGreaterThanOrEqual(0);
  const section: string[] = [];
  for (const line of quote.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    section.push(line);
  }
  const isRule = (line: string) => line.startsWith('|') && cells(line).every((cell) => /^-+$/.test(cell));
  const tables: string[][][] = [];
  section.forEach((line, index) => {
    if (isRule(line)) tables.push([]);
    else if (line.startsWith('|') && !isRule(section[index + 1] ?? '')) tables.at(-1)?.push(cells(line));
  });
  return tables[which] ?? [];
};

/** The report built from the quoted figures alone. */
function reportFromQuote(quote: string[]): Report {
  const label = (text: string) => {
    // A mode's copy with the limits off is named after it (throughput.ts, withLimitsOff).
    const off = withLimitsOff({
      id: '',
      label: '',
      server: 'ours',
      prepare: async () => ({ url: '', headers: {}, body: '' }),
    });
    const base = text.endsWith(off.label) ? text.slice(0, -off.label.length) : text;
    const target = TARGETS.find((t) => t.label === base);
    expect(target, `"${text}" is a target of the bench`).toBeDefined();
    return `${target?.id ?? text}${base === text ? '' : off.id}`;
  };
  // The server's CPU per call is printed in the limits section's second table, per mode as shipped.
  const cpuOf = new Map(
    tableRows(quote, '## What the rate limits cost a call', 1).map(([name = '', cpu]) => [name, Number(cpu)]),
  );
  const throughput = tableRows(quote, '## tools/call').map(([name = '', rps, , , , p99, , errors]) => ({
    id: label(name),
    label: name,
    requestsPerSecond: Number(rps),
    p99Ms: Number(p99),
    errors: Number(errors),
    ...(cpuOf.has(name) && { cpuUsPerCall: cpuOf.get(name) }),
  }));
  const [ours, library] = tableRows(quote, '## What the rate limits cost a call').map(([, micros]) =>
    Number(micros),
  );
  const limits = [
    {
      id: 'ours' as const,
      label: "this server's limits (window-counter.ts), as shipped",
      microsPerCall: ours ?? 0,
    },
    {
      id: 'express-rate-limit' as const,
      label: 'express-rate-limit 8, draft-8 headers, memory store (what they replaced)',
      microsPerCall: library ?? 0,
    },
  ];
  // The SDK series: each row is a build with one patch more than the row before (step 0: published).
  const sdkSeries = tableRows(quote, '## The bare SDK v2 floor').map(
    ([name = '', rps, , , p99, errors], step) => ({
      id: `sdk-v2-step-${step}`,
      label: name,
      step,
      requestsPerSecond: Number(rps),
      p99Ms: Number(p99),
      errors: Number(errors),
    }),
  );
  const coldStart = tableRows(quote, '## Cold start').map(([name = '', ms], index) => ({
    id: index === 0 ? 'raw' : `case-${index}`,
    label: name,
    ms: Number(ms),
  }));
  const agent = tableRows(quote, '## The agent').map(([, ms]) => Number(ms));
  const [agentMs = 0, modelMs = 0, mcpMs = 0, overheadMs = 0, askMs] = agent;
  return {
    throughput,
    limits,
    sdkSeries,
    coldStart,
    agent: { iterations: PLANS.full.agentIterations, agentMs, modelMs, mcpMs, overheadMs },
    askMs,
  };
}

function printed(report: Report): string[] {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(...args.map(String).join(' ').split('\n'));
  });
  printReport(report, PLANS.full);
  log.mockRestore();
  return lines.filter((line) => line.trim() !== '');
}

/** Two table rows agree when their words match and their numbers agree within the rounding. */
function sameRow(quoted: string[], real: string[]): boolean {
  if (quoted.length !== real.length) return false;
  return quoted.every((cell, index) => {
    const other = real[index] ?? '';
    if (cell === other) return true;
    // A share recomputed from rounded figures moves in its last digit: a tenth of a point either way.
    const percent = /^-?\d+(?:\.\d+)?%$/;
    if (percent.test(cell) && percent.test(other))
      return Math.abs(parseFloat(cell) - parseFloat(other)) <= PERCENT_TOLERANCE;
    const [a, b] = [Number(cell), Number(other)];
    if (cell === '' || Number.isNaN(a) || Number.isNaN(b)) return false;
    return Math.abs(a - b) <= RATIO_TOLERANCE * Math.max(Math.abs(a), Math.abs(b), 1);
  });
}

describe('the bench tables quoted in module 10', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are what printReport prints for the quoted figures', () => {
    const quote = quotedBench();
    const real = printed(reportFromQuote(quote));
    let from = 0;
    for (const line of quote) {
      const at = real.findIndex(
        (candidate, index) =>
          index >= from &&
          (line.startsWith('|') ? sameRow(cells(line), cells(candidate)) : candidate === line),
      );
      expect(at, `printReport prints, in this order: ${line}`).toBeGreaterThanOrEqual(0);
      from = at + 1;
    }
  });

  it('fails on a quote whose ratio was edited by hand', () => {
    const quote = quotedBench().map((line) =>
      line.startsWith('| official SDK v1, stateful') ? line.replace(/\| 0\.0\d\d /, '| 0.200 ') : line,
    );
    expect(quote.join('\n')).toContain('| 0.200 ');
    const real = printed(reportFromQuote(quote));
    const edited = quote.find((line) => line.includes('| 0.200 ')) ?? '';
    expect(real.some((candidate) => sameRow(cells(edited), cells(candidate)))).toBe(false);
  });
});
