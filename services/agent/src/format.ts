/**
 * @module format
 * Renders a turn as readable text for the terminal: each tool call with its arguments, duration,
 * `isError`, what the server returned (`structuredContent` versus text), and exactly what was
 * sent to the model. Pure, so it is tested without a terminal.
 */
import type { ModelDescription } from './llm/provider.js';
import type { ToolCallTrace, TurnResult } from './trace.js';
import type { ServerInfo } from './types.js';

/** Long JSON is cut in the terminal view only; `--json` and the HTTP API keep it whole. */
const MAX_SHOWN_CHARS = 600;

export function formatHeader(model: ModelDescription, servers: readonly ServerInfo[]): string {
  const lines = [`model:  ${model.label}  [${model.api} API at ${model.baseUrl}]`];
  for (const server of servers) {
    lines.push(
      `mcp:    ${server.name} → ${server.target}  (protocol ${server.protocolVersion}, ${server.era} era)`,
    );
  }
  return lines.join('\n');
}

export function formatToolCall(trace: ToolCallTrace, index: number): string {
  const where = trace.tool ? clip(`${trace.server}/${trace.tool}`) : '(no such tool)';
  const status = trace.isError ? 'ERROR' : 'ok';
  const lines = [
    `┌─ tool call ${index + 1}: ${clip(trace.functionName)} → ${where}   ${trace.durationMs} ms   ${status}`,
    `│ arguments:         ${clip(toJson(trace.arguments))}`,
  ];
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
  return [...calls, `answer${stop}: ${result.answer}`].join('\n');
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
