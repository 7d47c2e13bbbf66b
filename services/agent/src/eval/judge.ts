/**
 * @module eval/judge
 * The deterministic judge of one eval case: which tools the model called, in which order, and
 * whether the arguments of each expected step satisfy the case. No model grades a model here.
 */
import { SEARCH_TOOLS_FUNCTION } from '../discovery/search-function.js';
import { READ_SKILL_FUNCTION } from '../read-skill.js';
import type { ToolCallTrace } from '../trace.js';
import type { EvalCase } from './cases.js';
import { matchArguments } from './matchers.js';

/** Functions the agent adds itself: they find or read things, they are not the model's choice of tool. */
const AGENT_FUNCTIONS = new Set([SEARCH_TOOLS_FUNCTION, READ_SKILL_FUNCTION]);

/** One call the model made, as the judge sees it. */
export interface SeenCall {
  /** The MCP tool, or the function name as sent when it matched no tool. */
  tool: string;
  /** True when the name matched no offered tool. */
  unknown: boolean;
  arguments: unknown;
}

export interface Verdict {
  pass: boolean;
  /** The tools chosen, in order, each run of repeated calls to one tool counted once. */
  chosen: string[];
  /** The arguments of the first call of each chosen step. */
  arguments: unknown[];
  /** Whether every expected step's arguments satisfied the case (true when the tools were wrong: not judged). */
  argsOk: boolean;
  /** What went wrong, in words for the report; [] on a pass. */
  problems: string[];
}

/** The tool calls of a turn that count as the model's choice: the agent's own functions left out. */
export function seenCalls(traces: readonly ToolCallTrace[]): SeenCall[] {
  return traces
    .filter((trace) => trace.calledBy !== 'view')
    .filter((trace) => !(trace.tool === undefined && AGENT_FUNCTIONS.has(trace.functionName)))
    .filter((trace) => !trace.tool?.startsWith('skill://'))
    .map((trace) => ({
      tool: trace.tool ?? trace.functionName,
      unknown: trace.tool === undefined,
      arguments: trace.arguments,
    }));
}

export function judge(evalCase: EvalCase, calls: readonly SeenCall[]): Verdict {
  const steps: SeenCall[] = [];
  for (const call of calls) if (steps.at(-1)?.tool !== call.tool) steps.push(call);
  const chosen = steps.map((step) => step.tool);
  const expected = evalCase.steps.map((step) => step.tool);
  const problems: string[] = [];
  const unknown = steps.filter((step) => step.unknown).map((step) => step.tool);
  if (unknown.length > 0) problems.push(`called ${unknown.join(', ')}, which no server offers`);
  const sameTools =
    chosen.length === expected.length && chosen.every((tool, index) => tool === expected[index]);
  if (!sameTools) problems.push(`expected ${describe(expected)}, chose ${describe(chosen)}`);
  let argsOk = true;
  if (sameTools) {
    evalCase.steps.forEach((step, index) => {
      const wrong = matchArguments(step.args, steps[index]?.arguments);
      if (wrong.length === 0) return;
      argsOk = false;
      problems.push(`${step.tool} arguments: ${wrong.join('; ')}`);
    });
  }
  return {
    pass: problems.length === 0,
    chosen,
    arguments: steps.map((step) => step.arguments),
    argsOk,
    problems,
  };
}

/** A list of tools in words: "no tool", "get_weather", "add_task then list_tasks". */
export function describe(tools: readonly string[]): string {
  return tools.length === 0 ? 'no tool' : tools.join(' then ');
}
