// @ts-check
/**
 * How scripts/check-docs.mjs reads a markdown file: prose lines (code spans kept, fences removed)
 * and fenced blocks with their info strings. Good enough for our docs: ``` and ~~~ fences, ATX
 * headings, no HTML-block parsing. Pure; the rules in scripts/lib/doc-*.mjs and their tests use it too.
 */

/**
 * `text` (a whole file) as { prose: [{ line, text }], blocks: [{ fence, indent, line, lang, info,
 * lines: [{ line, text }] }], lines }; `line` is 1-based, a block's the line of its opening fence.
 */
export function parseMarkdownText(text) {
  const lines = text.split(/\r?\n/);
  const prose = [];
  const blocks = [];
  let block;
  lines.forEach((lineText, index) => {
    const line = index + 1;
    // [indent, fence, info] of a fence line; each group always takes part in a match.
    const [, indentText = '', marks = '', rest = ''] = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lineText) ?? [];
    const fence = marks ? { indentText, marks, rest } : undefined;
    if (block) {
      if (
        fence &&
        fence.marks[0] === block.fence[0] &&
        fence.marks.length >= block.fence.length &&
        !fence.rest.trim()
      ) {
        blocks.push(block);
        block = undefined;
      } else {
        block.lines.push({ line, text: lineText });
      }
    } else if (fence && !(fence.marks[0] === '`' && fence.rest.includes('`'))) {
      const info = fence.rest.trim().split(/\s+/).filter(Boolean);
      const indent = fence.indentText.length;
      block = { fence: fence.marks, indent, line, lang: (info[0] ?? '').toLowerCase(), info, lines: [] };
    } else {
      prose.push({ line, text: lineText });
    }
  });
  if (block) blocks.push(block); // unterminated: runs to the end of the file, as GitHub renders it
  return { prose, blocks, lines };
}

/** A block's content as written, less the fence's indentation (a block inside a list item). */
export function blockText(block) {
  return block.lines.map((l) => l.text.replace(new RegExp(`^ {0,${block.indent}}`), '')).join('\n');
}

/** `name=value` in a block's info string: the value, `true` for a bare `name`, else undefined. */
export function blockOption(block, name) {
  for (const word of block.info.slice(1)) {
    if (word === name) return true;
    if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
  }
  return undefined;
}

/** A fenced block the checker runs: ```sh runnable or ```bash runnable. */
export function isRunnable(block) {
  return ['sh', 'bash'].includes(block.lang) && block.info.includes('runnable');
}
