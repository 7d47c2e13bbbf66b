/**
 * @module planner
 * The offline demo model's whole "mind": a pure function from the conversation and the offered
 * tools to the next turn — call tools, retry once with a suggested value, or answer quoting the
 * results. It knows no tool by name. Served by `server.ts`; test: `planner.test.ts`.
 */
import { describeOutcomes, helpText, missingText, parseOutcome, type ToolOutcome } from './answer.js';
import { findExpression } from './expression.js';
import { extractArguments, MAX_CALLS_PER_TURN, type MissingParameter } from './extract.js';
import { concepts, isRecord, rankTools } from './score.js';
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

/** The best tool whose required arguments the text fills, or what the best one lacks. */
function chooseTool(text: string, tools: readonly PlannerTool[]): Choice {
  const expression = findExpression(text);
  // Words inside arithmetic ("3 times 4") are operators, not intent.
  const intentText = expression ? `${text.slice(0, expression.start)} ${text.slice(expression.end)}` : text;
  const userConcepts = new Set(concepts(intentText));
  if (expression) userConcepts.add('math');
  const ranked = rankTools(userConcepts, tools);
  const best = ranked[0]?.score ?? 0;
  let firstMissing: Choice | undefined;
  for (const { tool, score } of ranked) {
    if (score < best * RUNNER_UP_RATIO) break;
    const extraction = extractArguments(tool, text);
    if (extraction.missing.length === 0) {
      return { kind: 'calls', calls: extraction.calls.map((args) => ({ name: tool.name, arguments: args })) };
    }
    firstMissing ??= { kind: 'missing', tool: tool.name, missing: extraction.missing };
  }
  return firstMissing ?? { kind: 'none' };
}

const signature = (call: PlannedCall) => `${call.name}\u0000${JSON.stringify(call.arguments)}`;

function uniqueCalls(calls: readonly PlannedCall[]): PlannedCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => !seen.has(signature(call)) && seen.add(signature(call)));
}

/** "Weather in Oslo and the time in Tokyo" → two clauses, each planned on its own. */
function splitClauses(text: string): string[] {
  return text
    .split(/\s*(?:[;?!]+|\.(?=\s|$)|,?\s+(?:and\s+)?(?:also|then)\s+|,?\s+and\s+)\s*/iu)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}

/** Plans a fresh question: one call (or one per listed place), or several when clauses ask for different things. */
function planQuestion(question: string, tools: readonly PlannerTool[]): Plan {
  const text = question.slice(0, MAX_PLANNED_CHARS);
  if (tools.length === 0 || text.trim() === '') return { kind: 'answer', text: helpText(tools, text) };
  const clauses = splitClauses(text);
  if (clauses.length > 1) {
    const perClause = clauses.map((clause) => chooseTool(clause, tools));
    const calls = perClause.flatMap((choice) => (choice.kind === 'calls' ? choice.calls : []));
    if (perClause.filter((choice) => choice.kind === 'calls').length >= 2) {
      return { kind: 'tool_calls', calls: uniqueCalls(calls).slice(0, MAX_CALLS_PER_TURN) };
    }
  }
  const choice = chooseTool(text, tools);
  if (choice.kind === 'calls') return { kind: 'tool_calls', calls: uniqueCalls(choice.calls) };
  if (choice.kind === 'missing') return { kind: 'answer', text: missingText(choice.tool, choice.missing) };
  return { kind: 'answer', text: helpText(tools, text) };
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

/** After tool results: retry once if an error suggested a fix, otherwise answer quoting the results. */
function planAfterTools(after: readonly PlannerMessage[], tools: readonly PlannerTool[]): Plan | undefined {
  const { outcomes, made, rounds } = readRounds(after);
  if (outcomes.length === 0) return undefined;
  if (rounds <= MAX_RECOVERY_ROUNDS) {
    const retries = recoveryCalls(outcomes, made, tools);
    if (retries.length > 0) return { kind: 'tool_calls', calls: retries.slice(0, MAX_CALLS_PER_TURN) };
  }
  const described = outcomes.map(({ round, ...outcome }) => ({
    ...outcome,
    retried:
      parseOutcome(outcome.content).kind === 'error' &&
      outcomes.some((later) => later.round > round && later.name === outcome.name),
  }));
  return { kind: 'answer', text: describeOutcomes(described) };
}

/**
 * The demo model's next turn. It reads the last user message and everything after it: with no
 * tool results yet it picks tools and arguments from the user's words; with results it retries
 * a call once if an error suggested a value, and otherwise answers quoting what came back.
 */
export function planTurn(input: PlanInput): Plan {
  const { messages, tools } = input;
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const question = lastUser >= 0 ? contentText(messages[lastUser]?.content) : '';
  const afterTools = planAfterTools(messages.slice(lastUser + 1), tools);
  return afterTools ?? planQuestion(question, tools);
}
