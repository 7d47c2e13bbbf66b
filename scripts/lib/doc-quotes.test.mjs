// @ts-check
// Quotes in the docs that check-docs cannot rerun (another platform, another Node), held to the code
// that prints them; run with `node --test scripts/lib/`. Each quote names this file in a
// `<!-- checked-by: scripts/lib/doc-quotes.test.mjs -->` line above its fence.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundledNodeNotice, chooseNode } from './inspector-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHECKED_BY = 'checked-by: scripts/lib/doc-quotes.test.mjs';

/**
 * The fenced blocks of `file` whose marker line names this test, in document order: their lines,
 * without the fences. A quote that loses its marker fails here, not silently.
 */
function checkedQuotes(file, root = ROOT) {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  const quotes = [];
  for (let index = 0; index < lines.length; index++) {
    if (!lines[index]?.includes(CHECKED_BY)) continue;
    const open = lines.findIndex((line, at) => at > index && /^\s*```/.test(line));
    const close = lines.findIndex((line, at) => at > open && /^\s*```\s*$/.test(line));
    assert.ok(open > index && close > open, `${file}:${index + 1}: no fenced block after the marker`);
    quotes.push(lines.slice(open + 1, close).map((line) => line.trim()));
  }
  return quotes;
}

describe('doc/troubleshooting.md', () => {
  const quotes = checkedQuotes('doc/troubleshooting.md');

  it('has the two Inspector quotes this file checks', () => {
    assert.equal(quotes.length, 2);
  });

  it("quotes pnpm inspector's note about the borrowed Node word for word", () => {
    assert.deepEqual(quotes[0], [bundledNodeNotice('v20.20.2', '22.23.3')]);
  });

  it('quotes the refusal on a platform without a Node 22 to lend word for word', () => {
    const choice = chooseNode('v20.19.0', 'darwin', 'arm64');
    assert.equal(choice.kind, 'unsupported');
    assert.deepEqual(quotes[1], [`inspector: ${choice.message}`]);
  });
});

describe('checkedQuotes', () => {
  it('fails loudly when a marker has no block after it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-quotes-'));
    try {
      fs.writeFileSync(path.join(dir, 'probe.md'), `<!-- ${CHECKED_BY} -->\nno block here\n`);
      assert.throws(() => checkedQuotes('probe.md', dir), /no fenced block after the marker/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
