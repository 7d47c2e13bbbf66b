/**
 * @module result
 * Builders for tool results. Tool authors return one of these and never hand-craft a result,
 * so every result on the wire has the same shape: text content for any client, a JSON object
 * in `structuredContent` for clients that read it, and an explicit `isError`.
 */
import { ToolError } from './errors.js';
import { type CallToolResult, isPlainObject, isRecord, type StructuredContent } from './schemas.js';

/** A successful result with data: `structuredContent` plus the same JSON as text. */
export type StructuredToolResult<T extends StructuredContent> = CallToolResult & {
  structuredContent: T;
  isError: false;
};

/** Options for {@link ok}. */
export interface OkOptions {
  /** A sentence for humans and older clients, added after the JSON text block. */
  summary?: string;
}

/**
 * A success that carries data. `data` must be a plain object; wrap a list with {@link okList}.
 * The spec recommends repeating structured data as serialized JSON in a text block, for
 * clients that ignore `structuredContent`, so the first content block is exactly that JSON.
 */
export function ok<T extends StructuredContent>(data: T, options: OkOptions = {}): StructuredToolResult<T> {
  if (!isPlainObject(data)) {
    // A programming error, not a model error: throw so the tool author sees it in tests.
    throw new TypeError(
      'ok() needs a plain object. Wrap lists with okList() and put single values in a field, e.g. { value: 42 }.',
    );
  }
  // `JSON.stringify` returns undefined, not a string, when a `toJSON` method returns undefined.
  const json: string | undefined = JSON.stringify(data);
  // Round-trip so structuredContent is exactly what JSON carries (no undefined, no Date objects),
  // and the text block and structuredContent can never disagree.
  const parsed: unknown = json === undefined ? undefined : JSON.parse(json);
  // A `toJSON` method on `data` decides what it serializes to, which may not be an object.
  if (json === undefined || !isPlainObject(parsed)) {
    throw new TypeError(
      'ok() data must serialize to a JSON object; a toJSON() method on it returned something else.',
    );
  }
  const structuredContent = parsed as T;
  const content: CallToolResult['content'] = [{ type: 'text', text: json }];
  if (options.summary) content.push({ type: 'text', text: options.summary });
  return { content, structuredContent, isError: false };
}

/** The object a list is wrapped in: never a bare array. */
export type ListResult<Item, Extra extends StructuredContent = Record<never, never>> = {
  items: Item[];
  count: number;
} & Extra;

/**
 * A success for a list. The items are wrapped as `{ items, count, ...extra }`, because
 * `structuredContent` must be an object; `extra` can carry paging fields such as `nextCursor`.
 */
export function okList<Item, Extra extends StructuredContent = Record<never, never>>(
  items: readonly Item[],
  extra?: Extra,
  options: OkOptions = {},
): StructuredToolResult<ListResult<Item, Extra>> {
  if (!Array.isArray(items)) throw new TypeError('okList() needs an array of items.');
  const data = { ...(extra ?? {}), items: [...items], count: items.length } as ListResult<Item, Extra>;
  return ok(data, options);
}

/** A plain-text success, for tools that have nothing structured to say. */
export function okText(text: string): CallToolResult & { isError: false } {
  return { content: [{ type: 'text', text }], isError: false };
}

/**
 * A failure the model can act on: `isError: true` and a message written for the model, such as
 * `Unknown city "Osloo". Did you mean "Oslo"?`. It carries no `structuredContent`, because
 * clients validate `structuredContent` against the tool's `outputSchema` even on errors.
 */
export function fail(message: string): CallToolResult & { isError: true } {
  const text = message.trim() || 'The tool failed without saying why.';
  return { content: [{ type: 'text', text }], isError: true };
}

/** What {@link failFromError} returns: the safe result, and a reference to find the full error in the logs. */
export interface SafeFailure {
  result: CallToolResult & { isError: true };
  /** Set for unexpected errors: the same id appears in the result text and should appear in the log. */
  ref?: string;
}

/**
 * Turns anything a tool threw into a result that is safe to send. A {@link ToolError} keeps its
 * message, because it was written for the model. Anything else is a bug: its message and stack
 * may hold paths, SQL or secrets, so the client only gets a generic text with a reference id.
 */
export function failFromError(error: unknown): SafeFailure {
  if (error instanceof ToolError) return { result: fail(error.message) };
  // Web Crypto is global in Node 20+ and in browsers, so this module runs in both.
  const ref = globalThis.crypto.randomUUID().slice(0, 8);
  return {
    result: fail(
      `The tool failed because of an internal error (ref ${ref}). Try again later, or try another way.`,
    ),
    ref,
  };
}

/**
 * The text a result carries: its text blocks joined by line breaks and trimmed, '' when it has none.
 * For a `fail()` that is the message (written for the model, and fit to show a person); for an `ok()`,
 * the JSON and then the summary. It reads any value and never throws, so it takes a result as a
 * client (`callTool`) or an MCP Apps view (`ontoolresult`) receives it, without a cast:
 * `result.content[0].text` does not type-check, because a block may be an image and may be missing.
 */
export function resultText(result: unknown): string {
  const content = isRecord(result) ? result.content : undefined;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((block) =>
      isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
    .join('\n')
    .trim();
}
