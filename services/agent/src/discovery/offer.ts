/**
 * @module discovery/offer
 * Progressive tool discovery: above the threshold (`threshold.ts`) the model is offered
 * `search_tools` and the tools it has found so far, instead of every tool. What it found is read
 * back from the conversation itself (each `search_tools` call is searched again, each tool called
 * by name counts as found), so found tools stay offered for the rest of the conversation, are
 * forgotten with it, and need no state of their own. Test: `offer.test.ts`.
 */
import type { FunctionCatalog } from '../llm/functions.js';
import type { ChatMessage, FunctionSpec } from '../llm/provider.js';
import { parseSearchArguments, SEARCH_TOOLS_FUNCTION, SEARCH_TOOLS_SPEC } from './search-function.js';
import { type ToolSearchSettings, usesToolSearch } from './threshold.js';
import { toolIndexFor } from './tool-search.js';

/**
 * At most this many found tools are offered beside `search_tools`, the most recently found kept:
 * three searches' worth, still far below the list discovery replaces.
 */
export const MAX_UNLOCKED_TOOLS = 15;

export interface ToolDiscovery {
  /** `search_tools`, then the tools found in `history`, in the catalog's order (stable from round to round). */
  offer(history: readonly ChatMessage[]): FunctionSpec[];
  /** The functions a query finds, best first. */
  search(query: string): FunctionSpec[];
}

/**
 * Discovery for this round's catalog, or undefined when the whole list is offered: below the
 * threshold, `off`, or when an MCP tool is itself named `search_tools` (the server's tool keeps it).
 */
export async function toolDiscoveryFor(
  catalog: FunctionCatalog,
  settings: ToolSearchSettings,
): Promise<ToolDiscovery | undefined> {
  if (catalog.resolve(SEARCH_TOOLS_FUNCTION)) return undefined;
  if (!(await usesToolSearch(catalog.functions, settings))) return undefined;
  const index = toolIndexFor(catalog);
  const specsOf = (names: readonly string[]) =>
    names.flatMap((name) => {
      const spec = catalog.resolve(name)?.spec;
      return spec ? [spec] : [];
    });
  return {
    search: (query) => specsOf(index.search(query)),
    offer(history) {
      const found = new Set(foundNames(history, catalog, (query) => index.search(query)));
      return [SEARCH_TOOLS_SPEC, ...catalog.functions.filter((fn) => found.has(fn.name))];
    },
  };
}

/** Every tool found or called in the conversation, oldest first, the last {@link MAX_UNLOCKED_TOOLS} kept. */
function foundNames(
  history: readonly ChatMessage[],
  catalog: FunctionCatalog,
  search: (query: string) => string[],
): string[] {
  const recent: string[] = [];
  const touch = (name: string) => {
    const at = recent.indexOf(name);
    if (at !== -1) recent.splice(at, 1);
    recent.push(name);
  };
  for (const message of history) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      const { name, arguments: raw } = call.function;
      if (name === SEARCH_TOOLS_FUNCTION) {
        const parsed = parseSearchArguments(raw);
        // Best last, so it is the most recent and the last to be dropped.
        if (parsed.ok) for (const hit of search(parsed.query).reverse()) touch(hit);
      } else if (catalog.resolve(name)) {
        touch(name);
      }
    }
  }
  return recent.slice(-MAX_UNLOCKED_TOOLS);
}
