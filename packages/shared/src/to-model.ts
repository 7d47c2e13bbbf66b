/**
 * @module to-model
 * What the model reads of a tool call: turns a `tools/call` result (or a failure that is not a
 * result) into the content of the `role: "tool"` message. Partner of `result.ts`, which decides
 * what a server sends; the rules and their reasons are in `adr/005-results-to-the-model.md`.
 */
import { isRecord } from './schemas.js';

/**
 * About 4,000 tokens. A whole forecast or a page of tasks fits, and a few tool rounds still
 * leave most of a small model's context window for the conversation itself.
 */
export const DEFAULT_MODEL_BUDGET_CHARS = 16_000;

/**
 * Below this the truncation marker and the `{"error":...}` wrapper leave almost no room for
 * content, so a smaller budget is a configuration bug, not a choice.
 */
export const MIN_MODEL_BUDGET_CHARS = 200;

/**
 * A descriptor is a label. A URI, name or type longer than this is noise (or an attack) and
 * must not spend the budget meant for the content itself.
 */
const MAX_LABEL_CHARS = 200;

/** Sent when an error result carries no text: the model must still learn that the call failed. */
const NO_ERROR_MESSAGE = 'The tool reported an error without a message.';

/** Sent by {@link failureToModel} when the caller passes a blank message. */
const NO_FAILURE_MESSAGE = 'The tool call failed without saying why.';

/** Sent for a result we cannot read; it must not look like a success, so it is an error. */
const MALFORMED_MESSAGE = 'The server returned a malformed tool result.';

/** Sent instead of an empty tool message, which models tend to read as "still working". */
const EMPTY_TEXT = '(the tool returned no content)';

/** Options for {@link resultToModel} and {@link failureToModel}. */
export interface ToModelOptions {
  /** The most characters (UTF-16 code units) the model receives, marker included. */
  budgetChars?: number;
}

/** The tool message for the model, and how it was made (for logs, tests and the chat page). */
export interface ModelView {
  /** Exactly what is sent to the model as the tool message content. */
  text: string;
  /** Which rule produced the text; see ADR 005. */
  source: 'error' | 'structured' | 'structured+text' | 'text' | 'empty';
  /** True when `text` was cut to the budget and ends with the truncation marker. */
  truncated: boolean;
}

type Unbounded = Omit<ModelView, 'truncated'>;

/**
 * Renders a tool result for the model. `result` is untrusted: whatever it is, this never throws;
 * an unreadable result reaches the model as an error. It only throws a `RangeError` for bad options.
 */
export function resultToModel(result: unknown, options: ToModelOptions = {}): ModelView {
  const budget = budgetFrom(options);
  let view: Unbounded;
  try {
    view = render(result);
  } catch {
    // Getters that throw, cycles, BigInt: the server sent something no client could have parsed.
    view = { text: toJson({ error: MALFORMED_MESSAGE }), source: 'error' };
  }
  return bound(view, budget);
}

/**
 * Renders a failure that is not a tool result (a JSON-RPC error, a timeout, an unknown function,
 * invalid arguments) as `{"error": message, ...details}`. `message` always wins over a
 * `details.error`. Pass text written for the model, never a stack trace.
 */
export function failureToModel(
  message: string,
  details?: Record<string, unknown>,
  options: ToModelOptions = {},
): ModelView {
  const budget = budgetFrom(options);
  const error = typeof message === 'string' && message.trim() !== '' ? message.trim() : NO_FAILURE_MESSAGE;
  const rest = isRecord(details) ? Object.entries(details).filter(([key]) => key !== 'error') : [];
  let text: string;
  try {
    // fromEntries defines own properties, so a `__proto__` key stays a plain key.
    text = toJson(Object.fromEntries([['error', error], ...rest]));
  } catch {
    // Details that JSON cannot carry are a bug in the caller; the model still gets the message.
    text = toJson({ error });
  }
  return bound({ text, source: 'error' }, budget);
}

/**
 * How one content block reads to the model. Text is returned as it is; anything else becomes a
 * short descriptor such as `[image: image/png, 1.2 KB]`, because a model cannot read base64.
 * Never throws, whatever `block` is.
 */
export function describeContent(block: unknown): string {
  try {
    return describe(block);
  } catch {
    return '[unsupported content]';
  }
}

