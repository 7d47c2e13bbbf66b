/**
 * @module eval/matchers
 * Argument expectations of an eval case. Under each argument name a case writes either a plain
 * value, which the model's argument must equal, or one matcher:
 *   { mentions: "Oslo" }   a string containing it, case-insensitively ("Oslo, Norway" passes);
 *   { matches: "^\\d+$" }  a string matching the regular expression (case-insensitive);
 *   { oneOf: [a, b] }      equal to one of the values;
 *   { absent: true }       not sent, or null (strict mode sends null for an optional argument);
 *   { present: true }      sent, and not null;
 *   { equals: {...} }      equal to the value, for an object that would read as a matcher.
 * Arguments a case does not name are not judged: the case says what matters, nothing more.
 */
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '@mcp-workshop/shared';

export type ArgumentExpectations = Record<string, unknown>;

const MATCHERS = ['mentions', 'matches', 'oneOf', 'absent', 'present', 'equals'] as const;
type MatcherName = (typeof MATCHERS)[number];
/** Regular expressions come from case files; a short one cannot hide catastrophic backtracking for long. */
const MAX_PATTERN_CHARS = 200;

/** The matcher an expectation is, or undefined for a plain value. */
function matcherOf(expected: unknown): { name: MatcherName; operand: unknown } | undefined {
  if (!isRecord(expected)) return undefined;
  const keys = Object.keys(expected);
  const name = keys[0] as MatcherName;
  if (keys.length !== 1 || !MATCHERS.includes(name)) return undefined;
  return { name, operand: expected[name] };
}

/** Why `expectations` cannot be used, or undefined when every matcher is well formed. */
export function checkExpectations(expectations: ArgumentExpectations): string | undefined {
  for (const [argument, expected] of Object.entries(expectations)) {
    const matcher = matcherOf(expected);
    if (!matcher) continue;
    const { name, operand } = matcher;
    const bad = (what: string) => `${argument}: ${name} takes ${what}`;
    if (name === 'mentions' && (typeof operand !== 'string' || operand === ''))
      return bad('a non-empty string');
    if (name === 'matches') {
      if (typeof operand !== 'string' || operand === '' || operand.length > MAX_PATTERN_CHARS)
        return bad(`a regular expression of 1 to ${MAX_PATTERN_CHARS} characters`);
      try {
        new RegExp(operand, 'i');
      } catch (error) {
        return `${argument}: matches: ${error instanceof Error ? error.message : error}`;
      }
    }
    if (name === 'oneOf' && (!Array.isArray(operand) || operand.length === 0)) return bad('a non-empty list');
    if ((name === 'absent' || name === 'present') && operand !== true) return bad('true');
  }
  return undefined;
}

/** What is wrong with `actual` against `expectations`, one line each; [] when it satisfies them. */
export function matchArguments(expectations: ArgumentExpectations, actual: unknown): string[] {
  const args = isRecord(actual) ? actual : {};
  const problems: string[] = [];
  for (const [argument, expected] of Object.entries(expectations)) {
    const value = args[argument];
    const problem = mismatch(expected, value);
    if (problem) problems.push(`${argument}: ${problem}, got ${shown(value)}`);
  }
  return problems;
}

function mismatch(expected: unknown, value: unknown): string | undefined {
  const matcher = matcherOf(expected);
  if (!matcher) return isDeepStrictEqual(value, expected) ? undefined : `expected ${shown(expected)}`;
  const { name, operand } = matcher;
  switch (name) {
    case 'mentions':
      return typeof value === 'string' && value.toLowerCase().includes(String(operand).toLowerCase())
        ? undefined
        : `expected a mention of ${shown(operand)}`;
    case 'matches':
      return typeof value === 'string' && new RegExp(String(operand), 'i').test(value)
        ? undefined
        : `expected a match for /${operand}/i`;
    case 'oneOf':
      return (operand as unknown[]).some((option) => isDeepStrictEqual(option, value))
        ? undefined
        : `expected one of ${shown(operand)}`;
    case 'absent':
      return value === undefined || value === null ? undefined : 'expected it absent';
    case 'present':
      return value === undefined || value === null ? 'expected a value' : undefined;
    case 'equals':
      return isDeepStrictEqual(value, operand) ? undefined : `expected ${shown(operand)}`;
  }
}

/** A value as the report shows it: JSON, cut short. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
