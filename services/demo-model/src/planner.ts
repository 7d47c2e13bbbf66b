/**
 * @module planner
 * The offline demo model's whole "mind": a pure function from the conversation and the offered
 * tools to the next turn — call tools (one step of the request at a time), retry once with a
 * suggested value, or answer quoting the results; offered a tool search and no tool that fits,
 * search first (`tool-search.ts`). It knows no tool by name. Served by
 * `server.ts`; test: `planner.test.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import {
  describeOutcomes,
  helpText,
  missingText,
  parseOutcome,
  type ToolOutcome,
  tooManyStepsText,
  undoneText,
} from './answer.js';
import { caveatsFor } from './caveats.js';
import { describeDays } from './day-answer.js';
import { coverDays, dayCountParameter } from './days.js';
import { findExpression } from './expression.js';
import { extractArguments, MAX_CALLS_PER_TURN, type MissingParameter } from './extract.js';
import { concepts, rankTools } from './score.js';
import { changesState, orderClauses, splitClauses, splitSteps } from './steps.js';
import { resolveThere } from './there.js';
import { searchParameter, searchQuery, withoutSearches } from './tool-search.js';
import type { Plan, PlanInput, PlannedCall, PlannerMessage, PlannerTool } from './types.js';

/** A failed call is retried with the value its error suggested once per question; more would be a loop. */
export const MAX_RECOVERY_ROUNDS = 1;
/** Only the start of a long message is read: it bounds the regex work hostile input can cause. */
export const MAX_PLANNED_CHARS = 2_000;
/**
 * When the best tool lacks a required value, a runner-up is only tried if it scored nearly as
 * well: "add a task" with no title should ask for the title, not list the tasks instead.
 */
const RUNNER_UP_RATIO = 0.75;
/**
 * "Do A, then B, then C…" is planned as at most this many steps, one turn each: a longer chain
 * is more likely a misreading, and with a retry and the answer it stays within the agent's
 * default of 8 tool rounds.
 */
export const MAX_STEPS = 5;

/** Phrases a tool's error uses to propose a value: `Did you mean "Oslo"?`, `Try "Oslo"`, `call again with "Oslo"`. */
const SUGGESTION =
  /(?:did you mean|try again with|try|call again with|retry with|perhaps|maybe you meant|use)\s*:?\s*["“']([^"”'\n]{1,100})["”']/i;

/** The text of a message's content: a string, or the text parts of a parts array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

type Choice =
  | { kind: 'calls'; calls: PlannedCall[] }
  | { kind: 'missing'; tool: string; missing: MissingParameter[] }
  | { kind: 'none' };

/** What the text asks for, as concepts; arithmetic in it counts as "math". */
function intentConcepts(text: string): Set<string> {
  const expression = findExpression(text);
  // Words inside arithmetic ("3 times 4") are operators, not intent.
  const intentText = expression ? `${text.slice(0, expression.start)} ${text.slice(expression.end)}` : text;
  const userConcepts = new Set(concepts(intentText));
  if (expression) userConcepts.add('math');
  return userConcepts;
}

/** The best tool whose required arguments the text fills, or what the best one lacks. */
function chooseTool(text: string, tools: readonly PlannerTool[], now: Date): Choice {
  const ranked = rankTools(intentConcepts(text), tools);
  const best = ranked[0]?.score ?? 0;
  let firstMissing: Choice | undefined;
  for (const [rank, { tool, score }] of ranked.entries()) {
    if (score < best * RUNNER_UP_RATIO) break;
    // A runner-up that changes something would do what was not asked: "delete task "milk"" with
    // no id must ask for the id, not add a task called "milk".
    if (rank > 0 && firstMissing && changesState(tool.name)) continue;
    const extraction = extractArguments(tool, text);
    if (extraction.missing.length === 0) {
      const calls = extraction.calls.map((args) => ({
        name: tool.name,
        arguments: coverDays(tool, args, text, now),
      }));
      return { kind: 'calls', calls };
    }
    firstMissing ??= { kind: 'missing', tool: tool.name, missing: extraction.missing };
  }
  return firstMissing ?? { kind: 'none' };
}

/** A call's identity; keys are sorted so a client that reorders the arguments' JSON still matches. */
const signature = (call: PlannedCall) => `${call.name}\u0000${canonicalJson(call.arguments)}`;

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

