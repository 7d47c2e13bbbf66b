/**
 * @module there
 * Reads "there" in a later clause as the place an earlier clause named: "the weather in Paris and
 * what time is it there?" asks for the time in Paris. Used by `planner.ts`; test: `there.test.ts`.
 */
import { findPlaces } from './places.js';

/** "there" that points at a place, not the "there is / are there" that says something exists. */
const POINTING_THERE = /(?<!\b(?:is|are|was|were|be)\s+)\bthere\b(?!\s*(?:is|are|was|were|will|'s|’s)\b)/iu;

/**
 * The clauses with a pointing "there" replaced by "in <place>", where the place is the one named
 * by the nearest earlier clause that names exactly one. A clause that names its own place, or
 * has no earlier place to point at, is left as it is.
 */
export function resolveThere(clauses: readonly string[]): string[] {
  let lastPlace: string | undefined;
  return clauses.map((clause) => {
    const own = findPlaces(clause);
    if (own.length > 0) {
      lastPlace = own.length === 1 ? own[0] : undefined;
      return clause;
    }
    return lastPlace && POINTING_THERE.test(clause)
      ? clause.replace(POINTING_THERE, `in ${lastPlace}`)
      : clause;
  });
}
