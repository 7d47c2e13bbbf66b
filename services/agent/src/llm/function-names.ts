/**
 * @module llm/function-names
 * Turns MCP tool names (up to 128 characters, dots, any Unicode) into OpenAI function names
 * (`^[a-zA-Z0-9_-]{1,64}$`). Deterministic and independent of tool order, so a refreshed tool
 * list keeps its names. Used by `functions.ts`; test: `function-names.test.ts`.
 */
import { createHash } from 'node:crypto';

/** OpenAI rejects the whole request when any function name is longer than this. */
export const MAX_FUNCTION_NAME_LENGTH = 64;

/**
 * 8 hex characters (32 bits) tell names apart: two long names in a few hundred tools collide with
 * odds of about 1 in 100,000, and even then the counter in {@link assignFunctionNames} separates them.
 */
export const NAME_HASH_LENGTH = 8;

/** What is left of the readable name once `_` and the hash are appended: 55 characters. */
const NAME_PREFIX_LENGTH = MAX_FUNCTION_NAME_LENGTH - NAME_HASH_LENGTH - 1;

/** Used when nothing of a name survives (MCP forbids empty names, but a server may send one). */
const EMPTY_NAME_REPLACEMENT = 'tool';

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const COMBINING_MARKS = /\p{M}/gu;
const INVALID_CHARACTER = /[^a-zA-Z0-9_-]/u;

/** One thing to name: `base` is the readable name, `identity` tells two tools with the same base apart. */
export interface NameRequest {
  base: string;
  /** Unique per tool, e.g. `server\u0000name`; it seeds the hash that separates colliding names. */
  identity: string;
}

/** True when OpenAI accepts `name` as a function name. */
export function isValidFunctionName(name: string): boolean {
  return VALID_NAME.test(name);
}

/** The first {@link NAME_HASH_LENGTH} hex digits of the SHA-256 of `text`. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, NAME_HASH_LENGTH);
}

/**
 * Replaces every character OpenAI does not accept with `_`, one `_` per character (not per UTF-16
 * unit). Accents are folded first ("café" → "cafe") because a readable name helps the model pick the tool.
 */
export function sanitizeFunctionName(name: string): string {
  const folded = name.normalize('NFKD').replace(COMBINING_MARKS, '');
  let out = '';
  for (const character of folded) out += INVALID_CHARACTER.test(character) ? '_' : character;
  return out === '' ? EMPTY_NAME_REPLACEMENT : out;
}

/** `prefix_hash`: the readable start of `sanitized` plus a hash of `hashSource`, exactly 64 characters at most. */
function withHash(sanitized: string, hashSource: string): string {
  return `${sanitized.slice(0, NAME_PREFIX_LENGTH)}_${shortHash(hashSource)}`;
}

/**
 * The sanitised name, shortened when it is too long: the first 55 characters, `_`, and 8 hex digits
 * of the SHA-256 of the original `base`, so two long names with the same start stay apart.
 */
export function fitFunctionName(base: string): string {
  const sanitized = sanitizeFunctionName(base);
  return sanitized.length <= MAX_FUNCTION_NAME_LENGTH ? sanitized : withHash(sanitized, base);
}

/**
 * Names every request, in the order given. When several requests end up with the same name, the one
 * whose name needed no change keeps it (ties go to the smallest `identity`); the others get a hash of
 * their `identity` appended. Only the set of requests matters, not their order.
 */
export function assignFunctionNames(requests: readonly NameRequest[]): string[] {
  const candidates = requests.map((request) => fitFunctionName(request.base));
  const groups = new Map<string, number[]>();
  candidates.forEach((candidate, index) => {
    const group = groups.get(candidate);
    if (group) group.push(index);
    else groups.set(candidate, [index]);
  });

  const names: string[] = new Array<string>(requests.length).fill('');
  const taken = new Set<string>();
  const losers: number[] = [];
  for (const [candidate, members] of groups) {
    const [winner, ...rest] = [...members].sort((a, b) => compareClaims(requests, candidates, a, b));
    if (winner === undefined) continue;
    names[winner] = candidate;
    taken.add(candidate);
    losers.push(...rest);
  }

  // Sorted so that which loser meets a (vanishingly rare) second collision does not depend on input order.
  losers.sort((a, b) => compareIdentity(requests, a, b));
  for (const index of losers) {
    const request = requests[index];
    if (!request) continue;
    const sanitized = sanitizeFunctionName(request.base);
    let attempt = 0;
    let name = withHash(sanitized, request.identity);
    while (taken.has(name)) {
      attempt += 1;
      name = withHash(sanitized, `${request.identity}#${attempt}`);
    }
    names[index] = name;
    taken.add(name);
  }
  return names;
}

/** Exact names first (the tool really is called that), then by identity. */
function compareClaims(
  requests: readonly NameRequest[],
  candidates: readonly string[],
  a: number,
  b: number,
) {
  const exactA = candidates[a] === requests[a]?.base ? 0 : 1;
  const exactB = candidates[b] === requests[b]?.base ? 0 : 1;
  return exactA - exactB || compareIdentity(requests, a, b);
}

function compareIdentity(requests: readonly NameRequest[], a: number, b: number): number {
  const left = requests[a]?.identity ?? '';
  const right = requests[b]?.identity ?? '';
  if (left === right) return a - b;
  return left < right ? -1 : 1;
}
