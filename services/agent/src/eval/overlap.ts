/**
 * @module eval/overlap
 * How much two tools' names and descriptions say the same thing: the Jaccard index of their
 * stemmed content words. Pure; used by `lint.ts` for its confusable-tools check. Test: `overlap.test.ts`.
 */

/** Words that carry no meaning of their own for picking a tool. */
const STOP_WORDS = new Set(
  (
    'a an and any are as at be by can do does for from get gets has have if in into is it its of on or ' +
    'so such than that the their them then there these this those to use used uses using via was what ' +
    'when which while who will with you your e g eg'
  ).split(' '),
);

/** Longer texts are cut before counting: the model only receives 1024 characters per description anyway. */
export const MAX_COMPARED_CHARS = 4096;

export interface Overlap {
  /** Shared content words divided by all distinct content words of the two, 0 to 1. */
  score: number;
  /** The stems both share, sorted. */
  shared: string[];
}

/** The distinct content-word stems of a tool's name and description. */
export function contentWords(name: string, description: string): Set<string> {
  const text = `${splitIdentifier(name)} ${description}`.slice(0, MAX_COMPARED_CHARS).toLowerCase();
  const words = new Set<string>();
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    words.add(stem(word));
  }
  return words;
}

export function overlapOf(first: ReadonlySet<string>, second: ReadonlySet<string>): Overlap {
  const shared = [...first].filter((word) => second.has(word)).sort();
  const union = first.size + second.size - shared.length;
  return { score: union === 0 ? 0 : shared.length / union, shared };
}

/** `get_weather`, `getWeather` and `get-weather` all become "get weather". */
function splitIdentifier(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
}

/**
 * A few English suffixes, so "tasks"/"task" and "listing"/"list" meet. A full stemmer would buy
 * little here: the check compares a tool list with itself, so both sides are stemmed alike.
 */
function stem(word: string): string {
  // No "es": it would turn "values" into "valu" while "value" stays whole.
  for (const suffix of ['ing', 'ies', 'ed', 's']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' ? `${base}y` : base;
    }
  }
  return word;
}
