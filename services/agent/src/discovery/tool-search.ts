/**
 * @module discovery/tool-search
 * The ranking behind `search_tools`: a minisearch index over the offered functions' names (split
 * into words), the tools' titles and their descriptions, with prefix and fuzzy matching and the
 * name boosted. One index per function catalog, so it is rebuilt only when the tool list changes.
 * Test: `tool-search.test.ts`.
 */
import MiniSearch from 'minisearch';
import type { FunctionCatalog } from '../llm/functions.js';

/** A search hands the model at most this many tools: enough for a request's few steps, small enough to stay cheap. */
export const MAX_FOUND_PER_SEARCH = 5;

/**
 * A hit in the name says most about what a tool does; the title is a short name in words. The
 * description is long, so each of its words says less.
 */
const FIELD_BOOST = { nameWords: 3, title: 2, description: 1 } as const;
/** Edit distance allowed, as a fraction of a term's length: "wether" still finds get_weather. */
const FUZZY_FRACTION = 0.2;
/** Shorter terms are matched exactly: fuzzing "to" or "tz" would match nearly everything. */
const MIN_FUZZY_TERM_CHARS = 4;
/**
 * Words every description has. Searched with OR and prefixes, "what is the" would otherwise find
 * every tool, and a question with no real words in it must come back as "nothing matched".
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be by can do for from get give how i in is it me my of on or please ' +
    'tell that the this to was what when where which who with you your'
  ).split(' '),
);

/** Lower case, without stopwords and one-letter terms; the same on both sides of the index. */
function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length < 2 || STOPWORDS.has(lower) ? null : lower;
}

interface IndexedTool {
  /** The function name the model calls. */
  id: string;
  nameWords: string;
  title: string;
  description: string;
}

export interface ToolIndex {
  /** Function names, best first, at most {@link MAX_FOUND_PER_SEARCH}; `[]` when nothing matched. */
  search(query: string): string[];
}

const indexes = new WeakMap<FunctionCatalog, ToolIndex>();

/** The index for this catalog; `toFunctionSpecs` keeps one catalog per tool list, so this builds once per list. */
export function toolIndexFor(catalog: FunctionCatalog): ToolIndex {
  let index = indexes.get(catalog);
  if (!index) {
    index = buildIndex(catalog);
    indexes.set(catalog, index);
  }
  return index;
}

/** `get_weather`, `weather.forecast.daily`, `searchFlights` become plain words. */
export function nameWords(name: string): string {
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .split(/[_\-.\s]+/)
    .filter((word) => word !== '')
    .join(' ')
    .toLowerCase();
}

function buildIndex(catalog: FunctionCatalog): ToolIndex {
  const search = new MiniSearch<IndexedTool>({
    fields: ['nameWords', 'title', 'description'],
    processTerm,
    searchOptions: {
      boost: FIELD_BOOST,
      prefix: true,
      fuzzy: (term) => (term.length >= MIN_FUZZY_TERM_CHARS ? FUZZY_FRACTION : false),
      combineWith: 'OR',
    },
  });
  search.addAll(
    catalog.functions.map((fn) => {
      const tool = catalog.resolve(fn.name)?.tool;
      // The MCP name as well as the function name: `minimal__get_temperature` still reads as its tool.
      const names = tool && tool.name !== fn.name ? `${fn.name} ${tool.name}` : fn.name;
      return {
        id: fn.name,
        nameWords: nameWords(names),
        title: tool?.title ?? '',
        description: fn.description,
      };
    }),
  );
  return {
    search: (query) =>
      search
        .search(query)
        .slice(0, MAX_FOUND_PER_SEARCH)
        .map((hit) => String(hit.id)),
  };
}
