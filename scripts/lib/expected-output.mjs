// @ts-check
/**
 * Compares a quoted "what you will see" block in the docs with the real output of its command,
 * for scripts/check-docs.mjs (` ```text output-of=NAME `). Pure: `expected-output.test.mjs` covers it.
 *
 * Both sides are read line by line, and these never count:
 *   - blank lines, trailing spaces and ANSI colour codes;
 *   - lines pnpm, turbo and the build's progress print around a script ({@link DROPPED_LINES}),
 *     which the docs leave out;
 *   - volatile values, replaced on both sides by a placeholder ({@link VOLATILE_RULES}): times,
 *     durations, dates, ids, ports, process ids, temp paths, rate-limit resets, and the offline
 *     weather's numbers;
 *   - in the quoted block, a line that is only `…` (or `...`) stands for any number of lines, and
 *     a `…` inside a line for any text (`{"place":{"name":"Oslo", …` cuts a long line).
 */

/** A quoted line that is only this stands for zero or more lines of output. */
const SKIP_LINE = /^\s*(?:…|\.\.\.)\s*$/;
/** Inside a quoted line, `…` (with the spaces around it) stands for any text. */
const WILDCARD = /\s*…\s*/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Weather fields whose numbers change with the date and the hour (services/mcp-server/src/weather). */
const WEATHER_FIELDS =
  'temperatureC|feelsLikeC|minC|maxC|precipitationMm|humidityPercent|windSpeedKmh|weatherCode';
const NUMBER = String.raw`-?\d+(?:\.\d+)?`;

/**
 * Volatile values → placeholders, applied in this order to every line of both sides. Each rule
 * is [what it covers, pattern, replacement]. The repository path and the scratch copy's path
 * become `<repo>` before these run (see {@link normalise}).
 */
