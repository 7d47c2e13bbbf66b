/**
 * @module loop
 * The agent loop: offer the MCP tools to the model as functions, run the calls it makes, hand the
 * results back (`isError` first, then `structuredContent`, then text: see `resultToModel` in
 * `@mcp-workshop/shared`), and repeat until the model answers or the round limit is hit. When a
 * server publishes skills, the agent's own `read_skill` is offered too (`read-skill.ts`). Above a
 * size, the model gets `search_tools` and the tools it found instead of every tool (`discovery/`).
 */
import { randomUUID } from 'node:crypto';
import {
  describeContent,
  failureToModel,
  isPlainObject,
  type ModelView,
  resultToModel,
} from '@mcp-workshop/shared';
import type { ConversationStore } from './conversations.js';
import { type ToolDiscovery, toolDiscoveryFor } from './discovery/offer.js';
import {
  parseSearchArguments,
  SEARCH_TOOLS_FUNCTION,
  searchResultText,
} from './discovery/search-function.js';
import { DEFAULT_TOOL_SEARCH, type ToolSearchSettings } from './discovery/threshold.js';
import { toFunctionSpecs } from './llm/functions.js';
import type { ChatMessage, FunctionSpec, ModelProvider, ModelToolCall } from './llm/provider.js';
import { type SkillFunction, skillFunction } from './read-skill.js';
import type { AgentTelemetry } from './telemetry/types.js';
import {
  DISPLAYABLE_IMAGE_TYPES,
  MAX_MEDIA_BASE64_CHARS,
  MAX_MEDIA_PER_CALL,
  type ServerLogEvent,
  type ToolCallProblem,
  type ToolCallTrace,
  type TraceMedia,
  type TurnEvents,
  type TurnResult,
} from './trace.js';
import type { InputEvent, McpHub, ServerLogMessage } from './types.js';

/** A model that keeps calling tools forever is a bug, not a feature: bound the loop. */
export const DEFAULT_MAX_TOOL_ROUNDS = 8;

export interface AgentSettings {
  maxToolRounds: number;
  toolTimeoutMs: number;
  resultBudgetChars: number;
  systemPrompt: string;
  /** When to offer `search_tools` instead of every tool; default {@link DEFAULT_TOOL_SEARCH} (AGENT_TOOL_SEARCH*). */
  toolSearch?: ToolSearchSettings;
}

export interface AskOptions {
  conversationId?: string;
  signal?: AbortSignal;
  events?: TurnEvents;
}

export interface Agent {
  ask(message: string, options?: AskOptions): Promise<TurnResult>;
  /** Forgets a conversation ("new conversation"). */
  reset(conversationId: string): boolean;
}

export interface AgentParts {
  hub: McpHub;
  model: ModelProvider;
  conversations: ConversationStore;
  settings: AgentSettings;
  /** With telemetry on: the turn and each model call become spans (telemetry/start.ts). */
  telemetry?: Pick<AgentTelemetry, 'turn' | 'chat'>;
}

export function createAgent({ hub, model, conversations, settings, telemetry }: AgentParts): Agent {
  const ask = askOnce(hub, model, conversations, settings, telemetry);
  return {
    reset: (conversationId) => conversations.delete(conversationId),
    ask(message, options = {}) {
      const conversationId = options.conversationId ?? randomUUID();
      if (!telemetry) return ask(message, conversationId, options);
      return telemetry.turn(conversationId, () => ask(message, conversationId, options));
    },
  };
}

