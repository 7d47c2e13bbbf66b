/**
 * @module test-support/doc-figures
 * Module 12 of doc/WORKSHOP.md quotes the `[scale-e2e]` lines these tests print. Their numbers change
 * from run to run (timings, retries, which replica served what), so a quote can only be compared by
 * shape: every number stands for any number, and a `…` in the quote for any text, as in the docs'
 * other quoted outputs (scripts/lib/expected-output.mjs). A test prints its figures through
 * `reportFigure`, which fails when the doc quotes no line of that shape: words the doc says and the
 * test no longer prints (or the reverse) are a stale quote.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const WORKSHOP_DOC = fileURLToPath(new URL('../../../../doc/WORKSHOP.md', import.meta.url));
const PREFIX = '[scale-e2e] ';

/** Every number, with its decimals: the part of a figure that may change between runs. */
const NUMBER = /\d+(?:\.\d+)?/g;
/** In a quoted line, `…` (with the spaces around it) stands for any text. */
const WILDCARD = /\s*…\s*/;

/** The `[scale-e2e]` lines the doc quotes, wherever they are (only module 12 quotes them). */
export function quotedFigures(doc = readFileSync(WORKSHOP_DOC, 'utf8')): string[] {
  return doc
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.startsWith(PREFIX));
}

/** Whether a printed line has the shape of a quoted one: the same words, any numbers. */
export function sameShape(quoted: string, printed: string): boolean {
  const literal = (text: string) => text.replace(NUMBER, '#').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = quoted.split(WILDCARD).map(literal).join('.*?');
  return new RegExp(`^${pattern}$`, 'u').test(printed.replace(NUMBER, '#'));
}

/** Prints a figure line and fails unless the doc quotes a line of its shape. */
export function reportFigure(line: string, quoted = quotedFigures()): void {
  // biome-ignore lint/suspicious/noConsole: printing the figure is the point; the docs quote it.
  console.log(line);
  expect(
    quoted.some((candidate) => sameShape(candidate, line)),
    `doc/WORKSHOP.md module 12 ("Step 6, the figures the tests print") quotes no line like the one this ` +
      `test printed; numbers may differ, words may not. Quote this run's line:\n${line}\n` +
      `Quoted now:\n${quoted.join('\n')}`,
  ).toBe(true);
}