export const VOLATILE_RULES = [
  ['temp paths', /(?:\/tmp|\/var\/folders)\/[^\s"'`,;:)]+/g, '<tmp>'],
  [
    'ISO timestamps',
    /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
    '<timestamp>',
  ],
  [
    'HTTP dates',
    /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT\b/g,
    '<http-date>',
  ],
  // Not a protocol revision ("protocol 2026-07-28", "protocolVersion":"2025-11-25"): those are content.
  ['dates', /(?<!(?:protocol|[Vv]ersions?)\W{1,4})\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  ['clock times', /\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '<time>'],
  ['weekdays', /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g, '<weekday>'],
  ['UUIDs', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  ['hex ids (call ids, tokens)', /(?<![0-9A-Za-z])[0-9a-f]{16,}(?![0-9A-Za-z])/g, '<id>'],
  ['local ports', /\b(127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1?\]):\d{2,5}\b/g, '$1:<port>'],
  ['process ids', /\b(process |"pid"\s*:\s*)\d+/g, '$1<pid>'],
  ['epoch times', /(?<![\d.])1\d{9}(?:\d{3})?(?![\d.])/g, '<epoch>'],
  ['timing fields', /("(?:durationMs|elapsedMs|uptimeSeconds)"\s*:\s*)\d+(?:\.\d+)?/g, '$1<n>'],
  // The seconds until a rate-limit window resets: 60 or 59, depending on when the call landed.
  [
    'rate-limit resets',
    /(\bRetry-After:\s*|\bRateLimit:[^\n]*?;\s*t=|\\?"retryAfterSeconds\\?"\s*:\s*)\d+/gi,
    '$1<n>',
  ],
  ['durations', /(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s)\b/g, '<duration>'],
  ['temperature ranges', new RegExp(`${NUMBER} to ${NUMBER} ?°C`, 'g'), '<n> to <n> °C'],
  ['temperatures', new RegExp(`${NUMBER} ?°C`, 'g'), '<n> °C'],
  [
    'weather fields (JSON)',
    new RegExp(`(\\\\?"(?:${WEATHER_FIELDS})\\\\?"\\s*:\\s*)${NUMBER}`, 'g'),
    '$1<n>',
  ],
  ['weather fields (prose)', new RegExp(`\\b(${WEATHER_FIELDS}) ${NUMBER}`, 'g'), '$1 <n>'],
  ['conditions (JSON)', /(\\?"conditions\\?"\s*:\s*\\?")[^"\\]+/g, '$1<conditions>'],
  ['conditions (prose)', /\bconditions "[^"]+"/g, 'conditions "<conditions>"'],
  ['conditions (summary)', /(<n> °C, )[a-z][a-z ]*?( now\b)/g, '$1<conditions>$2'],
  ['lengths of cut values', /\(\d+ chars\)/g, '(<n> chars)'],
];

/** Lines never compared: what pnpm and turbo print around a root script (the docs leave them out). */
export const DROPPED_LINES = [
  // turbo's header and summary, e.g. "   • Packages in scope: …", " Tasks:    5 successful, 5 total".
  /^\s*• (?:turbo \d|Packages in scope:|Running \S+ in \d+ packages?|Remote caching)/,
  /^\s*(?:Tasks|Cached|Time):\s{2,}/,
  /^\s*>>> FULL TURBO/,
  // The build's progress before `pnpm ask`/`demo`/`chat` (scripts/lib/build-progress.mjs), e.g.
  // "build:  3/12 services/agent (21 s)": it shows only when something changed since their last build.
  /^build: {2}\S/,
  // pnpm's last word when a script fails: " ELIFECYCLE  Command failed with exit code 1."
  /^\s*ELIFECYCLE\s+Command failed/,
];
/** pnpm's banner: "> name@version script /dir", then "> the command" (dropped with it). */
const PNPM_BANNER = /^> \S+@\S+ \S+ \S/;

/** `text` with volatile values replaced; `roots` (absolute paths) become `<repo>`. */
export function normalise(text, roots = []) {
  let out = text;
  for (const root of [...roots].sort((a, b) => b.length - a.length)) out = out.split(root).join('<repo>');
  for (const [, pattern, replacement] of VOLATILE_RULES) out = out.replace(pattern, replacement);
  return out;
}

/** Output lines worth comparing: { raw, text (normalised), before (blank lines above it) }. */
export function outputLines(output, roots = []) {
  const lines = [];
  let blanks = [];
  let inBanner = false;
  for (const rawLine of output.replace(ANSI, '').split(/\r?\n/)) {
    const raw = rawLine.trimEnd();
    if (PNPM_BANNER.test(raw) || (inBanner && raw.startsWith('> '))) {
      inBanner = true;
      continue;
    }
    inBanner = false;
    if (DROPPED_LINES.some((re) => re.test(raw))) {
      blanks = []; // the blank lines around a banner belong to it
      continue;
    }
    if (raw.trim() === '') {
      blanks.push(raw);
      continue;
    }
    lines.push({ raw, text: normalise(raw, roots), before: blanks });
    blanks = [];
  }
  return lines;
}

/** Quoted lines: { raw, skip: true } for `…` lines, else { raw, pattern } matching a normalised line. */
export function expectedLines(quoted, roots = []) {
  return outputLines(quoted, roots).map((line) => {
    if (SKIP_LINE.test(line.raw)) return { ...line, skip: true };
    const parts = line.text.split(WILDCARD).map(escapeRegExp);
    return { ...line, pattern: new RegExp(`^${parts.join('.*?')}$`, 'u') };
  });
}

/**
 * Compares quoted output with real output. Returns { ok, diff, updated }:
 *   diff     the differences as `- quoted` / `+ actual` lines with context ('' when ok)
 *   updated  the quoted block rewritten from the real output, keeping its `…` cuts (the lines
 *            cut and the lines skipped) where they still match (for `check-docs --update`)
 * @param {string} quoted
 * @param {string} actual
 * @param {{ roots?: string[], context?: number }} [options] roots: folders written as `<root>` in quotes
 */
export function compareOutput(quoted, actual, { roots = [], context = 2 } = {}) {
  const expected = expectedLines(quoted, roots);
  const real = outputLines(actual, roots);
  const ops = align(expected, real);
  const ok = ops.every((op) => op.kind === 'same' || op.kind === 'skip');
  return { ok, diff: ok ? '' : formatDiff(ops, context), updated: rebuild(ops, roots) };
}

/**
 * Cheapest alignment (edit distance over lines), where a skip line absorbs any run for free. Among
 * equally few edits, the one that matches the most quoted lines wins, so the diff stays small.
 */
const EDIT = 1_000_000;
const MATCH = -1;

function align(expected, real) {
  const E = expected.length;
  const A = real.length;
  const width = A + 1;
  const cost = new Array((E + 1) * width).fill(0);
  const at = (i, j) => cost[i * width + j];
  const matches = (i, j) => expected[i].pattern.test(real[j].text);
  for (let i = E; i >= 0; i--) {
    for (let j = A; j >= 0; j--) {
      if (i === E) {
        cost[i * width + j] = (A - j) * EDIT;
        continue;
      }
      if (expected[i].skip) {
        cost[i * width + j] = j === A ? at(i + 1, j) : Math.min(at(i + 1, j), at(i, j + 1));
        continue;
      }
      let best = EDIT + at(i + 1, j);
      if (j < A) {
        best = Math.min(best, EDIT + at(i, j + 1));
        if (matches(i, j)) best = Math.min(best, MATCH + at(i + 1, j + 1));
      }
      cost[i * width + j] = best;
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < E || j < A) {
    const here = at(i, j);
    if (i < E && expected[i].skip) {
      const absorbed = [];
      // Take as few lines as the cheapest alignment allows, so the diff shows drift near the cut.
      while (j < A && at(i + 1, j) !== at(i, j)) absorbed.push(real[j++]);
      ops.push({ kind: 'skip', expected: expected[i++], real: absorbed });
    } else if (i < E && j < A && matches(i, j) && MATCH + at(i + 1, j + 1) === here) {
      ops.push({ kind: 'same', expected: expected[i++], real: real[j++] });
    } else if (i < E && EDIT + at(i + 1, j) === here) {
      ops.push({ kind: 'missing', expected: expected[i++] });
    } else {
      ops.push({ kind: 'extra', real: real[j++] });
    }
  }
  return ops;
}

function formatDiff(ops, context) {
  const rows = ops.map((op) => {
    if (op.kind === 'same') return { changed: false, text: `  ${op.expected.raw}` };
    if (op.kind === 'skip') {
      const n = op.real.length;
      return { changed: false, text: `  ${op.expected.raw} (${n} line${n === 1 ? '' : 's'})` };
    }
    if (op.kind === 'missing') return { changed: true, text: `- ${op.expected.raw}` };
    return { changed: true, text: `+ ${op.real.raw}` };
  });
  const keep = rows.map(() => false);
  rows.forEach((row, index) => {
    if (!row.changed) return;
    for (let k = Math.max(0, index - context); k <= Math.min(rows.length - 1, index + context); k++)
      keep[k] = true;
  });
  const out = [];
  rows.forEach((row, index) => {
    if (!keep[index]) return;
    if (out.length > 0 && !keep[index - 1]) out.push('  ⋮');
    out.push(row.text);
  });
  return out.join('\n');
}

function rebuild(ops, roots) {
  const out = [];
  for (const op of ops) {
    if (op.kind === 'missing') continue;
    const line = op.kind === 'extra' ? op.real : op.expected;
    // A quote keeps its own spacing; a new line brings at most one blank line, none at the top.
    const before = op.kind === 'extra' ? line.before.slice(0, 1) : line.before;
    if (out.length > 0) out.push(...before);
    // Matched lines are retaken from the real run, so ports, ids and numbers agree across the block.
    out.push(op.kind === 'same' ? retake(op.expected.raw, op.real.raw, roots) : line.raw);
  }
  return out.join('\n');
}

/**
 * The real line in place of a matched quoted one: whole when the quote is uncut; cut at the same
 * place when the quote ends in `…` (the shortest prefix that reads the same once normalised);
 * the quote itself when it is cut in the middle.
 */
function retake(quoted, real, roots) {
  if (!WILDCARD.test(quoted)) return real;
  const [, head, ellipsis] = /^(.*?)(\s*…\s*)$/.exec(quoted) ?? [];
  if (head === undefined || ellipsis === undefined || WILDCARD.test(head)) return quoted;
  const target = normalise(head, roots);
  for (let k = 1; k <= real.length; k++) {
    if (normalise(real.slice(0, k), roots) === target) return real.slice(0, k) + ellipsis;
  }
  return quoted;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
