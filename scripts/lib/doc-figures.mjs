// @ts-check
/**
 * Figures the docs quote about the repository, held to it by scripts/check-docs.mjs (check 9), so a
 * number that drifts fails instead of going stale. Pure: `doc-figures.test.mjs` covers it.
 *
 *   - how many workshop modules there are: "modules 0–14" (or `0-14`), in any doc, must end at the
 *     last module of doc/WORKSHOP.md (its `## N. Title` headings), and in doc/WORKSHOP.md itself
 *     "Fifteen modules" must count them (elsewhere "four modules" may be code);
 *   - how many tools the server has: the agent's log line "connected to MCP server" for the server
 *     `workshop`, quoted anywhere, must say `"tools":N` with N the tools the built server registers;
 *   - which tools: a table whose first column is headed `tool` (the README's table of the example
 *     tools) must name every tool the built server registers, in a code span of that column.
 *
 * Each rule returns [{ line, message }] for the lines of one doc.
 */

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** The workshop's module numbers, from doc/WORKSHOP.md's prose: each `## N. Title` heading. */
export function workshopModules(prose) {
  return prose.flatMap(({ text }) => {
    const heading = /^ {0,3}##\s+(\d+)\.\s/.exec(text);
    return heading ? [Number(heading[1])] : [];
  });
}

/**
 * "modules 0–13" (from the first) that does not match `modules` (their numbers), and with `counts`
 * (for doc/WORKSHOP.md) "Fifteen modules" too.
 */
export function moduleCountProblems(prose, modules, { counts = false } = {}) {
  if (modules.length === 0) return [];
  const first = Math.min(...modules);
  const last = Math.max(...modules);
  const problems = [];
  for (const { line, text } of prose) {
    // From the first module: "all of them". "modules 1–3" is a part, and says nothing of the count.
    for (const m of text.matchAll(/\bmodules (\d+) ?[–-] ?(\d+)\b/gi)) {
      if (Number(m[1]) === first && Number(m[2]) !== last) {
        problems.push({
          line,
          message: `"${m[0]}": doc/WORKSHOP.md has modules ${first}–${last}`,
        });
      }
    }
    if (!counts) continue;
    for (const m of text.matchAll(/\b([A-Za-z]+|\d+) modules\b/g)) {
      const word = m[1].toLowerCase();
      const said = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word);
      if (said < 0) continue; // "later modules", "small modules"
      if (said !== modules.length) {
        problems.push({
          line,
          message: `"${m[0]}": doc/WORKSHOP.md has ${modules.length} modules (${first}–${last})`,
        });
      }
    }
  }
  return problems;
}

/** Quoted agent logs whose `"tools":N` for the workshop server is not `toolCount`. */
export function toolCountProblems(blocks, toolCount) {
  const problems = [];
  for (const block of blocks) {
    for (const { line, text } of block.lines) {
      if (!text.includes('"msg":"connected to MCP server"') || !text.includes('"server":"workshop"'))
        continue;
      const said = /"tools":(\d+)/.exec(text);
      if (said && Number(said[1]) !== toolCount) {
        problems.push({
          line,
          message: `the agent's log says "tools":${said[1]}, but the built server registers ${toolCount} tools: quote a real run`,
        });
      }
    }
  }
  return problems;
}

/** Tables headed `| tool | …` that leave out one of `toolNames`. */
export function toolTableProblems(prose, toolNames) {
  const problems = [];
  let table;
  const close = () => {
    if (!table) return;
    const missing = [...toolNames].filter((name) => !table.names.has(name));
    if (missing.length > 0) {
      problems.push({
        line: table.line,
        message: `this table of tools leaves out ${missing.map((name) => `\`${name}\``).join(', ')}, which the built server registers`,
      });
    }
    table = undefined;
  };
  for (const { line, text } of prose) {
    const [first] = /^\s*\|(.*)\|\s*$/.exec(text)?.[1]?.split('|') ?? [];
    if (first === undefined) {
      close();
      continue;
    }
    if (!table) {
      if (first.trim().toLowerCase() === 'tool') table = { line, names: new Set() };
      continue;
    }
    for (const [, name] of first.matchAll(/`([a-z][a-z0-9_]*)/g)) table.names.add(name);
  }
  close();
  return problems;
}
