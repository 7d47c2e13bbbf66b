/**
 * @module steps
 * Reads the order a request asks for. "Add a task, then list my tasks" is two steps: the second
 * is only called once the first one's result is back, as a real model would, because the agent
 * runs the calls of one turn at the same time. "Weather in Bergen and the time in Tokyo" is one
 * step of two calls. Used by `planner.ts`; test: `steps.test.ts`.
 */
import { concept, STOPWORDS, words } from './score.js';
import type { PlannedCall } from './types.js';

/** "once that's done", "when it is finished", "after that's done". */
const ONCE_DONE = String.raw`(?:once|when|after)\s+(?:that|this|it)(?:'s|’s|\s+is|\s+was|\s+has(?:\s+been)?)?\s+(?:done|finished|completed?|added)`;
/** "next" orders steps, but "next Monday", "the next 3 days" and "next week" name a time. */
const NEXT = String.raw`next(?!\s+(?:\d|one|two|three|four|five|six|seven|few|couple|days?|week|weekend|month|year|time|hours?|mon|tue|wed|thu|fri|sat|sun))`;
/**
 * Where a new step starts. "then" and "once that's done" need only a space before them; "after
 * that", "afterwards", "finally" and "next" need a comma, a full stop or "and", since "remind me
 * after that meeting" is one step.
 */
const STEP_BREAK = new RegExp(
  String.raw`(?:\s*[,;.?!]\s*|\s+)(?:and\s+)?(?:then|${ONCE_DONE})\b,?\s*` +
    String.raw`|(?:\s*[,;.?!]\s*(?:and\s+)?|,?\s+and\s+)(?:after\s+that|afterwards?|finally|${NEXT})\b,?\s*`,
  'giu',
);
/** Where clauses of one step part: punctuation, "and", "also". Each is planned on its own. */
const CLAUSE_BREAK = /\s*(?:[;?!]+|\.(?=\s|$)|,?\s+(?:and\s+)?also\s+|,?\s+and\s+)\s*/giu;
/** "First, …" only says which step comes first; it is no part of the step. */
const FIRST = /^(?:please\s+)?(?:first(?:\s+of\s+all)?|firstly|to\s+(?:start|begin)(?:\s+with)?)\b,?\s*/iu;
/** Quoted text is a value (a title, a query), never a place to split: `add "milk, then eggs"`. */
const QUOTED = /"[^"\n]*"|“[^”\n]*”|«[^»\n]*»/gu;

/** Verbs in a tool's name that say it changes something. */
const CHANGING = new Set(
  [
    'add',
    'complete',
    'delete',
    'update',
    'edit',
    'set',
    'change',
    'modify',
    'rename',
    'move',
    'replace',
    'reset',
    'assign',
    'send',
    'post',
    'write',
    'submit',
    'upload',
    'book',
    'toggle',
  ].map(concept),
);
/** Verbs in a tool's name that only read; with the changing ones they are not what a tool is about. */
const READING = new Set(
  ['list', 'search', 'read', 'fetch', 'show', 'count', 'describe', 'lookup', 'query'].map(concept),
);

/** Splits `text` at each match of `pattern` outside quotes, dropping the matched separator. */
function splitOutsideQuotes(text: string, pattern: RegExp): string[] {
  const quoted = [...text.matchAll(QUOTED)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
  const inQuotes = (at: number) => quoted.some(([start = 0, end = 0]) => at > start && at < end);
  const parts: string[] = [];
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (match[0].length === 0 || at < from || inQuotes(at)) continue;
    parts.push(text.slice(from, at));
    from = at + match[0].length;
  }
  parts.push(text.slice(from));
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

/** "Add a task, then list my tasks" → the text of each step, in the order asked. */
export function splitSteps(text: string): string[] {
  return splitOutsideQuotes(text, STEP_BREAK)
    .map((step) => step.replace(FIRST, '').trim())
    .filter((step) => step.length > 0);
}

/** "Weather in Oslo and the time in Tokyo" → two clauses of one step. */
export function splitClauses(text: string): string[] {
  return splitOutsideQuotes(text, CLAUSE_BREAK);
}

const nameConcepts = (toolName: string) =>
  words(toolName)
    .filter((word) => !STOPWORDS.has(word))
    .map(concept);

/** True when the tool's name says it changes something: add_task, deleteNote, update-record. */
export function changesState(toolName: string): boolean {
  return nameConcepts(toolName).some((c) => CHANGING.has(c));
}

/** What a tool is about, from its name without the verbs: add_task and list_tasks → "task". */
function subjects(toolName: string): Set<string> {
  return new Set(nameConcepts(toolName).filter((c) => !CHANGING.has(c) && !READING.has(c)));
}

/**
 * Whether two calls must run one after the other even though the request only said "and".
 *
 * The rule: when either tool changes something and both are about the same kind of thing (their
 * names share a noun: add_task / list_tasks), the second waits for the first. "Add a task to buy
 * milk and list my tasks" means the list should show the new task, and running both at once
 * would make that a race; a real model would do them in order. Calls about different things
 * ("add a task and tell me the weather") or that only read ("weather in Bergen and the time in
 * Tokyo") stay in one turn. Judged from tool names only: they are the plainest statement of what
 * a tool acts on, where descriptions mention other tools ("get the id from list_tasks").
 */
export function mustFollow(later: PlannedCall, earlier: PlannedCall): boolean {
  if (!changesState(later.name) && !changesState(earlier.name)) return false;
  const earlierSubjects = subjects(earlier.name);
  return [...subjects(later.name)].some((subject) => earlierSubjects.has(subject));
}

/**
 * The calls of clauses joined by a plain "and", as steps: a clause joins the current step unless
 * one of its calls must follow a call already in it (see {@link mustFollow}).
 */
export function orderClauses(clauses: ReadonlyArray<readonly PlannedCall[]>): PlannedCall[][] {
  const steps: PlannedCall[][] = [];
  for (const calls of clauses) {
    const current = steps.at(-1);
    const waits = current?.some((earlier) => calls.some((later) => mustFollow(later, earlier)));
    if (!current || waits) steps.push([...calls]);
    else current.push(...calls);
  }
  return steps;
}
