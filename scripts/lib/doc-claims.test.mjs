// @ts-check
// Tests of scripts/lib/doc-claims.mjs; run with `node --test scripts/lib/`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goalClaims, markerProblem, outputBlockMarker } from './doc-claims.mjs';

/** A fenced block as check-docs parses it, from its opening fence line. */
function fence(opening) {
  const info = opening
    .replace(/^\s*`{3,}/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return { line: 10, lang: (info[0] ?? '').toLowerCase(), info };
}
const above = (...lines) => lines.map((text) => ({ text }));
const repo = (files) => ({
  exists: (file) => file in files,
  read: (file) => files[file] ?? '',
});
const problemOf = (opening, lines, files = {}) =>
  markerProblem(outputBlockMarker(fence(opening), above(...lines)), 'doc/guide.md', repo(files));
/** The problem for assert.match to read: '(none)' when there is none, which no pattern here matches. */
const problemText = (opening, lines, files = {}) => problemOf(opening, lines, files) ?? '(none)';

describe('outputBlockMarker', () => {
  it('flags a text block with no marker, as today’s unchecked quotes are', () => {
    assert.match(problemText('```text', ['Step 1:', '']), /nothing checks/);
    assert.match(problemText('```', ['The output:']), /nothing checks/);
    assert.match(problemText('```console', []), /nothing checks/);
  });

  it('flags a block of another language when the line above announces output', () => {
    assert.match(problemText('```json', ['It prints:', '']), /nothing checks/);
    assert.match(problemText('```json', ['**Expected output**']), /nothing checks/);
    assert.match(problemText('```json', ['The server answers 404 with:']), /nothing checks/);
  });

  it('leaves commands, pictures and plain examples alone', () => {
    assert.equal(problemOf('```sh', ['It prints:']), undefined);
    assert.equal(problemOf('```mermaid', ['The output of the loop:']), undefined);
    assert.equal(problemOf('```json', ['A Claude Desktop entry looks like this:']), undefined);
    assert.equal(problemOf('```tree', ['The files:']), undefined);
  });

  it('accepts an output-of quote without looking further', () => {
    assert.equal(problemOf('```text output-of=demo', []), undefined);
    assert.equal(problemOf('```text output-of=ask-json stdout', ['Step 1:']), undefined);
  });

  it('accepts an illustrative marker that gives a reason, and refuses one without', () => {
    assert.equal(problemOf('```text', ['<!-- illustrative: needs Docker -->']), undefined);
    assert.equal(
      problemOf('   ```text', ['Step 1:', '', '   <!-- illustrative: needs Docker -->', '']),
      undefined,
    );
    assert.match(problemText('```text', ['<!-- illustrative: -->']), /needs a reason/);
    assert.match(problemText('```text', ['<!--illustrative-->']), /nothing checks/);
  });

  it('does not take a marker from beyond the block before', () => {
    const lines = ['<!-- illustrative: for the first block -->', '```text', 'a', '```', ''];
    assert.match(problemText('```text', lines), /nothing checks/);
  });

  it('does not take a marker from far above', () => {
    const lines = ['<!-- illustrative: old -->', 'one', 'two', 'three', 'four'];
    assert.match(problemText('```text', lines), /nothing checks/);
  });

  it('accepts checked-by only for a test that exists and names the doc', () => {
    const marker = ['<!-- checked-by: scripts/lib/guide.test.mjs -->'];
    assert.equal(
      problemOf('```text', marker, { 'scripts/lib/guide.test.mjs': "read('doc/guide.md')" }),
      undefined,
    );
    assert.match(problemText('```text', marker, {}), /does not exist/);
    assert.match(
      problemText('```text', marker, { 'scripts/lib/guide.test.mjs': 'nothing about it' }),
      /does not name guide\.md/,
    );
    assert.match(problemText('```text', ['<!-- checked-by: -->']), /needs a path/);
  });
});

describe('goalClaims', () => {
  const lines = (...texts) => texts.map((text, index) => ({ line: index + 1, text }));

  it('finds the claims ADR 011 made before issue 24', () => {
    const found = goalClaims(
      lines(
        '- **Status:** accepted (2026-11-23); the memory, heap and agent goals are met. The throughput goals are not',
        '| goal | before (issue) | now | met |',
        '|---|---|---|---|',
        '| heap flat over 100,000 calls per mode | | +0.41 MB | yes |',
      ),
    );
    assert.deepEqual(
      found.map((f) => f.line),
      [1, 2],
    );
  });

  it('lets figures, dates and negative statements stand', () => {
    const found = goalClaims(
      lines(
        'The throughput goals are not met, and cannot be met on the SDK.',
        "| goal | 2026-11-23 | the bench's mark |",
        'In the full run of 2026-11-23 the bench printed `✓` for the heap goal.',
        'The `goals are met` phrase inside code is quoted, not claimed.',
      ),
    );
    assert.deepEqual(found, []);
  });

  it('finds a claim in other words', () => {
    assert.equal(goalClaims(lines('Every goal is now met.')).length, 1);
    assert.equal(goalClaims(lines('The cold-start goal was met in CI')).length, 1);
  });
});