function uniqueCalls(calls: readonly PlannedCall[]): PlannedCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => !seen.has(signature(call)) && seen.add(signature(call)));
}

/** A clause that matched a tool whose required value it lacks, while other clauses were done. */
export interface UndoneClause {
  clause: string;
  tool: string;
  missing: MissingParameter[];
}

/**
 * What a question asks for: steps of calls (each step one turn, in order), and the clauses left
 * undone, which the answer names; or a written answer.
 */
type QuestionPlan =
  | { kind: 'steps'; steps: PlannedCall[][]; undone: UndoneClause[] }
  | { kind: 'answer'; text: string };
type StepsChoice =
  | { kind: 'steps'; steps: PlannedCall[][]; undone: UndoneClause[] }
  | Exclude<Choice, { kind: 'calls' }>;

/**
 * One step of the request: its clauses ("weather in Oslo and the time in Tokyo") planned on
 * their own when two or more of them ask for something, else the whole text as one request.
 * Clauses that must wait for another (see `orderClauses`) become steps of their own. A clause
 * that names a tool but lacks its value is never dropped in silence: when the calls made do not
 * cover its tool, it is kept as undone, for the answer to name.
 */
function planStep(text: string, tools: readonly PlannerTool[], now: Date): StepsChoice {
  const clauses = resolveThere(splitClauses(text));
  if (clauses.length > 1) {
    const choices = clauses.map((clause) => ({ clause, choice: chooseTool(clause, tools, now) }));
    const chosen = choices.flatMap(({ choice }) => (choice.kind === 'calls' ? [choice.calls] : []));
    const lacking = choices.flatMap(({ clause, choice }) =>
      choice.kind === 'missing' ? [{ clause, tool: choice.tool, missing: choice.missing }] : [],
    );
    const notCovered = (calls: readonly PlannedCall[]) =>
      lacking.filter((entry) => !calls.some((call) => call.name === entry.tool));
    if (chosen.length >= 2) {
      return { kind: 'steps', steps: orderClauses(chosen), undone: notCovered(chosen.flat()) };
    }
    const only = chosen[0];
    if (only && lacking.length > 0) {
      // The whole text may carry what one clause lacked ("weather in Oslo and the forecast for 5 days").
      const whole = chooseTool(text, tools, now);
      const calls = whole.kind === 'calls' ? whole.calls : only;
      return { kind: 'steps', steps: [calls], undone: notCovered(calls) };
    }
  }
  const choice = chooseTool(text, tools, now);
  return choice.kind === 'calls' ? { kind: 'steps', steps: [choice.calls], undone: [] } : choice;
}

/**
 * Plans a fresh question as steps. Words like "then" or "after that" split it into steps run one
 * after the other; a step whose tool lacks a required value is asked about before anything is
 * done, since stopping half-way through an ordered request would leave it half done.
 */
function planQuestion(question: string, tools: readonly PlannerTool[], now: Date): QuestionPlan {
  const text = question.slice(0, MAX_PLANNED_CHARS);
  if (tools.length === 0 || text.trim() === '') return { kind: 'answer', text: helpText(tools, text) };
  const parts = splitSteps(text);
  const perPart = parts.length > 1 ? parts.map((part) => planStep(part, tools, now)) : [];
  const withCalls = perPart.filter((choice) => choice.kind === 'steps').length;
  const lacking = perPart.some((choice) => choice.kind === 'missing');
  // A single part with calls and nothing to ask about is no sequence ("weather in Oslo, then
  // Bergen"): the whole text decides, as a question without order words would.
  const planned = withCalls >= 2 || (withCalls === 1 && lacking) ? perPart : [planStep(text, tools, now)];
  const missing = planned.find((choice) => choice.kind === 'missing');
  if (missing?.kind === 'missing') {
    return { kind: 'answer', text: missingText(missing.tool, missing.missing) };
  }
  // A step with more calls than one turn may make becomes several turns, never a shorter step.
  const steps = planned
    .flatMap((choice) => (choice.kind === 'steps' ? choice.steps : []))
    .flatMap((calls) => chunks(uniqueCalls(calls), MAX_CALLS_PER_TURN));
  const undone = planned.flatMap((choice) => (choice.kind === 'steps' ? choice.undone : []));
  if (steps.length > MAX_STEPS) return { kind: 'answer', text: tooManyStepsText(steps.length, MAX_STEPS) };
  if (steps.length > 0) return { kind: 'steps', steps, undone };
  return { kind: 'answer', text: helpText(tools, text) };
}

