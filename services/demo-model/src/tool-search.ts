/**
 * @module tool-search
 * How the demo model uses a tool search its client offers (an agent with many tools offers one
 * function that finds the others, e.g. `search_tools`): when no other offered tool fits the
 * message, it searches once with the message's content words, then plans with the tools found.
 * It recognises the search by its shape, not by a name it knows. Used by `planner.ts`; test:
 * `tool-search.test.ts`.
 */
import { isRecord } from '@mcp-workshop/shared';
import { concepts, isConceptWord, STOPWORDS, schemaProperties, words } from './score.js';
import type { PlannerMessage, PlannerTool } from './types.js';

/** A search is a few words: the agents that offer one cap the query (the workshop agent at 200 characters). */
export const MAX_QUERY_WORDS = 12;
export const MAX_QUERY_CHARS = 200;

/** A tool search: a name of "search"/"find" and "tool(s)" words, and a single string parameter. */
export function searchParameter(tool: PlannerTool): string | undefined {
  const nameConcepts = new Set(concepts(tool.name));
  const nameWords = words(tool.name);
  if (!nameConcepts.has('search') || !nameWords.some((word) => word === 'tool' || word === 'tools')) {
    return undefined;
  }
  const properties = Object.entries(schemaProperties(tool.parameters));
  const [only] = properties;
  if (properties.length !== 1 || !only) return undefined;
  const [name, schema] = only;
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
  return type.length === 1 && type[0] === 'string' ? name : undefined;
}

/**
 * The message's content words, each followed by the generic concept it stands for when that is
 * another word ("warm" brings "weather"), so a tool described in other words is still found.
 */
export function searchQuery(text: string): string {
  const terms: string[] = [];
  for (const word of words(text)) {
    if (word.length < 2 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
    const [concept] = isConceptWord(word) ? concepts(word) : [];
    for (const term of [word, concept]) if (term && !terms.includes(term)) terms.push(term);
  }
  return terms.slice(0, MAX_QUERY_WORDS).join(' ').slice(0, MAX_QUERY_CHARS).trim();
}

/**
 * The messages without the search calls and their results, so the planner counts only the rounds
 * that used tools; and whether a search was made after the last user message (then it is not
 * made again: one search per message, never a loop).
 */
export function withoutSearches(
  messages: readonly PlannerMessage[],
  searchName: string,
): { messages: PlannerMessage[]; searched: boolean } {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const searchIds = new Set<string>();
  let searched = false;
  const kept: PlannerMessage[] = [];
  for (const [index, message] of messages.entries()) {
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    const searches = calls.filter((call) => call.function?.name === searchName);
    if (searches.length > 0) {
      for (const call of searches) searchIds.add(call.id);
      if (index > lastUser) searched = true;
      const others = calls.filter((call) => call.function?.name !== searchName);
      if (others.length > 0 || hasText(message.content)) kept.push({ ...message, tool_calls: others });
      continue;
    }
    if (message.role === 'tool' && searchIds.has(message.tool_call_id ?? '')) continue;
    kept.push(message);
  }
  return { messages: kept, searched };
}

function hasText(content: unknown): boolean {
  if (typeof content === 'string') return content.trim() !== '';
  return Array.isArray(content) && content.some((part) => isRecord(part) && typeof part.text === 'string');
}
