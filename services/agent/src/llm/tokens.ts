/**
 * @module llm/tokens
 * Counts tokens with OpenAI's own encodings (gpt-tokenizer), never a character estimate: the size
 * of each function as the agent sends it, and of a whole first request. Used by the eval (its lint
 * and its reports) and by the loop's tool search threshold. Test: `tokens.test.ts`.
 */

import type { ChatMessage, FunctionSpec } from './provider.js';

export type EncodingName = 'o200k_base' | 'cl100k_base';

/** A loaded encoding; `count` treats every string as plain text, as the API does with user content. */
export interface Tokenizer {
  readonly encoding: EncodingName;
  count(text: string): number;
}

export interface ToolTokens {
  /** The function's name as the model receives it. */
  tool: string;
  tokens: number;
}

export interface ToolTokenCount {
  perTool: ToolTokens[];
  total: number;
}

/**
 * Model name prefixes of the older encoding. Checked after `O200K_PREFIXES`, because `gpt-4o` and
 * `gpt-4.1` also start with `gpt-4`.
 */
const CL100K_PREFIXES = ['gpt-4', 'gpt-3.5', 'text-embedding-3', 'text-embedding-ada-002'];
const O200K_PREFIXES = ['gpt-4o', 'gpt-4.1', 'gpt-4.5', 'gpt-5', 'chatgpt-4o', 'gpt-oss', 'o1', 'o3', 'o4'];

/**
 * The encoding for a model name (case-insensitive; a router prefix such as `openai/` is ignored).
 * A model that is not OpenAI's (a local Llama, the offline demo model) has a tokenizer of its own
 * that no JavaScript package here knows; o200k_base, the encoding of every current OpenAI model,
 * stands in for it, and the lint names the encoding so nobody reads it as that model's own count.
 */
export function encodingFor(model: string): EncodingName {
  const bare = model.trim().toLowerCase().split('/').pop() ?? '';
  if (O200K_PREFIXES.some((prefix) => startsAsModel(bare, prefix))) return 'o200k_base';
  if (CL100K_PREFIXES.some((prefix) => startsAsModel(bare, prefix))) return 'cl100k_base';
  return 'o200k_base';
}

/** `o1` must match `o1-mini` but not `o10-lab`: the prefix ends the name or is followed by a separator. */
function startsAsModel(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const next = name.charAt(prefix.length);
  return next === '' || next === '-' || next === '.' || next === ':';
}

/**
 * Text that looks like a special token ("<|endoftext|>") is counted as the ordinary text it is:
 * gpt-tokenizer throws on it by default, and a tool description is not a place to end a prompt.
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const loaded = new Map<EncodingName, Promise<Tokenizer>>();

/**
 * Loads one encoding, once per process. Lazy because each encoding's table takes 0.2–0.3 s to load
 * and a run needs only one of them.
 */
export function loadTokenizer(encoding: EncodingName): Promise<Tokenizer> {
  let tokenizer = loaded.get(encoding);
  if (!tokenizer) {
    tokenizer = importEncoding(encoding).then((api) => ({
      encoding,
      count: (text: string) => api.countTokens(text, AS_PLAIN_TEXT),
    }));
    loaded.set(encoding, tokenizer);
  }
  return tokenizer;
}

/** Literal specifiers, so the bundler can split each encoding into a chunk of its own. */
function importEncoding(encoding: EncodingName) {
  return encoding === 'cl100k_base'
    ? import('gpt-tokenizer/encoding/cl100k_base')
    : import('gpt-tokenizer/encoding/o200k_base');
}

export function countTokens(text: string, tokenizer: Tokenizer): number {
  return tokenizer.count(text);
}

/** The JSON of one function exactly as the Chat Completions provider puts it in `tools`. */
export function functionWireJson(spec: FunctionSpec): string {
  const { name, description, parameters, strict } = spec;
  return JSON.stringify({ type: 'function', function: { name, description, parameters, strict } });
}

/**
 * Each function counted as the JSON the agent sends. The API renders tools its own way before the
 * model reads them, so this is the size on the wire, close to but not the API's `prompt_tokens`.
 */
export function countToolTokens(functions: readonly FunctionSpec[], tokenizer: Tokenizer): ToolTokenCount {
  const perTool = functions.map((spec) => ({
    tool: spec.name,
    tokens: tokenizer.count(functionWireJson(spec)),
  }));
  return { perTool, total: perTool.reduce((sum, entry) => sum + entry.tokens, 0) };
}

/**
 * A whole request: every message as the JSON sent, plus the functions. Use it to compare requests
 * (discovery on and off) on the same footing, not to predict a bill to the token.
 */
export function countRequestTokens(
  messages: readonly ChatMessage[],
  functions: readonly FunctionSpec[],
  tokenizer: Tokenizer,
): number {
  const messageTokens = messages.reduce((sum, message) => sum + tokenizer.count(JSON.stringify(message)), 0);
  return messageTokens + countToolTokens(functions, tokenizer).total;
}