/** `items` in runs of at most `size`, in order; none for an empty list. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const runs: T[][] = [];
  for (let at = 0; at < items.length; at += size) runs.push(items.slice(at, at + size));
  return runs;
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

interface RoundOutcome extends ToolOutcome {
  round: number;
}

/** The calls made since the question and their results, numbered by assistant round. */
function readRounds(after: readonly PlannerMessage[]): {
  outcomes: RoundOutcome[];
  made: PlannedCall[];
  rounds: number;
} {
  const calls = new Map<string, { name: string; arguments?: Record<string, unknown>; round: number }>();
  const made: PlannedCall[] = [];
  const outcomes: RoundOutcome[] = [];
  let rounds = 0;
  for (const message of after) {
    if (message.role === 'assistant' && message.tool_calls && message.tool_calls.length > 0) {
      rounds += 1;
      for (const call of message.tool_calls) {
        if (!call.function) continue;
        const args = parseArguments(call.function.arguments);
        calls.set(call.id, { name: call.function.name, arguments: args, round: rounds });
        made.push({ name: call.function.name, arguments: args ?? {} });
      }
    } else if (message.role === 'tool') {
      const call = calls.get(message.tool_call_id ?? '');
      outcomes.push({
        name: call?.name ?? 'a tool',
        ...(call?.arguments ? { arguments: call.arguments } : {}),
        content: contentText(message.content),
        round: call?.round ?? rounds,
      });
    }
  }
  return { outcomes, made, rounds };
}

/** The argument a suggestion replaces: the string argument the error quotes, or the only string argument. */
function argumentToReplace(args: Record<string, unknown>, message: string): string | undefined {
  const strings = Object.entries(args).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  const quoted = strings.find(([, value]) => value && message.toLowerCase().includes(value.toLowerCase()));
  return quoted?.[0] ?? (strings.length === 1 ? strings[0]?.[0] : undefined);
}

/** Retries for failed calls whose error proposed a value, never repeating a call already made. */
function recoveryCalls(
  outcomes: readonly RoundOutcome[],
  made: readonly PlannedCall[],
  tools: readonly PlannerTool[],
) {
  const tried = new Set(made.map(signature));
  const retries: PlannedCall[] = [];
  for (const outcome of outcomes) {
    const parsed = parseOutcome(outcome.content);
    if (parsed.kind !== 'error' || !outcome.arguments) continue;
    if (!tools.some((tool) => tool.name === outcome.name)) continue;
    const suggestion = SUGGESTION.exec(parsed.message)?.[1]?.trim();
    const key = suggestion ? argumentToReplace(outcome.arguments, parsed.message) : undefined;
    if (!suggestion || !key || String(outcome.arguments[key]).toLowerCase() === suggestion.toLowerCase())
      continue;
    const retry = { name: outcome.name, arguments: { ...outcome.arguments, [key]: suggestion } };
    if (!tried.has(signature(retry))) {
      tried.add(signature(retry));
      retries.push(retry);
    }
  }
  return retries;
}

/**
 * How many of the plan's steps the calls made so far have carried out, in order. Each step takes
 * its calls out of what was made, so "list, add, list" needs two list calls before it is done.
 */
function stepsDone(steps: readonly PlannedCall[][], made: readonly PlannedCall[]): number {
  const available = new Map<string, number>();
  for (const call of made) available.set(signature(call), (available.get(signature(call)) ?? 0) + 1);
  let done = 0;
  for (const step of steps) {
    const needed = new Map<string, number>();
    for (const call of step) needed.set(signature(call), (needed.get(signature(call)) ?? 0) + 1);
    if ([...needed].some(([key, count]) => (available.get(key) ?? 0) < count)) break;
    for (const [key, count] of needed) available.set(key, (available.get(key) ?? 0) - count);
    done += 1;
  }
  return done;
}

/**
 * After tool results: retry once if an error suggested a fix; else call the next step of the
 * plan; else answer quoting every result, about the day asked for when the question names one.
 */
