/**
 * @module extract
 * Fills one tool's arguments from the user's message, guided only by each parameter's JSON
 * Schema: its type, enum, name and description. Used by `planner.ts`; test: `extract.test.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import { findExpression, functionsIn } from './expression.js';
import { findPlaces, findTimeZones, GENERIC_PLACE_PREPOSITIONS } from './places.js';
import { concept, STOPWORDS, schemaProperties, stem, words } from './score.js';
import type { PlannerTool } from './types.js';

/** "Weather in Oslo, Bergen and Paris" is three calls in one turn; a longer list takes more turns. */
export const MAX_CALLS_PER_TURN = 3;
/**
 * A list of up to this many values ("weather in A, B, C, D and E") is asked for over two turns;
 * a longer one is more likely a misreading, and is refused rather than cut short.
 */
export const MAX_VALUES_PER_PARAMETER = 2 * MAX_CALLS_PER_TURN;
/** Titles and queries are one line; longer text means we cut out the wrong part. */
const MAX_TEXT_LENGTH = 200;

type Kind = 'enum' | 'boolean' | 'id' | 'number' | 'timezone' | 'expression' | 'place' | 'text' | 'other';

/** A required parameter the message does not fill, for the "what's missing" answer. */
export interface MissingParameter {
  name: string;
  description?: string;
  /** What the message had that came close, e.g. a place with no known time zone. */
  note?: string;
  /**
   * Arithmetic in the message that could not be turned into an expression as a whole ("5 + 3
   * km": "km"); present, even empty, when the parameter wants an expression.
   */
  untranslated?: string[];
  /** The message names more values for it ("weather in A, B, …") than one question may ask about. */
  tooMany?: { count: number; limit: number };
}

export interface Extraction {
  /** One argument object per call; several when the message lists several places. */
  calls: Array<Record<string, unknown>>;
  missing: MissingParameter[];
}

/** Nouns a message uses before an id or a title ("task 3", "add a note: …"), besides the tool's own name words. */
const GENERIC_NOUNS = [
  'task',
  'todo',
  'item',
  'note',
  'entry',
  'record',
  'reminder',
  'ticket',
  'event',
  'order',
];
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function schemaType(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

/** What sort of value a parameter wants, read from its schema; the name counts before the prose. */
export function kindOf(name: string, schema: Record<string, unknown>): Kind {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return 'enum';
  const type = schemaType(schema);
  const nameText = words(name).join(' ');
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') {
    return /\b(?:id|identifier|index|no|nr)\b/.test(nameText) ? 'id' : 'number';
  }
  if (type !== undefined && type !== 'string') return 'other';
  const description = typeof schema.description === 'string' ? schema.description.toLowerCase() : '';
  // A page cursor is a token from an earlier answer, never in the user's words: leave it to the tool.
  if (/\b(?:cursor|page token)\b/.test(nameText) || /\bnext ?cursor\b/.test(description)) return 'other';
  for (const text of [nameText, description]) {
    if (/\btime ?zones?\b|\btz\b|\biana\b/.test(text)) return 'timezone';
    if (/\b(?:expression|formula|arithmetic|equation)\b/.test(text)) return 'expression';
    if (/\b(?:location|place|city|town|country|region|address|origin|destination|airport)\b/.test(text)) {
      return 'place';
    }
  }
  return 'text';
}

/** Which prepositions introduce this parameter's value: "from" for an origin, "to" for a destination. */
function prepositionsFor(name: string): readonly string[] {
  const text = words(name).join(' ');
  if (/\b(?:origin|from|departure|depart|source|start)\b/.test(text)) return ['from'];
  if (/\b(?:destination|dest|to|arrival|target)\b/.test(text)) return ['to', 'into'];
  return GENERIC_PLACE_PREPOSITIONS;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The parameter's name as a pattern that also matches "time zone", "time_zone" and "timezone". */
function namePattern(name: string): string {
  return words(name).map(escapeRegExp).join('[\\s_-]?');
}

/** `name: value` or `name = value`, written out by the user. */
function explicitValue(text: string, name: string, rest: boolean): string | undefined {
  if (words(name).length === 0) return undefined;
  const value = rest ? '(.+)' : '("[^"]*"|\'[^\']*\'|[^\\s,;]+)';
  const match = new RegExp(`(?<![\\p{L}\\p{N}])${namePattern(name)}\\s*[:=]\\s*${value}`, 'iu').exec(text);
  return match?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2');
}

/** The first quoted phrase; a single quote only counts with space around it, so "what's" stays whole. */
export function firstQuoted(text: string): string | undefined {
  const match = /"([^"\n]+)"|“([^”\n]+)”|«([^»\n]+)»|(?:^|[\s:(])'([^'\n]+)'(?=$|[\s.,!?;:)])/u.exec(text);
  const quoted = match?.slice(1).find((group) => group !== undefined);
  return quoted?.trim() || undefined;
}

