// @ts-check
/**
 * Two rules of scripts/check-docs.mjs that keep quoted results honest. Pure: `doc-claims.test.mjs`
 * covers them.
 *
 * 1. Every block that presents a program's output says how it is kept true. An output block is a
 *    fenced block in an output language (```text, ```console, ```output, ```log, ```plaintext, or
 *    none), or a block of any language but shell right after a line such as "It prints:" or
 *    "Expected output". It must carry one of:
 *      - `output-of=NAME` in its info string: check-docs reruns block NAME and compares;
 *      - `<!-- checked-by: PATH -->` on a line above the fence: the test at PATH asserts the same
 *        text (PATH must exist and name the doc it holds to);
 *      - `<!-- illustrative: REASON -->` on a line above the fence: nobody checks it, and REASON
 *        says why (it needs Docker, a browser, a real model, a running stack, minutes of load…).
 *    A block that is not output at all (a tree, a diagram) gets a language that says so.
 * 2. The docs never say a goal "is met" or put "yes" in a "met" column: a bench marks goals `✓`
 *    or `✗` for one run, and a goal near its line flips between runs. Quote the figures and the
 *    date of the run instead.
 */

/** Fence languages whose blocks are read as program output. */
export const OUTPUT_LANGS = new Set(['', 'text', 'console', 'output', 'log', 'plaintext', 'txt']);
/** Languages of commands: a command block after "prints:" is the command, not its output. */
const COMMAND_LANGS = new Set(['sh', 'bash', 'shell', 'zsh', 'powershell', 'ps1', 'cmd']);
/** Languages of pictures, never output. */
const PICTURE_LANGS = new Set(['mermaid']);
/** A line that announces output: "It prints:", "Expected output", "you should see:", "answers 404:". */
const OUTPUT_PHRASE =
  /(?:\bexpected output\b|\boutput\b[^.]*:\s*$|\b(?:prints?|printed|you (?:should|will) see|answers?|answered|replies|returns?|gives?|gave|shows?)\b[^.]*:\s*$)/i;
const MARKER = /^\s*<!--\s*(illustrative|checked-by):\s*(.*?)\s*-->\s*$/;
/** How far above a fence its marker may stand: the marker, then at most one prose line. */
const MARKER_REACH = 3;

/**
 * What an output block carries, or why it is not an output block.
 * `block`: { line, lang, info } as check-docs parses it; `above`: the file's lines above the fence,
 * nearest last ({ text } each, prose or not). Returns { output: false } or
 * { output: true, marker: 'output-of' | 'illustrative' | 'checked-by' | undefined, value }.
 */
export function outputBlockMarker(block, above) {
  if (COMMAND_LANGS.has(block.lang) || PICTURE_LANGS.has(block.lang)) return { output: false };
  const of = block.info.slice(1).find((word) => word.startsWith('output-of='));
  const nearest = [];
  for (let index = above.length - 1; index >= 0 && nearest.length < MARKER_REACH; index--) {
    const text = above[index].text.trim();
    if (text === '') continue;
    if (/^( {0,3})(`{3,}|~{3,})/.test(text)) break; // the end of the block before: stop there
    nearest.push(text);
  }
  const announced = nearest.some((text) => OUTPUT_PHRASE.test(text.replace(/^<!--.*-->$/, '')));
  if (!OUTPUT_LANGS.has(block.lang) && !announced && !of) return { output: false };
  if (of) return { output: true, marker: 'output-of', value: of.slice('output-of='.length) };
  for (const text of nearest) {
    const match = MARKER.exec(text);
    if (match) return { output: true, marker: match[1], value: match[2] };
  }
  return { output: true, marker: undefined };
}

/** The problem with an output block's marker, or undefined. `exists(path)` and `read(path)` see the repo. */
export function markerProblem(result, docFile, { exists, read }) {
  if (!result.output) return undefined;
  if (result.marker === undefined) {
    return (
      'quoted output that nothing checks: give it `output-of=NAME` (rerun by check-docs), or put ' +
      '`<!-- checked-by: TEST -->` or `<!-- illustrative: WHY -->` above the fence (scripts/lib/doc-claims.mjs)'
    );
  }
  if (result.marker === 'output-of') return undefined;
  if (!result.value)
    return `<!-- ${result.marker}: … --> needs ${result.marker === 'illustrative' ? 'a reason' : 'a path'}`;
  if (result.marker === 'checked-by') {
    if (!exists(result.value)) return `checked-by: ${result.value} does not exist`;
    const name = docFile.split('/').at(-1);
    if (!read(result.value).includes(name))
      return `checked-by: ${result.value} does not name ${name}, so it cannot be holding this quote to it`;
  }
  return undefined;
}

/** "goal(s) … is/are met" (not "not met", "cannot be met"), within one sentence or table cell. */
const GOAL_MET = /\bgoals?\b[^.;|]*?\b(?:is|are|was|were|been)\s+(?:now\s+|all\s+|fully\s+|still\s+)?met\b/i;
/** A table header cell that makes a column of verdicts. */
const MET_HEADER = /^(?:met|met\?|goal met|goals met)$/i;

/** Lines of prose ({ line, text }) that assert a goal as met. Returns [{ line, message }]. */
export function goalClaims(prose) {
  const found = [];
  for (const { line, text } of prose) {
    const plain = text.replace(/(`+)[\s\S]*?\1/g, '');
    if (GOAL_MET.test(plain)) {
      found.push({
        line,
        message:
          'says a goal is met: a bench marks goals for one run only; quote the figures and the date of the run instead',
      });
      continue;
    }
    if (!/^\s*\|/.test(text)) continue;
    const cells = text
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (cells.some((cell) => MET_HEADER.test(cell))) {
      found.push({
        line,
        message:
          'a table column "met" asserts goals: name the run instead (e.g. "the bench\'s mark on 2026-11-23")',
      });
    }
  }
  return found;
}
