/**
 * @module answer
 * The demo model's written answers: what the tools returned (quoting their values, chosen by
 * key, never by tool), what a request is missing, and the help text. Used by `planner.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import type { MissingParameter } from './extract.js';
import { DEMO_LABEL, type PlannerTool } from './types.js';

/** Enough values to show the tool was really used, few enough to read in one breath. */
const MAX_FIELDS = 8;
/** With fewer telling values than this, bookkeeping values (codes, coordinates, timestamps) are quoted too. */
const MIN_NEWS_FIELDS = 3;
/** Only so deep into nested results: the interesting values of a tool result sit near the top. */
const MAX_DEPTH = 3;
/** Object entries looked at per result, so a huge or hostile result costs little. */
const MAX_VISITED = 300;
/** Results longer than this are quoted as text, not parsed. */
const MAX_PARSED_CHARS = 200_000;
const MAX_VALUE_CHARS = 80;
const MAX_QUOTE_CHARS = 300;
/** A turn with more results than this is summarised by count. */
const MAX_OUTCOMES_DESCRIBED = 6;
const MAX_TOOLS_LISTED = 8;

/** Keys whose values say what a result is about; they are quoted first. */
const HEADLINE_KEY =
  /^(?:name|title|label|summary|result|formatted|answer|message|status|state|conditions?|description|text|time|date|total|count)$/i;
/** Keys that are bookkeeping rather than news; they are quoted last, if at all. */
function isBookkeeping(key: string): boolean {
  return (
    /^(?:lat|lng|lon|latitude|longitude|iso|source|url|uri|href|timezone|code)$/i.test(key) ||
    /[a-z](?:Code|At|Seconds|Ms|Url|Id)$/.test(key) ||
    /^unix/i.test(key)
  );
}

/** One tool result as the planner saw it. */
export interface ToolOutcome {
  name: string;
  arguments?: Record<string, unknown>;
  content: string;
  /** True when a later call repeated this failed one with the value its error suggested. */
  retried?: boolean;
  /** What the result says about the question's own point (e.g. the day asked for), said instead of the quote. */
  focus?: string;
}

export type ParsedOutcome =
  | { kind: 'error'; message: string }
  | { kind: 'data'; value: unknown }
  | { kind: 'text'; text: string };

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function formatScalar(value: string | number | boolean): string {
  return typeof value === 'string' ? `"${oneLine(value, MAX_VALUE_CHARS)}"` : String(value);
}

/** Reads a tool message: `{"error": …}`, an MCP result with `isError`, other JSON, or plain text. */
export function parseOutcome(content: string): ParsedOutcome {
  let value: unknown;
  try {
    value = content.length <= MAX_PARSED_CHARS ? JSON.parse(content) : undefined;
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    if (/^\s*(?:error|tool error|failed)\b/i.test(content)) return { kind: 'error', message: content };
    return { kind: 'text', text: content };
  }
  if (isRecord(value) && 'error' in value && value.error !== null && value.error !== false) {
    const { error } = value;
    if (typeof error === 'string') return { kind: 'error', message: error };
    if (isRecord(error) && typeof error.message === 'string')
      return { kind: 'error', message: error.message };
    return { kind: 'error', message: JSON.stringify(error) ?? 'unknown error' };
  }
  if (isRecord(value) && Array.isArray(value.content)) {
    const text = value.content
      .map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : ''))
      .join(' ')
      .trim();
    if (value.isError === true) return { kind: 'error', message: text || 'the tool reported an error' };
    if (isRecord(value.structuredContent)) return { kind: 'data', value: value.structuredContent };
    return parseOutcome(text);
  }
  // `{ structuredContent, text }`: the data with a note beside it; the data is what to quote.
  if (isRecord(value) && isRecord(value.structuredContent))
    return { kind: 'data', value: value.structuredContent };
  return { kind: 'data', value };
}

interface Field {
  label: string;
  path: string;
  text: string;
  tier: number;
  order: number;
  list: boolean;
}

/** A list in a few words: its length and the names of its first entries, if they have names. */
function describeArray(items: unknown[]): string {
  const names = items
    .slice(0, 3)
    .map((item) => {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return item;
      if (!isRecord(item)) return undefined;
      const key = Object.keys(item).find((k) => HEADLINE_KEY.test(k) && typeof item[k] === 'string');
      return key ? (item[key] as string) : undefined;
    })
    .filter((name): name is string | number | boolean => name !== undefined);
  const count = `${items.length} ${items.length === 1 ? 'entry' : 'entries'}`;
  if (names.length === 0) return count;
  const more = items.length > names.length ? ', …' : '';
  return `${count} (${names.map(formatScalar).join(', ')}${more})`;
}

