/**
 * @module format
 * Renders a turn as readable text for the terminal: each tool call with its arguments, duration,
 * `isError`, what the server returned (`structuredContent` versus text), and exactly what was
 * sent to the model. Pure, so it is tested without a terminal.
 */
import { SEARCH_TOOLS_FUNCTION } from './discovery/search-function.js';
import type { ModelDescription } from './llm/provider.js';
import type { ServerLogEvent, ToolCallTrace, TurnResult } from './trace.js';
import type { ServerInfo, TaskInfo } from './types.js';

/** Where `pnpm start` serves the chat page, which draws a tool's MCP Apps view. */
export const CHAT_PAGE = 'pnpm start, then http://127.0.0.1:3001';

/** Long JSON is cut in the terminal view only; `--json` and the HTTP API keep it whole. */
const MAX_SHOWN_CHARS = 600;

/**
 * The servers come first, each named as it introduced itself: a stack left running from another
 * checkout answers on the same port, and its name and version give it away at once. A server's
 * skills follow it on a line of their own.
 */
export function formatHeader(model: ModelDescription, servers: readonly ServerInfo[]): string {
  const lines = servers.map((server) => {
    const answered = server.implementation
      ? `${clip(server.implementation.name)} ${clip(server.implementation.version)}`
      : '(a server that gave no name)';
    const line = `mcp:    ${server.name} → ${answered} at ${server.target} (protocol ${server.protocolVersion}, ${server.era} era)`;
    // The skills the model may read with read_skill, by name; their descriptions are in `--json`.
    const skills = server.skills?.map((skill) => clip(skill.name)).join(', ');
    return skills ? `${line}\nskills: ${server.name} → ${skills}` : line;
  });
  lines.push(`model:  ${model.label}  [${model.api} API at ${model.baseUrl}]`);
  return lines.join('\n');
}

export function formatToolCall(trace: ToolCallTrace, index: number): string {
  const where = trace.tool ? clip(`${trace.server}/${trace.tool}`) : noTool(trace);
  const status = trace.isError ? 'ERROR' : 'ok';
  const lines = [
    `┌─ tool call ${index + 1} (round ${trace.round}): ${clip(trace.functionName)} → ${where}   ${trace.durationMs} ms   ${status}`,
    `│ arguments:         ${clip(toJson(trace.arguments))}`,
  ];
  if (trace.discovery) {
    const found = trace.discovery.found.map(clip).join(', ');
    lines.push(`│ found:             ${found || '(nothing matched)'}`);
  }
  if (trace.view) {
    // The terminal cannot draw it; the chat page of `pnpm start` can.
    lines.push(
      `│ view:              ${clip(trace.view.uri)}, drawn under this call on the chat page (${CHAT_PAGE})`,
    );
  }
  if (trace.task) lines.push(...formatTask(trace.task).map((line) => `│ ${line}`));
  const asker = clip(trace.tool ?? trace.functionName);
  for (const input of trace.inputs) {
    const outcome =
      input.notAsked !== undefined ? `not asked (${clip(input.notAsked)})` : `answered "${input.action}"`;
    lines.push(`│ input requested by ${asker}: ${outcome} · question: ${clip(input.message)}`);
    if (input.notAsked !== undefined) {
      lines.push(
        `│   "${input.action}" went to the tool without asking you: where its reply says you declined, nobody was asked`,
      );
    }
  }
  if (trace.problem) lines.push(`│ problem:           ${trace.problem.kind}: ${clip(trace.problem.message)}`);
  if (trace.result) {
    lines.push(`│ isError:           ${trace.result.isError}`);
    if (trace.result.structuredContent !== undefined) {
      lines.push(`│ structuredContent: ${clip(toJson(trace.result.structuredContent))}`);
    } else {
      lines.push('│ structuredContent: (none)');
    }
    trace.result.text.forEach((text, i) => {
      lines.push(`│ content[text ${i + 1}]:   ${clip(text)}`);
    });
    for (const other of trace.result.otherContent) lines.push(`│ content[other]:    ${clip(other)}`);
  }
  for (const progress of trace.progress) {
    const of = progress.total === undefined ? '' : `/${progress.total}`;
    lines.push(
      `│ progress:          ${progress.progress}${of}${progress.message ? ` ${clip(progress.message)}` : ''}`,
    );
  }
  for (const log of trace.logs) lines.push(`│ log (${clip(log.level)}): ${clip(toJson(log.data))}`);
  const cut = trace.truncated ? ' (truncated to the budget)' : '';
  lines.push(`└─ sent to model (${trace.sentAs}${cut}): ${clip(trace.sentToModel)}`);
  return lines.join('\n');
}

