/**
 * @module score
 * How the offline demo model picks a tool: words of the user's message are stemmed and folded
 * into generic concepts, then matched against each offered tool's name, parameter names and
 * descriptions. Nothing here knows any particular tool. Used by `planner.ts`.
 */
import { isRecord } from '@mcp-workshop/shared';
import type { PlannerTool } from './types.js';

/** A hit in the tool's name says most about what it does; a hit in prose says least. */
const NAME_WEIGHT = 3;
const PARAMETER_NAME_WEIGHT = 2;
const PROSE_WEIGHT = 1;

/**
 * A tool needs at least one name-level hit (or a parameter name plus prose) to be called: two
 * stray words of a description are not enough reason to act.
 */
export const MIN_TOOL_SCORE = 3;

/** Words that carry no intent, on either side (so "get" in "get_price" counts for nothing). */
export const STOPWORDS = new Set(
  (
    'a an the is are was were be been am it its this that these those there here what whats which who whom ' +
    'how why when i me my mine we us our you your yours he she they them their please pls can could would will ' +
    'shall should may might must do does did to of in on at for from by with without about as and or but if ' +
    'then so than too very just also any some all get got give tell let lets like s t now current currently ' +
    'today right go going want wanted need needs know up out into over under again hi hello hey thanks thank ' +
    'ok okay e g eg ie etc not no yes use using used returns return returned ' +
    // Days and order words say when, not what: "weather on Friday", "first …, next …".
    'tomorrow tonight monday tuesday wednesday thursday friday saturday sunday first next finally ' +
    'afterwards afterward'
  ).split(' '),
);

/**
 * Generic words that mean the same thing when choosing a tool. Keys are concepts; the lists are
 * ordinary English words, never tool names, so any tool that describes itself plainly is found.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  weather: [
    'weather',
    'forecast',
    'temperature',
    'temp',
    'rain',
    'rainy',
    'snow',
    'sunny',
    'wind',
    'windy',
    'cloudy',
    'humidity',
    'humid',
    'degrees',
    'celsius',
    'fahrenheit',
    'hot',
    'cold',
    'warm',
    'umbrella',
  ],
  time: ['time', 'clock', 'hour', 'oclock', 'date', 'weekday'],
  zone: ['timezone', 'zone', 'tz'],
  math: [
    'calculate',
    'calculation',
    'calculator',
    'compute',
    'math',
    'maths',
    'arithmetic',
    'evaluate',
    'expression',
    'plus',
    'minus',
    'multiply',
    'multiplied',
    'divide',
    'divided',
    'sqrt',
    'square',
    'root',
    'equals',
    'formula',
    'percent',
  ],
  add: ['add', 'create', 'new', 'make', 'insert', 'remember', 'remind', 'append', 'put', 'save', 'record'],
  list: ['list', 'show', 'display', 'view', 'see', 'browse', 'enumerate', 'available', 'supported'],
  complete: ['complete', 'completed', 'done', 'finish', 'finished', 'check', 'tick', 'mark', 'accomplish'],
  delete: ['delete', 'remove', 'erase', 'drop', 'discard', 'cancel', 'clear', 'forget'],
  task: ['task', 'todo', 'todos', 'chore', 'reminder'],
  place: ['city', 'town', 'place', 'location', 'where'],
  search: ['search', 'find', 'look', 'lookup', 'query'],
  flight: ['flight', 'fly', 'plane', 'airline', 'airfare'],
  convert: ['convert', 'conversion', 'exchange'],
  money: ['currency', 'money', 'rate', 'dollar', 'euro', 'pound', 'yen', 'krone'],
};

/** Crude suffix stripping, applied identically to both sides, so "cities"/"city" and "completed"/"complete" meet. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

const CONCEPT_OF = new Map<string, string>(
  Object.entries(SYNONYMS).flatMap(([concept, words]) => words.map((word) => [stem(word), concept] as const)),
);

/** The concept a word stands for: its synonym group, or its own stem. */
export function concept(word: string): string {
  const stemmed = stem(word);
  return CONCEPT_OF.get(stemmed) ?? stemmed;
}

/** True for words that name a generic concept (so "Weather" is not mistaken for a place). */
export function isConceptWord(word: string): boolean {
  return CONCEPT_OF.has(stem(word));
}

/** Lower-case words of a text or identifier: `get_price`, `searchFlights`, `a.b-c` all split. */
export function words(text: string): string[] {
  const spaced = text.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2');
  return spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The concepts of a text, without stopwords and bare numbers. */
export function concepts(text: string): string[] {
  return words(text)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/^\d+$/.test(word))
    .map(concept);
}

/** Every concept a tool advertises, with the strongest place it appears in. */
export function toolProfile(tool: PlannerTool): Map<string, number> {
  const profile = new Map<string, number>();
  const add = (text: string | undefined, weight: number) => {
    for (const c of concepts(text ?? '')) profile.set(c, Math.max(profile.get(c) ?? 0, weight));
  };
  add(tool.name, NAME_WEIGHT);
  add(tool.description, PROSE_WEIGHT);
  for (const [name, schema] of Object.entries(schemaProperties(tool.parameters))) {
    add(name, PARAMETER_NAME_WEIGHT);
    add(typeof schema.description === 'string' ? schema.description : undefined, PROSE_WEIGHT);
    if (Array.isArray(schema.enum))
      add(schema.enum.filter((v) => typeof v === 'string').join(' '), PROSE_WEIGHT);
  }
  return profile;
}

/** Sum, over the user's distinct concepts, of how strongly the tool advertises each. */
export function scoreTool(userConcepts: ReadonlySet<string>, tool: PlannerTool): number {
  const profile = toolProfile(tool);
  let score = 0;
  for (const c of userConcepts) score += profile.get(c) ?? 0;
  return score;
}

/** Tools at or above {@link MIN_TOOL_SCORE}, best first; ties keep the order they were offered in. */
export function rankTools(
  userConcepts: ReadonlySet<string>,
  tools: readonly PlannerTool[],
): Array<{ tool: PlannerTool; score: number }> {
  return tools
    .map((tool) => ({ tool, score: scoreTool(userConcepts, tool) }))
    .filter(({ score }) => score >= MIN_TOOL_SCORE)
    .sort((a, b) => b.score - a.score);
}

/**
 * A JSON Schema's `properties`, keeping only entries that are objects. An optional field that a
 * client's strict mode rewrote as `anyOf: [{…}, {type: "null"}]` is read as its non-null branch,
 * with the outer description, so its enum or type is still seen.
 */
export function schemaProperties(schema: unknown): Record<string, Record<string, unknown>> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, value] of Object.entries(schema.properties))
    if (isRecord(value)) out[name] = unwrapNullable(value);
  return out;
}

/** `anyOf: [{type: T, …}, {type: "null"}]` becomes `{type: [T, "null"], …}`: the same values, one branch to read. */
function unwrapNullable(schema: Record<string, unknown>): Record<string, unknown> {
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isRecord) : [];
  const [branch, ...others] = branches.filter((b) => b.type !== 'null');
  if (!branch || others.length > 0 || branches.length !== 2 || typeof branch.type !== 'string') return schema;
  const { anyOf: _anyOf, ...outer } = schema;
  return { ...branch, ...outer, type: [branch.type, 'null'] };
}