/** The values of a result worth quoting, as `key value` strings: headline keys first, bookkeeping last. */
export function salientFields(value: unknown): string[] {
  if (Array.isArray(value)) return [describeArray(value)];
  if (!isRecord(value)) {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? [`value ${formatScalar(value)}`]
      : [];
  }
  const fields: Field[] = [];
  const queue: Array<{ object: Record<string, unknown>; path: string; depth: number }> = [
    { object: value, path: '', depth: 0 },
  ];
  let visited = 0;
  for (let next = queue.shift(); next && visited < MAX_VISITED; next = queue.shift()) {
    for (const [key, child] of Object.entries(next.object)) {
      visited += 1;
      if (visited > MAX_VISITED) break;
      const path = next.path ? `${next.path}.${key}` : key;
      const tier = HEADLINE_KEY.test(key) ? 0 : isBookkeeping(key) ? 2 : 1;
      const field = { label: key, path, tier, order: fields.length, list: false };
      if (typeof child === 'string' || typeof child === 'number' || typeof child === 'boolean') {
        fields.push({ ...field, text: formatScalar(child) });
      } else if (Array.isArray(child)) {
        // Lists go after the scalars of their tier: a count and a few names, never every entry.
        fields.push({ ...field, text: `: ${describeArray(child)}`, tier: Math.max(tier, 1), list: true });
      } else if (isRecord(child) && next.depth + 1 < MAX_DEPTH) {
        queue.push({ object: child, path, depth: next.depth + 1 });
      }
    }
  }
  const labels = new Map<string, number>();
  for (const field of fields) labels.set(field.label, (labels.get(field.label) ?? 0) + 1);
  // Bookkeeping only fills in for results that have little else to say.
  const news = fields.filter((field) => field.tier < 2).length;
  return fields
    .filter((field) => field.tier < 2 || news < MIN_NEWS_FIELDS)
    .sort((a, b) => a.tier - b.tier || Number(a.list) - Number(b.list) || a.order - b.order)
    .slice(0, MAX_FIELDS)
    .map((field) => {
      const label = (labels.get(field.label) ?? 0) > 1 ? field.path : field.label;
      return field.text.startsWith(':') ? `${label}${field.text}` : `${label} ${field.text}`;
    });
}

