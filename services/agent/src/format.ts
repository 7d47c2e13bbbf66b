/**
 * @module format
 * Renders a turn as readable text for the terminal: each tool call with its arguments, duration,
 * `isError`, what the server returned (`structuredContent` versus text), and exactly what was
 * sent to the model. Pure, so it is tested without a terminal.
 */
import type { ModelDescription } from './llm/provider.js';
import type { ServerLogEvent, ToolCallTrace, TurnResult } from './trace.js';
import type { ServerInfo } from './types.js';

/** Where `pnpm start` serves the chat page, which draws a tool's MCP Apps view. */
export const CHAT_PAGE = 'pnpm start, then http://127.0.0.1:3001';

/** Long JSON is cut in the terminal view only; `--json` and the HTTP API keep it whole. */
const MAX_SHOWN_CHARS = 600;

/**
 * The servers come first, each named as it introduced itself: a stack left running from another
 * checkout answers on the same port, and its name and version give it away at once.
 */
export function formatHeader(model: ModelDescription, servers: readonly ServerInfo[]): string {
  const lines = servers.map((server) => {
    const answered = server.implementation
      ? `${clip(server.implementation.name)} ${clip(server.implementation.version)}`
      : '(a server that gave no name)';
    return `mcp:    ${server.name} → ${answered} at ${server.target} (protocol ${server.protocolVersion}, ${server.era} era)`;
  });
  lines.push(`model:  ${model.label}  [${model.api} API at ${model.baseUrl}]`);
  return lines.join('\n');
}

export function formatToolCall(trace: ToolCallTrace, index: number): string {
  const where = trace.tool ? clip(`${trace.server}/${trace.tool}`) : '(no such tool)';
  const status = trace.isError ? 'ERROR' : 'ok';
  const lines = [
    `┌─ tool call ${index + 1} (round ${trace.round}): ${clip(trace.functionName)} → ${where}   ${trace.durationMs} ms   ${status}`,
    `│ arguments:         ${clip(toJson(trace.arguments))}`,
  ];
  if (trace.view) {
    // The terminal cannot draw it; the chat page of `pnpm start` can.
    lines.push(
      `│ view:              ${clip(trace.view.uri)}, drawn under this call on the chat page (${CHAT_PAGE})`,
    );
  }
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