function cleanText(raw: string, nouns: readonly string[]): string | undefined {
  const nounAlternation = [...nouns, 'list'].map(escapeRegExp).join('|');
  const trailing = new RegExp(
    `\\s+(?:to|on|onto|in)\\s+(?:my|the|our)\\s+(?:(?:${nounAlternation})s?\\s*)+$`,
    'iu',
  );
  const text = raw
    .trim()
    .replace(/[.!?]+$/u, '')
    .replace(trailing, '')
    .replace(/^(?:please\s+)|(?:,?\s+please)$/iu, '')
    .trim();
  // "add a task" alone leaves "task": a phrase of only nouns and filler words is no title.
  const meaningful = words(text).some(
    (word) => !STOPWORDS.has(word) && !nouns.includes(word.replace(/s$/, '')),
  );
  return meaningful ? text.slice(0, MAX_TEXT_LENGTH) : undefined;
}

/** A title or query: quoted text, else what follows "called …", "remind me to …" or "add a task to …". */
function findText(text: string, nouns: readonly string[]): string | undefined {
  const quoted = firstQuoted(text);
  if (quoted) return quoted.slice(0, MAX_TEXT_LENGTH);
  const nounAlternation = nouns.map(escapeRegExp).join('|');
  const triggers = [
    /\b(?:called|named|titled|saying|that says)\s+(.+)$/iu,
    /\b(?:remind me to|remember to)\s+(.+)$/iu,
    new RegExp(
      `\\b(?:add|create|new|make|put|save|record|insert|note)\\b(?:\\s+(?:a|an|the|new|my|another|one))*` +
        `(?:\\s+(?:${nounAlternation})s?)?\\s*(?::|\\bto\\b|\\bfor\\b|\\babout\\b|\\bthat\\b)?\\s*(.+)$`,
      'iu',
    ),
    /(?:^|\s):\s*(.+)$/u,
    /\b(?:for|about)\s+(.+)$/iu,
  ];
  for (const trigger of triggers) {
    const match = trigger.exec(text);
    const found = match?.[1] ? cleanText(match[1], nouns) : undefined;
    if (found) return found;
  }
  return undefined;
}

interface NumberHit {
  value: number;
  index: number;
}

function numbersIn(text: string): NumberHit[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}.])(-?\d+(?:\.\d+)?)(?![\p{N}])/gu)].map((m) => ({
    value: Number(m[1]),
    index: m.index ?? 0,
  }));
}

/** More ids after the first: "3 and 4", "3, 4 and #5". */
const MORE_IDS = String.raw`((?:\s*(?:,|and|&|,\s*and)\s*#?\s*\d+(?!\.?\d))*)`;

/**
 * The ids the message names: "#3", "id 3", "task 3", "tasks 3 and 4", or the only integer in the
 * message. Every id listed is returned, so "complete tasks 3 and 4" is not done for 3 alone.
 */
function findIds(text: string, nouns: readonly string[]): number[] {
  const nounAlternation = nouns.map(escapeRegExp).join('|');
  // `(?!\.?\d)`: "id 2.5" is no id, but "task 2." at the end of a sentence is.
  const patterns = [
    new RegExp(String.raw`#\s*(\d+)(?!\.?\d)${MORE_IDS}`, 'u'),
    new RegExp(String.raw`\b(?:ids?|numbers?|no\.?|nr)\s*[:=#]?\s*(\d+)(?!\.?\d)${MORE_IDS}`, 'iu'),
    new RegExp(
      String.raw`\b(?:${nounAlternation})s?\s+(?:#|no\.?|number)?\s*(\d+)(?!\.?\d)${MORE_IDS}`,
      'iu',
    ),
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1]) return [...`${match[1]} ${match[2] ?? ''}`.matchAll(/\d+/g)].map((m) => Number(m[0]));
  }
  const integers = numbersIn(text).filter((hit) => Number.isInteger(hit.value));
  return integers.length === 1 && integers[0] ? [integers[0].value] : [];
}