function planAfterTools(
  after: readonly PlannerMessage[],
  plan: QuestionPlan,
  input: { tools: readonly PlannerTool[]; question: string; now: Date },
): Plan | undefined {
  const { tools, question, now } = input;
  const { outcomes, made, rounds } = readRounds(after);
  if (outcomes.length === 0) return undefined;
  const steps = plan.kind === 'steps' ? plan.steps : [];
  const done = stepsDone(steps, made);
  // Rounds beyond the steps carried out were retries; a history the plan does not explain counts as one step.
  if (rounds - Math.max(done, 1) < MAX_RECOVERY_ROUNDS) {
    const retries = recoveryCalls(outcomes, made, tools);
    if (retries.length > 0) return { kind: 'tool_calls', calls: retries.slice(0, MAX_CALLS_PER_TURN) };
  }
  // Only a history that follows the plan is continued, and never past its steps plus the retries.
  const next = steps[done];
  if (next && done > 0 && rounds < steps.length + MAX_RECOVERY_ROUNDS) {
    return { kind: 'tool_calls', calls: next };
  }
  const described = outcomes.map(({ round, ...outcome }) => {
    const tool = tools.find((t) => t.name === outcome.name);
    const maxDays = tool ? dayCountParameter(tool)?.maximum : undefined;
    const focus = describeDays(outcome.content, question, now, maxDays);
    const parsed = parseOutcome(outcome.content);
    return {
      ...outcome,
      ...(focus ? { focus } : {}),
      // Only an error that suggested a value was retried; a later call of the same tool may be the next step.
      retried:
        parsed.kind === 'error' &&
        SUGGESTION.test(parsed.message) &&
        outcomes.some((later) => later.round > round && later.name === outcome.name),
    };
  });
  const undone = plan.kind === 'steps' ? plan.undone.map(undoneText) : [];
  return {
    kind: 'answer',
    text: describeOutcomes(described, [...undone, ...caveatsFor(question.slice(0, MAX_PLANNED_CHARS), made)]),
  };
}

/**
 * The demo model's next turn. It reads the last user message and everything after it. It plans
 * the question as steps (see `planQuestion`) every time, since it keeps no state: with no tool
 * results yet it calls the first step; with results it retries a call once if an error suggested
 * a value, then calls the next step not yet carried out, and at the end answers quoting them all.
 */
export function planTurn(input: PlanInput): Plan {
  const search = input.tools.flatMap((tool) => {
    const parameter = searchParameter(tool);
    return parameter ? [{ tool, parameter }] : [];
  })[0];
  return search ? planWithSearch(input, search) : planWithTools(input);
}

/**
 * With a tool search offered: plan with the other tools when one fits the message (or it was
 * searched for already); else search once with the message's content words. A message with no
 * content words ("thanks!") is answered without searching.
 */
function planWithSearch(input: PlanInput, search: { tool: PlannerTool; parameter: string }): Plan {
  const tools = input.tools.filter((tool) => tool !== search.tool);
  const { messages, searched } = withoutSearches(input.messages, search.tool.name);
  const lastUser = messages.findLast((message) => message.role === 'user');
  const question = contentText(lastUser?.content).slice(0, MAX_PLANNED_CHARS);
  const fits = rankTools(intentConcepts(question), tools).length > 0;
  const query = searchQuery(question);
  if (!searched && !fits && query !== '') {
    return {
      kind: 'tool_calls',
      calls: [{ name: search.tool.name, arguments: { [search.parameter]: query } }],
    };
  }
  // Nothing found: the answer names the search it could use, rather than "no tools were offered".
  if (tools.length === 0) return { kind: 'answer', text: helpText(input.tools, question) };
  return planWithTools({ ...input, messages, tools });
}

function planWithTools(input: PlanInput): Plan {
  const { messages, tools } = input;
  const now = input.now ?? new Date();
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const question = lastUser >= 0 ? contentText(messages[lastUser]?.content) : '';
  const plan = planQuestion(question, tools, now);
  const afterTools = planAfterTools(messages.slice(lastUser + 1), plan, { tools, question, now });
  if (afterTools) return afterTools;
  return plan.kind === 'steps' ? { kind: 'tool_calls', calls: plan.steps[0] ?? [] } : plan;
}
