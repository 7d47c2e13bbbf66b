/**
 * @module caveats
 * What a question asks that the calls made did not carry: a day or time the script cannot pick
 * out ("yesterday", "on 3 December", "at 5pm"; `days.ts` reads only today, tonight, tomorrow, the
 * day after tomorrow and weekdays), or arithmetic left out of every call ("10% of the temperature").
 * The answer says so before quoting the results, instead of answering as if it had read the whole
 * question. Used by `planner.ts`; test: `caveats.test.ts`.
 */
import { findExpression } from './expression.js';
import type { PlannedCall } from './types.js';

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const COUNT = String.raw`(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of)`;
/**
 * Days and times `days.ts` does not read. A month needs a day number beside it, so "may I" is no
 * date; "the next 5 days" is a count of forecast days, which `extract.ts` does read.
 */
const UNREAD_TIME = new RegExp(
  [
    String.raw`\byesterday\b`,
    String.raw`\blast\s+(?:night|week(?:end)?|month|year|(?:sun|mon|tues|wednes|thurs|fri|satur)day)\b`,
    String.raw`\b(?:next|this|coming)\s+(?:week(?:end)?|month|year)\b`,
    String.raw`\b${COUNT}\s+(?:hours?|minutes?|weeks?|months?|years?)\s+(?:ago|from\s+now)\b`,
    String.raw`\bin\s+${COUNT}\s+(?:hours?|minutes?|days?|weeks?|months?|years?)\b`,
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}\b`,
    String.raw`\b${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?\b`,
    String.raw`\b\d{4}-\d{2}-\d{2}\b`,
    String.raw`\bat\s+\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?`,
    String.raw`\b\d{1,2}(?::\d{2})?\s*[ap]\.?m\b\.?`,
    String.raw`\b(?:at\s+)?(?:noon|midnight)\b`,
  ].join('|'),
  'giu',
);
/** A few are enough to say what was not read. */
const MAX_CAVEATS = 3;

/** The string values of the calls' arguments, lower-cased: what was passed on to a tool. */
function passedOn(calls: readonly PlannedCall[]): string[] {
  return calls.flatMap((call) =>
    Object.values(call.arguments).flatMap((value) =>
      typeof value === 'string' ? [value.toLowerCase()] : [],
    ),
  );
}

/**
 * Sentences for the answer about what `question` asked that no call in `calls` carried. Empty
 * when every part that the script can tell apart was passed to a tool.
 */
export function caveatsFor(question: string, calls: readonly PlannedCall[]): string[] {
  const passed = passedOn(calls);
  const carried = (part: string) => passed.some((value) => value.includes(part.toLowerCase()));
  const times = [...new Set([...question.matchAll(UNREAD_TIME)].map((m) => m[0].trim()))].filter(
    (time) => !carried(time),
  );
  const caveats = times
    .slice(0, MAX_CAVEATS)
    .map(
      (time) =>
        `I could not take “${time}” into account: I only pick out today, tonight, tomorrow, the day after ` +
        'tomorrow and weekdays, so what follows is not about that time.',
    );
  const arithmetic = findExpression(question);
  if (arithmetic) {
    const written = question.slice(arithmetic.start, arithmetic.end).trim();
    if (!carried(written) && !carried(arithmetic.expression)) {
      caveats.push(
        `I did not calculate “${written}”: I can only calculate numbers written out in the question, not ` +
          "with a tool's result. Ask for the value first, then for the calculation with that number.",
      );
    }
  }
  return caveats;
}