/** One turn: the model and the tools take turns until the model answers or the round limit is hit. */
function askOnce(
  hub: McpHub,
  model: ModelProvider,
  conversations: ConversationStore,
  settings: AgentSettings,
  telemetry: AgentParts['telemetry'],
) {
  const complete = (request: Parameters<ModelProvider['complete']>[0]) =>
    telemetry ? telemetry.chat(model.description, () => model.complete(request)) : model.complete(request);
  return async (message: string, conversationId: string, options: AskOptions): Promise<TurnResult> => {
    const events = options.events ?? {};
    const history = [...conversations.get(conversationId), { role: 'user', content: message } as ChatMessage];
    const toolCalls: ToolCallTrace[] = [];
    const turnStarted = performance.now();
    const serverLogs: ServerLogEvent[] = [];
    // One function for the whole turn: the hub gives it each log no call can claim once.
    const onServerLog = (log: ServerLogMessage) =>
      serverLogs.push({ ...log, atMs: Math.round(performance.now() - turnStarted) });
    const run: TurnContext = { hub, settings, signal: options.signal, events, onServerLog };

    for (let round = 1; round <= settings.maxToolRounds; round++) {
      // New tools (tools/list_changed) are swapped in here, between model turns, never mid-turn.
      await hub.refresh();
      const catalog = toFunctionSpecs(hub.tools());
      const skills = skillFunction(hub.skills(), (name) => catalog.resolve(name) !== undefined);
      const discovery = await toolDiscoveryFor(catalog, settings.toolSearch ?? DEFAULT_TOOL_SEARCH);
      // Found tools are read from the history, this turn's searches included: offered from the next request on.
      const tools = discovery ? discovery.offer(history) : catalog.functions;
      const functions = skills ? [...tools, skills.spec] : tools;
      const turn = await complete({
        messages: [{ role: 'system', content: settings.systemPrompt }, ...history],
        functions,
        signal: options.signal,
        onTextDelta: events.onTextDelta,
      });
      history.push(assistantMessage(turn.text, turn.toolCalls));
      if (turn.toolCalls.length === 0) {
        conversations.save(conversationId, history);
        return {
          answer: turn.text,
          conversationId,
          toolCalls,
          rounds: round,
          stoppedBecause: 'answer',
          serverLogs,
        };
      }
      // Calls from one turn are independent by definition, so they run concurrently.
      const traces = await Promise.all(
        turn.toolCalls.map((call) => {
          if (skills && call.name === skills.spec.name) return runSkillRead(call, round, skills, run);
          if (discovery && call.name === SEARCH_TOOLS_FUNCTION)
            return runToolSearch(call, round, discovery, run);
          // A tool not found yet still runs when it exists: the model may know its name from the conversation.
          return runToolCall(call, round, catalog, run, functions);
        }),
      );
      for (const trace of traces) {
        history.push({ role: 'tool', tool_call_id: trace.id, content: trace.sentToModel });
        toolCalls.push(trace);
      }
    }

    conversations.save(conversationId, history);
    const answer =
      `I stopped after ${settings.maxToolRounds} rounds of tool calls (AGENT_MAX_TOOL_ROUNDS) ` +
      'without reaching a final answer. Try a more specific question.';
    return {
      answer,
      conversationId,
      toolCalls,
      rounds: settings.maxToolRounds,
      stoppedBecause: 'max_rounds',
      serverLogs,
    };
  };
}

