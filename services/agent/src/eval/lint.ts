/**
 * @module eval/lint
 * `pnpm eval --lint`: checks the tool list exactly as the model receives it (the agent's own
 * `toFunctionSpecs`: function names, bounded descriptions, strict schemas) and sizes it in tokens.
 * Errors fail the run; warnings and notes do not. No model, no I/O. Test: `lint.test.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import { toFunctionSpecs } from '../llm/functions.js';
import {
  encodingFor,
  functionWireJson,
  loadTokenizer,
  type Tokenizer,
  type ToolTokens,
} from '../llm/tokens.js';
import type { DiscoveredTool, JsonSchema } from '../types.js';
import { visibleToModel } from '../views/ui-meta.js';
import { countWords, formatHint, listedValues } from './lint-hints.js';
import {
  acceptsString,
  describeStrictRewrite,
  hasFormat,
  hasValueList,
  parameterSites,
} from './lint-schema.js';
import { contentWords, overlapOf } from './overlap.js';

/**
 * Below this a description cannot say both what the tool does and when to pick it ("Gets the
 * weather." is 3 words, 17 characters). Either limit failing is enough for a warning.
 */
export const MIN_TOOL_DESCRIPTION_WORDS = 6;
export const MIN_TOOL_DESCRIPTION_CHARS = 40;
/** A parameter needs at least what it is and one detail: "City name" says no more than `city`. */
export const MIN_PARAMETER_DESCRIPTION_WORDS = 3;
/**
 * Share of content words two tools may have in common before a model is likely to mix them up.
 * Measured: the shipped catalogue's closest pairs (list_tasks, add_task and complete_task) share
 * about 0.2; a tool copied with a few words changed shares well over 0.6.
 */
export const CONFUSABLE_OVERLAP = 0.5;

export type LintLevel = 'error' | 'warning' | 'note';
export type LintRule =
  | 'invalid-schema'
  | 'missing-description'
  | 'short-description'
  | 'truncated-description'
  | 'missing-parameter-description'
  | 'short-parameter-description'
  | 'confusable-tools'
  | 'enum-hint'
  | 'format-hint'
  | 'not-strict'
  | 'strict-rewrite';

export interface LintFinding {
  level: LintLevel;
  /** The tool's name as the person knows it (`qualifiedName`, else its MCP name). */
  tool: string;
  /** A dotted path for nested parameters: `address.city`, `items[].id`. */
  parameter?: string;
  /** The second tool of a confusable pair. */
  other?: string;
  rule: LintRule;
  message: string;
}

export interface LintReport {
  model: string;
  encoding: string;
  findings: LintFinding[];
  tokens: { perTool: ToolTokens[]; total: number };
  tools: number;
}

/** Loads the model's encoding, then lints. */
export async function lintTools(
  tools: readonly DiscoveredTool[],
  options: { model: string },
): Promise<LintReport> {
  const tokenizer = await loadTokenizer(encodingFor(options.model));
  return lintToolsWith(tools, options.model, tokenizer);
}

/** Whether `pnpm eval --lint` must exit non-zero: only errors count, never warnings or notes. */
export function lintFailed(report: LintReport): boolean {
  return report.findings.some((finding) => finding.level === 'error');
}

/** The lint itself, with a tokenizer already loaded. */
export function lintToolsWith(
  tools: readonly DiscoveredTool[],
  model: string,
  tokenizer: Tokenizer,
): LintReport {
  const findings: LintFinding[] = [];
  // The hub already leaves app-only tools out of `tools()`; filtering again keeps a raw list honest too.
  const offered = tools.filter((tool) => visibleToModel(tool.ui));
  const usable: DiscoveredTool[] = [];
  for (const tool of offered) {
    if (isRecord(tool.inputSchema)) usable.push(tool);
    else findings.push(invalidSchema(tool));
  }
  const catalog = toFunctionSpecs(usable);
  const perTool: ToolTokens[] = [];
  const words: Array<{ tool: string; words: Set<string> }> = [];
  for (const spec of catalog.functions) {
    const resolved = catalog.resolve(spec.name);
    if (!resolved) continue;
    const name = displayName(resolved.tool);
    findings.push(...checkDescription(resolved.tool, name, spec.description));
    findings.push(...checkParameters(resolved.tool.inputSchema, name));
    if (resolved.notStrictBecause !== undefined) {
      findings.push({
        level: 'warning',
        tool: name,
        rule: 'not-strict',
        message: `sent with strict: false, so the model may send arguments that break its schema (${resolved.notStrictBecause}). Strict mode takes the keywords listed in services/agent/src/llm/strict-schema.ts.`,
      });
    } else {
      const rewrite = describeStrictRewrite(resolved.tool.inputSchema);
      if (rewrite) findings.push({ level: 'note', tool: name, rule: 'strict-rewrite', message: rewrite });
    }
    perTool.push({ tool: name, tokens: tokenizer.count(functionWireJson(spec)) });
    words.push({ tool: name, words: contentWords(spec.name, spec.description) });
  }
  findings.push(...confusablePairs(words));
  return {
    model,
    encoding: tokenizer.encoding,
    findings,
    tokens: { perTool, total: perTool.reduce((sum, entry) => sum + entry.tokens, 0) },
    tools: offered.length,
  };
}

