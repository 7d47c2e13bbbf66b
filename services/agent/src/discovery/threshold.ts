/**
 * @module discovery/threshold
 * Whether this tool list is too big to offer whole: `off` never, `on` always, `auto` when the
 * tools of all servers reach a count or a size in tokens (o200k_base, the encoding of OpenAI's
 * current models, over the functions' JSON). The tokenizer is loaded only when the count alone
 * does not decide and the text is long enough that it could pass (`mayReachTokens`). Test:
 * `threshold.test.ts`.
 */
import type { FunctionSpec } from '../llm/provider.js';
import { countToolTokens, loadTokenizer } from '../llm/tokens.js';

export type ToolSearchMode = 'auto' | 'on' | 'off';

export interface ToolSearchSettings {
  mode: ToolSearchMode;
  /** `auto` turns discovery on from this many tools. */
  minTools: number;
  /** `auto` turns discovery on from this many tokens of the offered functions' JSON. */
  minTokens: number;
}

/**
 * The shipped catalogue (about a dozen tools, under 4,000 tokens) stays below both; a 60-tool
 * catalogue passes the count. Past about 30 tools, models pick noticeably worse, and the list is
 * paid for on every request.
 */
export const DEFAULT_TOOL_SEARCH: ToolSearchSettings = { mode: 'auto', minTools: 30, minTokens: 6_000 };

/** One count per tool list: the loop asks every round, the list rarely changes. */
const tokenCounts = new WeakMap<readonly FunctionSpec[], number>();

/** Decides for the functions a round would offer (the MCP tools, not the agent's own functions). */
export async function usesToolSearch(
  functions: readonly FunctionSpec[],
  settings: ToolSearchSettings,
): Promise<boolean> {
  if (settings.mode !== 'auto') return settings.mode === 'on';
  if (functions.length >= settings.minTools) return true;
  if (!mayReachTokens(Buffer.byteLength(JSON.stringify(functions)), settings.minTokens)) return false;
  return (await countFunctionTokens(functions)) >= settings.minTokens;
}

/**
 * Tool lists in JSON run at about 4 UTF-8 bytes per o200k_base token (the workshop's: 6,751 bytes,
 * 1,693 tokens). Loading the tokenizer takes about a second, which `pnpm ask` would pay on every
 * run, so a list under 2 bytes per token of the limit is taken to be under it without counting.
 * This is an estimate, not a bound: only contrived text is denser (runs of single digits or bare
 * punctuation, down to 1 byte a token), and such a list is then offered whole, as without discovery.
 */
export const MIN_BYTES_PER_TOKEN = 2;

/** False when a text of `bytes` UTF-8 bytes is surely under `minTokens`: no tokenizer needed. */
export function mayReachTokens(bytes: number, minTokens: number): boolean {
  return bytes >= minTokens * MIN_BYTES_PER_TOKEN;
}

/**
 * Tokens of the functions in o200k_base, each as the JSON the agent sends, counted as the eval's
 * lint counts them (`llm/tokens.ts`): text that looks like a special token (`<|endoftext|>` in a
 * server's description) is plain text there, where gpt-tokenizer's own default would throw.
 */
export async function countFunctionTokens(functions: readonly FunctionSpec[]): Promise<number> {
  const known = tokenCounts.get(functions);
  if (known !== undefined) return known;
  // Loaded on first use: its tables take a moment, and most runs never need them.
  const count = countToolTokens(functions, await loadTokenizer('o200k_base')).total;
  tokenCounts.set(functions, count);
  return count;
}