function assistantMessage(text: string, calls: ModelToolCall[]): ChatMessage {
  if (calls.length === 0) return { role: 'assistant', content: text };
  return {
    role: 'assistant',
    content: text || null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

type Catalog = ReturnType<typeof toFunctionSpecs>;

/** What every call of a turn shares. */
interface TurnContext {
  hub: McpHub;
  settings: AgentSettings;
  signal: AbortSignal | undefined;
  events: TurnEvents;
  onServerLog: (message: ServerLogMessage) => void;
}

async function runToolCall(
  call: ModelToolCall,
  round: number,
  catalog: Catalog,
  { hub, settings, signal, events, onServerLog }: TurnContext,
  /** Every function the model was offered this round, `read_skill` included: an unknown name lists them. */
  offered: readonly FunctionSpec[],
): Promise<ToolCallTrace> {
  const started = performance.now();
  const budget = { budgetChars: settings.resultBudgetChars };
  const parsed = parseArguments(call.arguments);
  const resolved = catalog.resolve(call.name);
  const base = {
    id: call.id,
    round,
    functionName: call.name,
    server: resolved?.tool.server,
    tool: resolved?.tool.name,
    ...(resolved?.tool.ui?.resourceUri !== undefined && { view: { uri: resolved.tool.ui.resourceUri } }),
    arguments: parsed.ok ? parsed.value : call.arguments,
  };
  events.onToolStart?.(base);

  const refuse = (problem: ToolCallProblem, details?: Record<string, unknown>): ToolCallTrace => {
    const view = failureToModel(problem.message, details, budget);
    const trace = finish(base, started, view, { problem });
    events.onToolEnd?.(trace);
    return trace;
  };

  if (!resolved) {
    const known = offered.map((fn) => fn.name).join(', ');
    return refuse({
      kind: 'unknown_function',
      message: `There is no function named "${call.name}". Use one of: ${known || '(none)'}.`,
    });
  }
  if (!parsed.ok) {
    return refuse({
      kind: 'invalid_arguments',
      message: `The arguments for ${call.name} are not a valid JSON object (${parsed.error}). Send a JSON object.`,
      problems: [parsed.error],
    });
  }
  const mcpArguments = resolved.toMcpArguments(parsed.value);
  // Checked against the tool's own inputSchema before anything is sent: the server is not called.
  const problems = resolved.validate(mcpArguments);
  if (problems.length > 0) {
    return refuse(
      {
        kind: 'invalid_arguments',
        message: `Invalid arguments for ${call.name}: ${problems.join('; ')}. Fix them and call again.`,
        problems,
      },
      { problems },
    );
  }

  const outcome = await hub.callTool(resolved.tool.server, resolved.tool.name, mcpArguments, {
    timeoutMs: settings.toolTimeoutMs,
    signal,
    onProgress: (event) => events.onToolProgress?.(call.id, event),
    onServerLog,
    onTask: (task) => events.onToolTask?.(call.id, task),
  });
  const unasked = outcome.inputs.filter((input) => input.notAsked !== undefined);
  let trace: ToolCallTrace;
  if (outcome.result) {
    let view = resultToModel(outcome.result, budget);
    if (view.source === 'error' && unasked.length > 0) view = nobodyAsked(call.name, unasked, view, budget);
    trace = finish(base, started, view, { result: outcome.result });
  } else {
    const failure = outcome.failure ?? {
      kind: 'transport' as const,
      message: 'The call produced no result.',
    };
    const problem: ToolCallProblem = failure;
    const details = failure.kind === 'jsonrpc' ? { code: failure.code } : { kind: failure.kind };
    trace = finish(base, started, failureToModel(failure.message, details, budget), { problem });
  }
  trace.progress = outcome.progress;
  trace.logs = outcome.logs;
  trace.inputs = outcome.inputs;
  if (outcome.task) trace.task = outcome.task;
  events.onToolEnd?.(trace);
  return trace;
}

/** A `read_skill` call: traced like a tool call, with the skill's server and the `skill://` URI it read. */
async function runSkillRead(
  call: ModelToolCall,
  round: number,
  skills: SkillFunction,
  { hub, settings, signal, events }: TurnContext,
): Promise<ToolCallTrace> {
  const started = performance.now();
  const budget = { budgetChars: settings.resultBudgetChars };
  const read = skills.prepare(call.arguments, hub, signal);
  const base = {
    id: call.id,
    round,
    functionName: call.name,
    server: read.server,
    tool: read.uri,
    arguments: read.arguments,
  };
  events.onToolStart?.(base);
  const outcome = await read.run();
  const trace =
    'result' in outcome
      ? finish(base, started, resultToModel(outcome.result, budget), { result: outcome.result })
      : finish(base, started, failureToModel(outcome.problem.message, undefined, budget), outcome);
  events.onToolEnd?.(trace);
  return trace;
}

/** A `search_tools` call: traced with what was searched and found (function names), no server and no tool. */
function runToolSearch(
  call: ModelToolCall,
  round: number,
  discovery: ToolDiscovery,
  { settings, events }: TurnContext,
): ToolCallTrace {
  const started = performance.now();
  const budget = { budgetChars: settings.resultBudgetChars };
  const checked = parseSearchArguments(call.arguments);
  const base = { id: call.id, round, functionName: call.name, arguments: parseJsonLoosely(call.arguments) };
  events.onToolStart?.(base);
  let trace: ToolCallTrace;
  if (!checked.ok) {
    const problem: ToolCallProblem = {
      kind: 'invalid_arguments',
      message: checked.message,
      problems: [checked.message],
    };
    trace = finish(base, started, failureToModel(checked.message, undefined, budget), { problem });
  } else {
    const found = discovery.search(checked.query);
    const text = searchResultText(checked.query, found);
    const result = { content: [{ type: 'text', text }], isError: false };
    trace = finish(base, started, resultToModel(result, budget), { result });
    trace.discovery = { query: checked.query, found: found.map((fn) => fn.name) };
  }
  events.onToolEnd?.(trace);
  return trace;
}

/** The arguments as the trace shows them: parsed when they are JSON, else the raw text. */
function parseJsonLoosely(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A tool whose request for input nobody could see was told "decline" on the person's behalf, so
 * its error may well say "the user declined". Passed on, the model would repeat it. It gets what
 * really happened instead, reason first (one-shot `ask` has no one to ask), and the tool's own
 * reply beside it. A tool that succeeded anyway keeps its result: that reply is what happened.
 */
function nobodyAsked(
  functionName: string,
  unasked: readonly InputEvent[],
  reply: ModelView,
  budget: { budgetChars: number },
): ModelView {
  const first = unasked[0];
  const question = first ? ` "${first.message}"` : ' for input';
  // Short, reason first: a model that quotes the error quotes this much of it.
  return failureToModel(
    `Not done, and nobody was asked: ${first?.notAsked ?? 'there was no one to ask'}. ` +
      `(${functionName} asked${question}; the agent answered "decline" without asking the user.)`,
    { toolReply: reply.text },
    budget,
  );
}

export function finish(
  base: Pick<ToolCallTrace, 'id' | 'round' | 'functionName' | 'server' | 'tool' | 'arguments' | 'view'>,
  started: number,
  view: ModelView,
  outcome: { result?: unknown; problem?: ToolCallProblem },
): ToolCallTrace {
  const result = outcome.result === undefined ? undefined : summarizeResult(outcome.result);
  return {
    ...base,
    durationMs: Math.round(performance.now() - started),
    isError: outcome.problem !== undefined || result?.isError === true,
    problem: outcome.problem,
    result,
    sentToModel: view.text,
    sentAs: view.source,
    truncated: view.truncated,
    progress: [],
    logs: [],
    inputs: [],
  };
}

/** Standard base64, padded or not; checked on the whole string, which is at most 300k characters. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** What the trace keeps of a raw result; tolerant of malformed ones. Exported for tests. */
export function summarizeResult(raw: unknown): NonNullable<ToolCallTrace['result']> {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const blocks = Array.isArray(record.content) ? record.content : [];
  const text: string[] = [];
  const otherContent: string[] = [];
  const media: TraceMedia[] = [];
  for (const block of blocks) {
    const item = typeof block === 'object' && block !== null ? (block as Record<string, unknown>) : {};
    if (item.type === 'text' && typeof item.text === 'string') text.push(item.text);
    else {
      otherContent.push(describeContent(block));
      const image = displayableImage(item);
      if (image && media.length < MAX_MEDIA_PER_CALL) media.push(image);
    }
  }
  return {
    isError: record.isError === true,
    structuredContent: record.structuredContent,
    text,
    otherContent,
    ...(media.length > 0 ? { media } : {}),
  };
}

/** An image block safe and small enough to show; anything else stays a descriptor only. */
function displayableImage(item: Record<string, unknown>): TraceMedia | undefined {
  const { type, mimeType, data } = item;
  if (type !== 'image' || typeof mimeType !== 'string' || typeof data !== 'string') return undefined;
  const mime = mimeType.trim().toLowerCase();
  if (!DISPLAYABLE_IMAGE_TYPES.includes(mime)) return undefined;
  if (data.length === 0 || data.length > MAX_MEDIA_BASE64_CHARS || !BASE64.test(data)) return undefined;
  return { type: 'image', mimeType: mime, data };
}

function parseArguments(
  raw: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Models send "" (or null) for functions without parameters.
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (value === null) return { ok: true, value: {} };
  if (!isPlainObject(value))
    return { ok: false, error: `expected a JSON object, got ${JSON.stringify(value).slice(0, 40)}` };
  return { ok: true, value };
}