/** A call with no tool: the agent's own tool search (`discovery/`), else a name that matched nothing. */
function noTool(trace: ToolCallTrace): string {
  const searched = trace.discovery !== undefined || trace.problem?.kind === 'invalid_arguments';
  return searched && trace.functionName === SEARCH_TOOLS_FUNCTION
    ? 'tool search (the agent)'
    : '(no such tool)';
}

/** Why the agent sent `tasks/cancel`, in the person's words. */
const CANCEL_REASONS: Record<NonNullable<TaskInfo['cancel']>['reason'], string> = {
  aborted: 'the question was cancelled',
  timeout: 'it ran past the longest the agent waits',
  error: 'the agent could not follow it',
};

/**
 * A task's lines in a call's trace: its id (cut short: whoever holds the whole id may read the
 * task; `--json` has it), the statuses the agent saw and how long, its last status message, and
 * whether the agent cancelled it.
 */
export function formatTask(task: TaskInfo): string[] {
  const ended = ['completed', 'failed', 'cancelled'].includes(task.statuses.at(-1) ?? '');
  const seconds = (task.elapsedMs / 1000).toFixed(1);
  const polls = `${task.polls} tasks/get`;
  const lines = [
    `task:              ${shortTaskId(task.id)} ${task.statuses.join(' → ')} ${ended ? 'in' : 'for'} ${seconds} s (${polls})`,
  ];
  if (task.statusMessage !== undefined) lines.push(`task status:       ${clip(task.statusMessage)}`);
  if (task.cancel) {
    const heard = task.cancel.acknowledged
      ? 'the server acknowledged it'
      : 'the server did not acknowledge it';
    lines.push(
      `task cancelled:    tasks/cancel sent because ${CANCEL_REASONS[task.cancel.reason]}; ${heard}`,
    );
  }
  return lines;
}

/** One line for a task while it runs, e.g. `task 9HkQ2x… working (1.2 s) · Section 2 of 5`. */
export function formatTaskUpdate(task: TaskInfo): string {
  const message = task.statusMessage === undefined ? '' : ` · ${clip(task.statusMessage)}`;
  return `task ${shortTaskId(task.id)} ${task.statuses.at(-1) ?? ''} (${(task.elapsedMs / 1000).toFixed(1)} s)${message}`;
}

/** The first characters of a task id: enough to tell tasks apart on screen, not enough to read one. */
function shortTaskId(id: string): string {
  const shown = clip(id);
  return shown.length > 8 ? `${shown.slice(0, 6)}…` : shown;
}

export function formatTurn(result: TurnResult): string {
  const calls = result.toolCalls.map((trace, i) => formatToolCall(trace, i));
  const stop = result.stoppedBecause === 'max_rounds' ? '  (stopped at the round limit)' : '';
  const trace = result.traceId ? [`trace: ${result.traceId}`] : [];
  return [
    ...calls,
    ...result.serverLogs.map(formatServerLog),
    `answer${stop}: ${result.answer}`,
    ...trace,
  ].join('\n');
}

/** A log that came while several calls ran and names none of them: shown once, under no call. */
export function formatServerLog(log: ServerLogEvent): string {
  const source = log.logger === undefined ? '' : ` ${clip(log.logger)}`;
  return `server log (not tied to a call) from ${clip(log.server)}${source} (${clip(log.level)}): ${clip(toJson(log.data))}`;
}

/** The `--json` shape: the answer plus every tool call with its fields. */
export function turnAsJson(
  result: TurnResult,
  model: ModelDescription,
  servers: readonly ServerInfo[],
): string {
  return JSON.stringify(
    {
      answer: result.answer,
      conversationId: result.conversationId,
      stoppedBecause: result.stoppedBecause,
      model,
      servers,
      toolCalls: result.toolCalls,
      serverLogs: result.serverLogs,
      // null with telemetry off, so a script can tell "off" from a missing field.
      traceId: result.traceId ?? null,
    },
    null,
    2,
  );
}

/** `JSON.stringify` gives `undefined` for `undefined` (a log notification without `data`, say). */
function toJson(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** One line, cut to {@link MAX_SHOWN_CHARS}, with control characters escaped. */
function clip(text: string): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ');
  const shown = oneLine.length <= MAX_SHOWN_CHARS ? oneLine : oneLine.slice(0, MAX_SHOWN_CHARS);
  const cut = shown.length < oneLine.length ? `… (${oneLine.length} chars)` : '';
  return escapeControls(shown) + cut;
}

/**
 * Tool results and log data come from MCP servers: an escape sequence in them, printed as it is,
 * could clear or rewrite the terminal. Shown as `\u001b` and the like, it cannot.
 */
function escapeControls(text: string): string {
  let out = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const control = (code < 0x20 && character !== '\t') || (code >= 0x7f && code <= 0x9f);
    out += control ? `\\u${code.toString(16).padStart(4, '0')}` : character;
  }
  return out;
}