function describe(block: unknown): string {
  if (!isRecord(block) || typeof block.type !== 'string') return '[unsupported content]';
  const { type } = block;
  switch (type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : malformed(type);
    case 'image':
    case 'audio':
      if (typeof block.data !== 'string') return malformed(type);
      return `[${type}: ${label(block.mimeType) ?? 'unknown type'}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource_link': {
      const parts = [label(block.name), label(block.uri)].filter((part) => part !== undefined);
      if (parts.length === 0) return malformed(type);
      const mimeType = label(block.mimeType);
      return `[resource link: ${parts.join(' ')}${mimeType ? ` (${mimeType})` : ''}]`;
    }
    case 'resource': {
      const resource = block.resource;
      if (!isRecord(resource)) return malformed(type);
      const uri = label(resource.uri) ?? 'without a uri';
      const mimeType = label(resource.mimeType);
      if (typeof resource.text === 'string') {
        return `[resource ${uri}${mimeType ? ` (${mimeType})` : ''}]\n${resource.text}`;
      }
      if (typeof resource.blob === 'string') {
        return `[resource ${uri}: ${mimeType ?? 'unknown type'}, ${formatBytes(base64Bytes(resource.blob))} binary]`;
      }
      return malformed(type);
    }
    default: {
      const shown = label(type);
      return shown === undefined
        ? '[unsupported content]'
        : `[unsupported content type ${JSON.stringify(shown)}]`;
    }
  }
}

/** The rules of ADR 005, in order, before the budget is applied. */
function render(result: unknown): Unbounded {
  if (!isRecord(result)) return { text: toJson({ error: MALFORMED_MESSAGE }), source: 'error' };
  // The spec requires `content`, but a missing array is easy to forgive; a wrong type is not.
  const content = result.content ?? [];
  if (!Array.isArray(content)) return { text: toJson({ error: MALFORMED_MESSAGE }), source: 'error' };

  const texts: string[] = [];
  const attachments: string[] = [];
  for (const block of content) {
    if (isTextBlock(block)) texts.push(block.text);
    else attachments.push(describeContent(block));
  }
  const said = texts.filter((text) => text.trim() !== '');
  // Round-trip once, so what we compare against and what we send are exactly what JSON carries.
  const hasData = result.structuredContent !== undefined;
  const data: unknown = hasData ? JSON.parse(toJson(result.structuredContent)) : undefined;

  // Rule 1: a failure the model does not notice turns into an invented success.
  if (result.isError === true) {
    const view: Record<string, unknown> = { error: said.join('\n') || NO_ERROR_MESSAGE };
    if (hasData) view.details = data;
    if (attachments.length > 0) view.attachments = attachments;
    return { text: toJson(view), source: 'error' };
  }

  // Rule 2: exact values beat prose, and the usual JSON text copy would only cost tokens again.
  if (hasData) {
    const extra = said.filter((text) => !isSameJson(text, data));
    if (extra.length === 0 && attachments.length === 0) return { text: toJson(data), source: 'structured' };
    const view: Record<string, unknown> = { structuredContent: data };
    if (extra.length > 0) view.text = extra.join('\n');
    if (attachments.length > 0) view.attachments = attachments;
    return { text: toJson(view), source: extra.length > 0 ? 'structured+text' : 'structured' };
  }

  // Rule 6: nothing to say, including only blank text.
  if (attachments.length === 0 && said.length === 0) return { text: EMPTY_TEXT, source: 'empty' };

  // Rule 3: the blocks in their order, descriptors among the text.
  return { text: content.map(describeContent).join('\n'), source: 'text' };
}

/** Rule 5: cut to the budget and say so; the marker is counted in the budget. */
function bound(view: Unbounded, budget: number): ModelView {
  const { text, source } = view;
  if (text.length <= budget) return { text, source, truncated: false };
  // The shown count only shrinks, so a marker sized for `budget` is never too short.
  let shown = budget - truncationMarker(budget, text.length).length;
  // Never leave half of a surrogate pair: it would reach the model as a replacement character.
  if (isHighSurrogate(text.charCodeAt(shown - 1))) shown -= 1;
  return { text: text.slice(0, shown) + truncationMarker(shown, text.length), source, truncated: true };
}

/** On its own line, so it cannot be mistaken for part of a cut JSON string. */
function truncationMarker(shown: number, total: number): string {
  return `\n… [truncated: showed ${shown} of ${total} characters]`;
}

function budgetFrom(options: ToModelOptions): number {
  const budget = options.budgetChars ?? DEFAULT_MODEL_BUDGET_CHARS;
  if (!Number.isSafeInteger(budget) || budget < MIN_MODEL_BUDGET_CHARS) {
    throw new RangeError(
      `budgetChars must be a whole number of at least ${MIN_MODEL_BUDGET_CHARS}, got ${String(budget)}.`,
    );
  }
  return budget;
}

/** True when `text` parses to the same JSON value as `data`, whatever the key order or spacing. */
function isSameJson(text: string, data: unknown): boolean {
  try {
    return jsonEqual(JSON.parse(text), data);
  } catch {
    // Not JSON, or nested deeper than the stack: either way it is not a plain copy of the data.
    return false;
  }
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}

/** Bytes behind a base64 string, from its length alone: the data itself is never decoded. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A one-line, bounded label, or undefined when there is nothing to show. */
function label(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // A newline in a name could fake a second descriptor or a line of content.
  const oneLine = value.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return undefined;
  return oneLine.length > MAX_LABEL_CHARS ? `${oneLine.slice(0, MAX_LABEL_CHARS)}…` : oneLine;
}

function malformed(type: string): string {
  return `[malformed ${type} content]`;
}

/** `JSON.stringify` returns undefined for functions, symbols and some `toJSON` methods; treat that as unreadable. */
function toJson(value: unknown): string {
  const json: string | undefined = JSON.stringify(value);
  if (json === undefined) throw new TypeError('The value cannot be represented as JSON.');
  return json;
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return isRecord(block) && block.type === 'text' && typeof block.text === 'string';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
