/**
 * @module expression-coverage
 * What `expression.ts` left out: arithmetic-looking parts of a message outside the expression it
 * found (another number, "percent", a unit after the last number, an unknown function's name).
 * Any of them means the expression covers only part of the question. Test: `expression.test.ts`.
 */

/** Words that do arithmetic; outside the expression they mean part of the question was not read. */
const MATH_WORDS =
  /\b(?:percent(?:age)?|per\s+cent|squared?|cubed?|roots?|powers?|half|halves|double|twice|triple|thrice|sum|product|difference|quotient|remainder|average|mean|median|factorial|plus|minus|times|divided|multiplied|add|subtract|multiply|divide|increased?|decreased?)\b/giu;
/** Numbers (with thousands separators or decimals) and operator signs. `-` is left out: "COVID-19", "follow-up". */
const NUMBERS_AND_SIGNS = /\d+(?:[.,]\d+)*|[+*/^%×÷]/gu;
/** Words that may follow an expression without changing it: "2 + 2 please", "compute 2^10 for me". */
const HARMLESS_AFTER = new Set([
  'please',
  'thanks',
  'thank',
  'for',
  'me',
  'us',
  'and',
  'then',
  'also',
  'now',
  'is',
  'exactly',
  'precisely',
  'again',
]);
/** Enough to tell the user what was not understood; a long list would only repeat itself. */
const MAX_REPORTED = 4;

/**
 * The parts of `text` outside `[start, end)` that look like arithmetic, in order of appearance,
 * plus a word glued after the expression ("5 + 3 km", "10 + 5 apples") and a name glued before
 * its bracket ("hypot(3, 4)" when hypot is no known function).
 */
export function untranslatedAround(text: string, start: number, end: number): string[] {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const found: Array<{ at: number; text: string }> = [];
  for (const [part, offset] of [
    [before, 0],
    [after, end],
  ] as const) {
    for (const pattern of [MATH_WORDS, NUMBERS_AND_SIGNS]) {
      for (const m of part.matchAll(pattern)) found.push({ at: offset + (m.index ?? 0), text: m[0] });
    }
  }
  const following = /^\s*([\p{L}][\p{L}\p{N}]*)/u.exec(after);
  if (following?.[1] && !HARMLESS_AFTER.has(following[1].toLowerCase())) {
    found.push({ at: end + following[0].length - following[1].length, text: following[1] });
  }
  const glued = /([\p{L}][\p{L}\p{N}]*)$/u.exec(before);
  if (glued?.[1] && text[start] === '(') found.push({ at: glued.index, text: glued[1] });
  const unique = new Map(found.sort((a, b) => a.at - b.at).map((hit) => [hit.at, hit.text]));
  return [...unique.values()].slice(0, MAX_REPORTED);
}