/** " for location "Oslo"": the first plain argument, so several calls of one tool can be told apart. */
function argumentNote(args: Record<string, unknown> | undefined): string {
  const entry = Object.entries(args ?? {}).find(
    ([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
  );
  return entry ? ` for ${entry[0]} ${formatScalar(entry[1] as string | number | boolean)}` : '';
}

function describeOutcome(outcome: ToolOutcome): string {
  const parsed = parseOutcome(outcome.content);
  const note = argumentNote(outcome.arguments);
  if (parsed.kind === 'error') {
    const quoted = `“${oneLine(parsed.message, MAX_QUOTE_CHARS)}”`;
    return outcome.retried
      ? `${outcome.name}${note} failed (${quoted}), so I tried again with the value it suggested.`
      : `${outcome.name}${note} failed: ${quoted}.`;
  }
  if (parsed.kind === 'text') {
    return parsed.text.trim()
      ? `${outcome.name}${note} said: “${oneLine(parsed.text, MAX_QUOTE_CHARS)}”.`
      : `${outcome.name}${note} returned nothing.`;
  }
  if (outcome.focus) return `${outcome.name}${note} — ${outcome.focus}`;
  const fields = salientFields(parsed.value);
  return fields.length > 0
    ? `Here is what ${outcome.name} returned${note}: ${fields.join(', ')}.`
    : `${outcome.name}${note} returned an empty result.`;
}

/** Adds the label that marks every answer as the scripted stand-in's. */
export function labelled(text: string): string {
  return `${text} ${DEMO_LABEL}`;
}

/**
 * The answer after a round of tool calls: one sentence per result, quoting what came back, after
 * the `caveats` (what the question asked that no call carried; see `caveats.ts`).
 */
export function describeOutcomes(outcomes: readonly ToolOutcome[], caveats: readonly string[] = []): string {
  const lines = [...caveats, ...outcomes.slice(0, MAX_OUTCOMES_DESCRIBED).map(describeOutcome)];
  const rest = outcomes.length - MAX_OUTCOMES_DESCRIBED;
  if (rest > 0) lines.push(`…and ${rest} more result${rest === 1 ? '' : 's'}.`);
  return labelled(lines.join('\n'));
}

/** How to write what the demo model can pass to a calculator: the forms it would otherwise have to guess. */
const EXPRESSION_ADVICE =
  'Try writing it as one expression with numbers, + - * / ^ and brackets, e.g. "(2 + 3) * 4", ' +
  'or "10 / 100 * 50" for 10% of 50.';

/**
 * The refusal for arithmetic it cannot write as one expression: a calculation of part of the
 * question would be answered as if it were the whole, i.e. a wrong number said with confidence.
 */
function expressionRefusal(toolName: string, untranslated: readonly string[]): string {
  if (untranslated.length === 0) {
    return labelled(
      `I would use ${toolName}, but I can't turn your message into a calculation: I found no arithmetic ` +
        `I can write as an expression. ${EXPRESSION_ADVICE}`,
    );
  }
  const parts = untranslated.map((part) => `“${oneLine(part, 40)}”`).join(', ');
  return labelled(
    `I would use ${toolName}, but I can't turn your message into a calculation as a whole: I could not ` +
      `translate ${parts}, and leaving it out would give a wrong number. ${EXPRESSION_ADVICE}`,
  );
}

/** The answer when the best tool needs a value the message does not contain. */
export function missingText(toolName: string, missing: readonly MissingParameter[]): string {
  const crowded = missing.find((m) => m.tooMany);
  if (crowded?.tooMany) {
    const { count, limit } = crowded.tooMany;
    return labelled(
      `I would use ${toolName}, but your message names ${count} values for ${crowded.name} and I handle at ` +
        `most ${limit} in one question; answering for the first ${limit} would leave the rest out. ` +
        `Please ask about at most ${limit} at once.`,
    );
  }
  const expression = missing.find((m) => m.untranslated !== undefined);
  if (expression?.untranslated) return expressionRefusal(toolName, expression.untranslated);
  const wanted = missing
    .map((m) => {
      const described = m.description ? `${m.name} (${oneLine(m.description, 160)})` : m.name;
      return m.note ? `${described}; ${m.note}` : described;
    })
    .join('; ');
  return labelled(
    `I would use ${toolName}, but I could not find this in your message: ${wanted}. ` +
      'Please ask again with that included; putting a name or title in quotes helps me find it.',
  );
}

/**
 * The sentence, before the results, about a part of the question that named a tool but lacked its
 * value (`UndoneClause` in planner.ts): the other parts were done, this one was not.
 */
export function undoneText(undone: {
  clause: string;
  tool: string;
  missing: readonly MissingParameter[];
}): string {
  const wanted = undone.missing.map((m) => m.name).join(', ');
  return (
    `I did not do this part of your question: “${oneLine(undone.clause, 80)}”. I would use ${undone.tool}, ` +
    `but that part does not give its ${wanted}; ask again with it included.`
  );
}

/** The answer to a request with more steps than one question may take: doing some would leave the rest undone. */
export function tooManyStepsText(count: number, limit: number): string {
  return labelled(
    `Your request needs ${count} steps and I carry out at most ${limit} per question; doing the first ${limit} ` +
      'would leave the rest undone without saying so. Please split it into smaller requests.',
  );
}

/** The answer when no tool was offered or none matched: what this stand-in is and what it could do. */
export function helpText(tools: readonly PlannerTool[], question: string): string {
  const intro =
    "I'm the offline demo model: a scripted stand-in, not a language model. It runs when no OPENAI_API_KEY is set.";
  if (tools.length === 0) {
    return labelled(
      `${intro} No tools were offered with this request, so there is nothing I can look up or do.`,
    );
  }
  const listed = tools
    .slice(0, MAX_TOOLS_LISTED)
    .map((tool) => {
      const firstSentence = (tool.description ?? '').split(/(?<=\.)\s/)[0] ?? '';
      return firstSentence ? `${tool.name} (${oneLine(firstSentence, 70)})` : tool.name;
    })
    .join(', ');
  const more = tools.length > MAX_TOOLS_LISTED ? ` and ${tools.length - MAX_TOOLS_LISTED} more` : '';
  const heard = question.trim() ? ` I could not match “${oneLine(question, 80)}” to a tool.` : '';
  return labelled(
    `${intro}${heard} I pick a tool by matching your words against the tools' names and descriptions, ` +
      `and take its arguments from your message (places, numbers, quoted text). Tools offered: ${listed}${more}.`,
  );
}