function displayName(tool: DiscoveredTool): string {
  const qualified = typeof tool.qualifiedName === 'string' ? tool.qualifiedName.trim() : '';
  return qualified || String(tool.name);
}

function invalidSchema(tool: DiscoveredTool): LintFinding {
  const value: unknown = tool.inputSchema;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return {
    level: 'error',
    tool: displayName(tool),
    rule: 'invalid-schema',
    message: `its inputSchema is ${kind}, not a JSON Schema object; MCP requires { "type": "object", ... }.`,
  };
}

function checkDescription(tool: DiscoveredTool, name: string, sent: string): LintFinding[] {
  const own = textOf(tool.description);
  const title = textOf(tool.title);
  if (!own && !title) {
    return [
      {
        level: 'error',
        tool: name,
        rule: 'missing-description',
        message: `no description: the model only gets "${sent}" and must guess from the name when to pick it.`,
      },
    ];
  }
  const findings: LintFinding[] = [];
  const text = own || title;
  const source = own ? 'description' : 'title (it has no description)';
  if (countWords(text) < MIN_TOOL_DESCRIPTION_WORDS || text.length < MIN_TOOL_DESCRIPTION_CHARS) {
    findings.push({
      level: 'warning',
      tool: name,
      rule: 'short-description',
      message: `its ${source} "${text}" is too short to say what it does and when to use it (aim for ${MIN_TOOL_DESCRIPTION_WORDS}+ words, ${MIN_TOOL_DESCRIPTION_CHARS}+ characters).`,
    });
  }
  if (sent.length < text.length) {
    findings.push({
      level: 'warning',
      tool: name,
      rule: 'truncated-description',
      message: `its ${text.length}-character description is cut to ${sent.length} for the model; put what matters first and shorten it.`,
    });
  }
  return findings;
}

function checkParameters(schema: JsonSchema, tool: string): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const site of parameterSites(schema)) {
    const description =
      textOf(site.node.description) || textOf(site.node.title) || textOf(site.target.description);
    if (!description) {
      findings.push({
        level: 'error',
        tool,
        parameter: site.path,
        rule: 'missing-parameter-description',
        message: `parameter "${site.path}" has no description: the model sees only its name and type.`,
      });
      continue;
    }
    if (countWords(description) < MIN_PARAMETER_DESCRIPTION_WORDS) {
      findings.push({
        level: 'warning',
        tool,
        parameter: site.path,
        rule: 'short-parameter-description',
        message: `parameter "${site.path}" is described only as "${description}"; say what it holds and its form (${MIN_PARAMETER_DESCRIPTION_WORDS}+ words).`,
      });
    }
    if (!acceptsString(site.target) || hasValueList(site.target)) continue;
    const values = listedValues(description);
    if (values) {
      findings.push({
        level: 'warning',
        tool,
        parameter: site.path,
        rule: 'enum-hint',
        message: `parameter "${site.path}" lists its values in words (${values.map((value) => JSON.stringify(value)).join(', ')}) but has no enum; with an enum the model cannot send anything else.`,
      });
    }
    const format = hasFormat(site.target) ? undefined : formatHint(site.path, description);
    if (format) {
      findings.push({
        level: 'warning',
        tool,
        parameter: site.path,
        rule: 'format-hint',
        message: `parameter "${site.path}" looks like a ${format.what} but declares no format or pattern; add format: "${format.format}" (zod: ${format.zod}) so the value is checked before the call.`,
      });
    }
  }
  return findings;
}

function confusablePairs(tools: ReadonlyArray<{ tool: string; words: Set<string> }>): LintFinding[] {
  const findings: LintFinding[] = [];
  for (let i = 0; i < tools.length; i += 1) {
    for (let j = i + 1; j < tools.length; j += 1) {
      const first = tools[i];
      const second = tools[j];
      if (!first || !second) continue;
      const overlap = overlapOf(first.words, second.words);
      if (overlap.score < CONFUSABLE_OVERLAP) continue;
      findings.push({
        level: 'warning',
        tool: first.tool,
        other: second.tool,
        rule: 'confusable-tools',
        message: `"${first.tool}" and "${second.tool}" share ${Math.round(overlap.score * 100)}% of their content words (${overlap.shared.slice(0, 12).join(', ')}); a model may pick one for the other. Say in each what sets it apart and when to use the other.`,
      });
    }
  }
  return findings;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
