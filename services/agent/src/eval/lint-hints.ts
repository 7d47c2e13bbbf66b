/**
 * @module eval/lint-hints
 * What a parameter's description says that its schema could enforce: a list of allowed values
 * (an enum), or a well-known format (email, URL, date, time). Pure functions. Test: `lint.test.ts`.
 */

/**
 * Example clauses ("e.g. "Oslo" or "Paris"") list samples, not the allowed values, so they are
 * removed before looking for a list: up to the end of the sentence or a semicolon.
 */
const EXAMPLE_CLAUSE = /\b(?:e\.g\.|eg\.|for example|for instance|such as)[^;]*?(?:\.(?=\s|$)|;|$)/gi;
/** Two quoted values joined by a comma, "or" or "|": `"open", "done" or "all"`, `'x' or 'y'`. */
const QUOTED_PAIR =
  /(?<![\p{L}\p{N}])["'`“]([^"'`”\n]{1,60})["'`”](?![\p{L}\p{N}])\s*(?:,\s*(?:or\s+)?|\s+or\s+|\s*\|\s*)["'`“]([^"'`”\n]{1,60})["'`”](?![\p{L}\p{N}])/u;
const QUOTED_VALUE = /(?<![\p{L}\p{N}])["'`“]([^"'`”\n]{1,60})["'`”](?![\p{L}\p{N}])/gu;
/** "one of a, b or c" / "one of: a | b": a short list right after the phrase. */
const ONE_OF = /\bone of\s*:?\s*([^.;()]+)/i;
/** `metric|imperial`: bare words joined by pipes. */
const PIPE_LIST = /(?<![\p{L}\p{N}|])[\p{L}\p{N}_-]+(?:\s*\|\s*[\p{L}\p{N}_-]+)+/u;
/** Items longer than this are phrases, not values ("one of the user's tasks"). */
const MAX_VALUE_WORDS = 2;

/** The allowed values a description spells out, or undefined when it lists none. */
export function listedValues(description: string): string[] | undefined {
  const text = description.replace(EXAMPLE_CLAUSE, ' ');
  const pair = QUOTED_PAIR.exec(text);
  if (pair) {
    const sentence = text.slice(pair.index).split(/\.(?=\s|$)|;/)[0] ?? '';
    return [...sentence.matchAll(QUOTED_VALUE)].map((match) => match[1] ?? '');
  }
  const oneOf = ONE_OF.exec(text);
  if (oneOf?.[1]) {
    const items = oneOf[1]
      .split(/\s*(?:,\s*or\b|,|\bor\b|\|)\s*/)
      .map((item) => item.trim())
      .filter((item) => item !== '');
    if (items.length >= 2 && items.every((item) => countWords(item) <= MAX_VALUE_WORDS)) return items;
  }
  const pipes = PIPE_LIST.exec(text);
  return pipes ? pipes[0].split('|').map((item) => item.trim()) : undefined;
}

interface FormatSuggestion {
  what: string;
  format: string;
  zod: string;
}

const FORMATS = {
  email: { what: 'email address', format: 'email', zod: 'z.email()' },
  uri: { what: 'URL', format: 'uri', zod: 'z.url()' },
  date: { what: 'date', format: 'date', zod: 'z.iso.date()' },
  dateTime: { what: 'date and time', format: 'date-time', zod: 'z.iso.datetime()' },
  time: { what: 'time of day', format: 'time', zod: 'z.iso.time()' },
} satisfies Record<string, FormatSuggestion>;

/** From the parameter's own name first (`dueDate`, `website_url`), then from telling phrases in its description. */
export function formatHint(path: string, description: string): FormatSuggestion | undefined {
  const words = new Set(
    (path.split('.').pop() ?? path)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/),
  );
  const has = (...names: string[]) => names.some((name) => words.has(name));
  if (has('email', 'mail')) return FORMATS.email;
  if (has('url', 'uri', 'href', 'link', 'website', 'homepage')) return FORMATS.uri;
  if (has('datetime', 'timestamp') || (has('date') && has('time'))) return FORMATS.dateTime;
  if (has('date', 'birthday')) return FORMATS.date;
  // "time_zone" is a zone name, not a time of day.
  if (has('time') && !has('zone')) return FORMATS.time;
  const text = description.toLowerCase();
  if (/\be-?mail address\b/.test(text)) return FORMATS.email;
  if (/\b(?:url|uri|web address)\b/.test(text)) return FORMATS.uri;
  if (/\byyyy-mm-dd\b/.test(text) && !/\bhh:mm\b|\bt\d|\bthh\b/.test(text)) return FORMATS.date;
  if (/\b(?:iso[ -]?8601|rfc ?3339)\b/.test(text)) return FORMATS.dateTime;
  return undefined;
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
