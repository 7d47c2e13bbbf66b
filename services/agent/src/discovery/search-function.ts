/**
 * @module discovery/search-function
 * `search_tools`, the one function the model is offered instead of a long tool list: its spec,
 * the check of its one argument, and the text the model gets back (the tools found, named as it
 * will call them, or a plain "nothing matched"). Pure. Test: `search-function.test.ts`.
 */
import { isPlainObject } from '@mcp-workshop/shared';
import type { FunctionSpec } from '../llm/provider.js';

export const SEARCH_TOOLS_FUNCTION = 'search_tools';

/** A search is a few words; a longer "query" is a pasted document or an attempt to make the index work hard. */
export const MAX_QUERY_CHARS = 200;
/** Each found tool's description is cut here: the model needs enough to choose, the full text comes with the tool. */
export const MAX_FOUND_DESCRIPTION_CHARS = 160;

export const SEARCH_TOOLS_SPEC: FunctionSpec = {
  name: SEARCH_TOOLS_FUNCTION,
  description:
    'Find the tools for a request. There are more tools than are listed here: search by a few words of ' +
    'what you need (e.g. "weather forecast", "add task"). The tools found can be called by name from ' +
    'your next step on, and stay available for the rest of the conversation.',
  parameters: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: `A few words saying what the tool should do, at most ${MAX_QUERY_CHARS} characters.`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  strict: true,
};

export type QueryCheck = { ok: true; query: string } | { ok: false; message: string };

const RETRY = `Call ${SEARCH_TOOLS_FUNCTION} again with {"query": "a few words of what you need"}.`;

/** The query from the model's raw arguments, or a message it can act on. Control characters become spaces. */
export function parseSearchArguments(raw: string): QueryCheck {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return { ok: false, message: `The arguments for ${SEARCH_TOOLS_FUNCTION} are not valid JSON. ${RETRY}` };
  }
  const query = isPlainObject(value) ? value.query : undefined;
  if (typeof query !== 'string') {
    return { ok: false, message: `${SEARCH_TOOLS_FUNCTION} needs "query", a string. ${RETRY}` };
  }
  if (query.length > MAX_QUERY_CHARS) {
    return {
      ok: false,
      message: `The query is ${query.length} characters long; keep it under ${MAX_QUERY_CHARS}: a few words, not the whole request.`,
    };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const cleaned = query.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (cleaned === '') return { ok: false, message: `The query is empty. ${RETRY}` };
  return { ok: true, query: cleaned };
}

/** What the model reads back: one line per tool found, or why nothing was and what to try. */
export function searchResultText(query: string, found: readonly FunctionSpec[]): string {
  if (found.length === 0) {
    return `No tool matched "${query}". Try other words (what the tool does, e.g. "convert currency"), or answer without a tool.`;
  }
  const lines = found.map((fn) => `- ${fn.name}: ${shorten(fn.description)}`);
  return [`Found ${found.length} tool(s); call them by name:`, ...lines].join('\n');
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_FOUND_DESCRIPTION_CHARS
    ? oneLine
    : `${oneLine.slice(0, MAX_FOUND_DESCRIPTION_CHARS - 1)}…`;
}
