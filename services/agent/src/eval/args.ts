/**
 * @module eval/args
 * The command line of `pnpm eval`, checked: each bad flag is refused with what to type instead.
 */
import { parseArgs } from 'node:util';

/** Where the workshop's catalogue keeps its tools, from the repository root (`pnpm eval` runs there). */
export const DEFAULT_CASES = 'services/mcp-server/src';
/** Cases asked at once: the demo model answers in milliseconds; a real one is mostly waiting. */
const DEFAULT_CONCURRENCY = 4;
const MAX_REPEAT = 20;

export const USAGE = `Usage: pnpm eval [options]

Asks each case of every *.eval.yaml file through the agent and checks which tools the model calls.

  --cases <path>     a case file or a folder to search (repeatable; default ${DEFAULT_CASES})
  --only <text>      only cases whose id, file or question contains <text>
  --repeat <n>       ask each case n times (for real models); the majority decides, pass@n is shown
  --min <rate>       exit 0 when at least this share passes, e.g. 0.9 or 90% (default: all)
  --json             print one JSON document instead of the report (use pnpm -s eval --json)
  --save <file>      also write that JSON document to <file>
  --compare <file>   say which cases were fixed or broken since a saved run
  --concurrency <n>  cases asked at once (default ${DEFAULT_CONCURRENCY})
  --discovery <m>    off or on: offer every tool, or search_tools (overrides AGENT_TOOL_SEARCH);
                     compare: ask every case both ways and compare accuracy and tokens
  --lint             check the tool list as the model receives it; no model is asked

With no OPENAI_API_KEY and no OPENAI_BASE_URL the offline demo model judges: it picks tools by
the words of their descriptions. OPENAI_MODEL picks the model; OPENAI_API the API (chat, responses).`;

/** A bad command line: the message says what to type instead. */
export class UsageError extends Error {}

export interface EvalOptions {
  cases: string[];
  only?: string;
  repeat: number;
  min: number;
  json: boolean;
  save?: string;
  compare?: string;
  concurrency: number;
  lint: boolean;
  /**
   * Whether tools without cases fail the run: only for the catalogue's own cases, whole. A folder
   * of your own, or --only, covers some tools on purpose.
   */
  coverage: boolean;
  /** Overrides AGENT_TOOL_SEARCH for the run; `compare` runs the cases with it off, then on. */
  discovery?: 'off' | 'on' | 'compare';
}

export function parseEvalArgs(argv: readonly string[]): EvalOptions | 'help' {
  const { values, positionals } = readArgs(argv);
  if (values.help) return 'help';
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument "${positionals[0]}"; see pnpm eval --help`);
  return {
    cases: values.cases ?? [DEFAULT_CASES],
    ...(values.only !== undefined && { only: values.only }),
    repeat: integer('--repeat', values.repeat, 1, MAX_REPEAT, 1),
    min: rate(values.min),
    json: values.json,
    ...(values.save !== undefined && { save: values.save }),
    ...(values.compare !== undefined && { compare: values.compare }),
    concurrency: integer('--concurrency', values.concurrency, 1, 32, DEFAULT_CONCURRENCY),
    lint: values.lint,
    coverage: values.cases === undefined && values.only === undefined,
    ...(values.discovery !== undefined && { discovery: discovery(values.discovery) }),
  };
}

/** node:util's parser, its TypeErrors (unknown flag, missing value) turned into usage errors. */
function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        cases: { type: 'string', multiple: true },
        only: { type: 'string' },
        repeat: { type: 'string' },
        min: { type: 'string' },
        json: { type: 'boolean', default: false },
        save: { type: 'string' },
        compare: { type: 'string' },
        concurrency: { type: 'string' },
        lint: { type: 'boolean', default: false },
        discovery: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(
      `${error instanceof Error ? error.message.split('\n')[0] : error}; see pnpm eval --help`,
    );
  }
}

function discovery(text: string): 'off' | 'on' | 'compare' {
  if (text === 'off' || text === 'on' || text === 'compare') return text;
  throw new UsageError(`--discovery takes off, on or compare, not "${text}"`);
}

function integer(flag: string, text: string | undefined, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

/** "0.9", "90%" or "90" → 0.9; absent → 1 (every case must pass). */
function rate(text: string | undefined): number {
  if (text === undefined) return 1;
  const percent = text.trim().endsWith('%');
  const value = Number(percent ? text.trim().slice(0, -1) : text);
  const share = percent || value > 1 ? value / 100 : value;
  if (!Number.isFinite(share) || share < 0 || share > 1 || text.trim() === '')
    throw new UsageError(`--min takes a share such as 0.9 or 90%, not "${text}"`);
  return share;
}