/** A count or amount: "3 days", "days: 3", "two days"; a required one takes the first unused number. */
function findNumber(text: string, name: string, required: boolean, used: Set<number>): number | undefined {
  const unit = words(name)
    .filter((word) => !STOPWORDS.has(word))
    .map((word) => `${escapeRegExp(stem(word))}\\p{L}*`)
    .join('\\s*');
  if (unit) {
    const numberWord = `(\\d+(?:\\.\\d+)?|${NUMBER_WORDS.join('|')})`;
    const after = new RegExp(`${numberWord}[\\s-]*(?:more\\s+|next\\s+)?${unit}`, 'iu').exec(text);
    const before = new RegExp(`(?<![\\p{L}])${unit}\\s*(?:[:=]|of)?\\s*${numberWord}`, 'iu').exec(text);
    const raw = after?.[1] ?? before?.[1];
    if (raw !== undefined) {
      const index = NUMBER_WORDS.indexOf(raw.toLowerCase());
      return index >= 0 ? index : Number(raw);
    }
  }
  if (!required) return undefined;
  const hit = numbersIn(text).find((candidate) => !used.has(candidate.index));
  if (!hit) return undefined;
  used.add(hit.index);
  return hit.value;
}

/** The enum value the message names; a parameter called "from" or "to" prefers the value after that word. */
function findEnum(text: string, values: readonly unknown[], name: string, used: Set<number>): unknown {
  const hits: Array<{ value: unknown; index: number }> = [];
  for (const value of values) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(String(value))}(?![\\p{L}\\p{N}])`, 'giu');
    for (const m of text.matchAll(re)) hits.push({ value, index: m.index ?? 0 });
  }
  hits.sort((a, b) => a.index - b.index);
  const preps = prepositionsFor(name);
  if (preps !== GENERIC_PLACE_PREPOSITIONS) {
    const introduced = hits.find(
      (hit) =>
        !used.has(hit.index) &&
        new RegExp(`\\b(?:${preps.join('|')})\\s+$`, 'iu').test(
          text.slice(Math.max(0, hit.index - 12), hit.index),
        ),
    );
    if (introduced) {
      used.add(introduced.index);
      return introduced.value;
    }
  }
  const first = hits.find((hit) => !used.has(hit.index));
  if (first) used.add(first.index);
  return first?.value;
}

/** True/false when the message mentions the parameter; "without"/"not" before it means false. */
function findBoolean(text: string, name: string, required: boolean): boolean | undefined {
  const keys = words(name).filter((word) => word.length > 2 && !STOPWORDS.has(word));
  const lower = text.toLowerCase();
  for (const key of keys) {
    const at = lower.search(new RegExp(`\\b${escapeRegExp(stem(key))}`, 'u'));
    if (at >= 0)
      return !/\b(?:no|not|without|don't|dont|exclude|excluding|hide|skip)\b[\w\s]{0,20}$/.test(
        lower.slice(0, at),
      );
  }
  return required ? false : undefined;
}

interface Filler {
  text: string;
  tool: PlannerTool;
  nouns: readonly string[];
  usedNumbers: Set<number>;
  usedEnums: Set<number>;
}

/** Candidate values for one parameter, best first; empty when the message has none. */
function valuesFor(name: string, schema: Record<string, unknown>, required: boolean, f: Filler): unknown[] {
  const kind = kindOf(name, schema);
  const explicit = explicitValue(f.text, name, kind === 'text' || kind === 'expression');
  const present = (value: unknown) => (value === undefined ? [] : [value]);
  switch (kind) {
    case 'enum':
      return present(findEnum(f.text, schema.enum as unknown[], name, f.usedEnums));
    case 'boolean':
      if (explicit !== undefined) return [/^(?:true|yes|on|1)$/i.test(explicit)];
      return present(findBoolean(f.text, name, required));
    case 'id':
    case 'number': {
      const fromExplicit =
        explicit !== undefined && /^-?\d+(?:\.\d+)?$/.test(explicit) ? [Number(explicit)] : undefined;
      const found =
        fromExplicit ??
        (kind === 'id'
          ? findIds(f.text, f.nouns)
          : present(findNumber(f.text, name, required, f.usedNumbers)).map(Number));
      const integer = schemaType(schema) === 'integer';
      return found.filter((value) => Number.isFinite(value) && (!integer || Number.isInteger(value)));
    }
    case 'timezone':
      return explicit !== undefined ? [explicit] : findTimeZones(f.text).zones;
    case 'expression': {
      if (explicit !== undefined) return [explicit];
      // Part of the question as if it were all of it gives a wrong number: better none at all.
      const found = findExpression(f.text, functionsFor(f.tool, schema));
      return found && found.untranslated.length === 0 ? [found.expression] : [];
    }
    case 'place':
      if (explicit !== undefined) return [explicit];
      return findPlaces(f.text, prepositionsFor(name), required);
    case 'text':
      return present(explicit ?? findText(f.text, f.nouns));
    default:
      return [];
  }
}

/** The function names an expression may use: the common ones and those the tool's texts show as `name(`. */
function functionsFor(tool: PlannerTool, schema: Record<string, unknown>): string[] {
  return functionsIn(`${tool.description ?? ''} ${String(schema.description ?? '')}`);
}

function describeMissing(
  tool: PlannerTool,
  name: string,
  schema: Record<string, unknown>,
  text: string,
): MissingParameter {
  const missing: MissingParameter = { name };
  if (typeof schema.description === 'string') missing.description = schema.description;
  if (kindOf(name, schema) === 'expression') {
    missing.untranslated = findExpression(text, functionsFor(tool, schema))?.untranslated ?? [];
  }
  const unresolved = kindOf(name, schema) === 'timezone' ? findTimeZones(text).unresolved : [];
  if (unresolved.length > 0) {
    missing.note = `I found ${unresolved.map((place) => `"${place}"`).join(', ')} but do not know its time zone`;
  }
  return missing;
}

/**
 * Arguments for `tool` from `text`. Optional parameters are only set when the message names a
 * value (so the tool's defaults apply); a required one that cannot be filled is reported missing.
 */
export function extractArguments(tool: PlannerTool, text: string): Extraction {
  const properties = schemaProperties(tool.parameters);
  const requiredList = isRecord(tool.parameters) ? tool.parameters.required : undefined;
  const required = new Set(
    Array.isArray(requiredList) ? requiredList.filter((r) => typeof r === 'string') : [],
  );
  const nouns = [
    ...new Set([
      ...GENERIC_NOUNS,
      ...words(tool.name).filter((w) => !STOPWORDS.has(w) && concept(w) !== 'list'),
    ]),
  ];
  const filler: Filler = { text, tool, nouns, usedNumbers: new Set(), usedEnums: new Set() };
  // Parameters a preposition points at ("from", "to") go first, so they claim their own values.
  const entries = Object.entries(properties).sort(
    ([a], [b]) =>
      Number(prepositionsFor(b) !== GENERIC_PLACE_PREPOSITIONS) -
      Number(prepositionsFor(a) !== GENERIC_PLACE_PREPOSITIONS),
  );
  const base: Record<string, unknown> = {};
  const missing: MissingParameter[] = [];
  let spread: { name: string; values: unknown[] } | undefined;
  for (const [name, schema] of entries) {
    // Strict function schemas list every field as required and mark the optional ones nullable:
    // such a field is optional in practice, and null is how to leave it out.
    const mustFill = required.has(name) && !acceptsNull(schema);
    const values = valuesFor(name, schema, mustFill, filler);
    if (values.length === 0) {
      if (mustFill) missing.push(describeMissing(tool, name, schema, text));
      else if (required.has(name)) base[name] = null;
      continue;
    }
    if (values.length > MAX_VALUES_PER_PARAMETER) {
      // Doing the first few and answering as if that were all would leave the rest unanswered.
      missing.push({ name, tooMany: { count: values.length, limit: MAX_VALUES_PER_PARAMETER } });
      continue;
    }
    base[name] = values[0];
    if (values.length > 1 && !spread) spread = { name, values };
  }
  if (missing.length > 0) return { calls: [], missing };
  const spreadName = spread?.name ?? '';
  const calls = spread ? spread.values.map((value) => ({ ...base, [spreadName]: value })) : [base];
  // Keep the schema's parameter order in each call, for readable JSON.
  const order = Object.keys(properties);
  return {
    calls: calls.map((call) => Object.fromEntries(order.filter((k) => k in call).map((k) => [k, call[k]]))),
    missing,
  };
}

/** True when the schema allows null: `type: [T, "null"]`, or an `anyOf` branch of type null. */
function acceptsNull(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return (
    Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => isRecord(branch) && branch.type === 'null')
  );
}
