/**
 * @module llm/functions
 * MCP tools become OpenAI functions: valid names with a way back, strict schemas where possible,
 * bounded descriptions, and argument checks against the tool's original schema. Pure: no I/O.
 * Test: `functions.test.ts` (naming: `function-names.ts`, schemas: `strict-schema.ts`).
 */

import { isRecord } from '@mcp-workshop/shared';
import type { DiscoveredTool } from '../types.js';
import { assignFunctionNames } from './function-names.js';
import { toLooseSchema } from './loose-schema.js';
import { stripOptionalNulls } from './null-plan.js';
import type { FunctionSpec } from './provider.js';
import { createSchemaValidatorFactory } from './schema-validator.js';
import { toStrictSchema } from './strict-schema.js';

/** OpenAI rejects the whole request ("string_above_max_length") when one function description is longer. */
export const MAX_FUNCTION_DESCRIPTION_LENGTH = 1024;
const ELLIPSIS = '…';

/** One offered function and everything needed to turn the model's call back into an MCP call. */
export interface ResolvedFunction {
  tool: DiscoveredTool;
  spec: FunctionSpec;
  /**
   * The model's parsed arguments as MCP arguments: for a strict function, the nulls strict mode made
   * it send for optional fields are removed (a field nullable in the original schema keeps its null).
   * `null`/`undefined` (empty arguments) become `{}`. Throws a `TypeError` whose message is written
   * for the model when the arguments are not a JSON object.
   */
  toMcpArguments(modelArgs: unknown): Record<string, unknown>;
  /** Problems with `mcpArgs` against the tool's ORIGINAL `inputSchema`, `[]` when valid or uncheckable. */
  validate(mcpArgs: unknown): string[];
  /** Why the function is not strict (for traces and debugging); absent when it is. */
  notStrictBecause?: string;
}

export interface FunctionCatalog {
  /** In the order of the tools given; a tool listed twice (same server and name) appears once. */
  functions: FunctionSpec[];
  resolve(functionName: string): ResolvedFunction | undefined;
}

/**
 * The catalog for each tool list already seen. The hub hands out the same array until its tool set
 * changes, so the agent loop can call `toFunctionSpecs` every round and ajv still compiles each
 * schema once; a new list (or the list being dropped) lets the old catalog be collected.
 */
const catalogs = new WeakMap<readonly DiscoveredTool[], FunctionCatalog>();

/**
 * Builds the functions for a tool set. Names are stable for the same set of tools, whatever their order.
 * The base of a name is the tool's `qualifiedName` when it has one, else its MCP `name`. Treat the
 * list as immutable: the same array gives the same catalog.
 */
export function toFunctionSpecs(tools: readonly DiscoveredTool[]): FunctionCatalog {
  let catalog = catalogs.get(tools);
  if (!catalog) {
    catalog = buildCatalog(tools);
    catalogs.set(tools, catalog);
  }
  return catalog;
}

function buildCatalog(tools: readonly DiscoveredTool[]): FunctionCatalog {
  const unique = dedupe(tools);
  const names = assignFunctionNames(
    unique.map((tool) => ({ base: baseName(tool), identity: identityOf(tool) })),
  );
  const validatorFor = createSchemaValidatorFactory();

  const resolved = unique.map((tool, index) => buildFunction(tool, names[index] ?? '', validatorFor));
  const byName = new Map(resolved.map((entry) => [entry.spec.name, entry]));
  return {
    functions: resolved.map((entry) => entry.spec),
    resolve: (functionName) => byName.get(functionName),
  };
}

/** The tool's description, else its title, else a sentence naming it; cut to fit OpenAI's limit. */
export function describeTool(tool: DiscoveredTool): string {
  const text = firstNonBlank(tool.description, tool.title) ?? `Tool ${tool.name} on server ${tool.server}`;
  return truncate(text, MAX_FUNCTION_DESCRIPTION_LENGTH);
}

function buildFunction(
  tool: DiscoveredTool,
  name: string,
  validatorFor: ReturnType<typeof createSchemaValidatorFactory>,
): ResolvedFunction {
  const conversion = toStrictSchema(tool.inputSchema);
  const parameters = conversion.strict ? conversion.schema : toLooseSchema(tool.inputSchema);
  const spec: FunctionSpec = { name, description: describeTool(tool), parameters, strict: conversion.strict };
  const validate = validatorFor(tool.inputSchema);

  const entry: ResolvedFunction = {
    tool,
    spec,
    toMcpArguments(modelArgs) {
      const args = asArgumentObject(modelArgs);
      if (!conversion.strict) return { ...args };
      const stripped = stripOptionalNulls(args, conversion.plans);
      return isRecord(stripped) ? stripped : { ...args };
    },
    validate,
  };
  if (!conversion.strict) entry.notStrictBecause = conversion.reason;
  return entry;
}

function asArgumentObject(modelArgs: unknown): Record<string, unknown> {
  // Models often send "" or "null" for a function without parameters.
  if (modelArgs === null || modelArgs === undefined) return {};
  if (isRecord(modelArgs)) return modelArgs;
  const kind = Array.isArray(modelArgs) ? 'an array' : `a ${typeof modelArgs}`;
  throw new TypeError(`The arguments must be a JSON object with named fields, not ${kind}.`);
}

/** The hub's `qualifiedName` is unique across servers, so it is the better base when present. */
function baseName(tool: DiscoveredTool): string {
  return tool.qualifiedName?.trim() ? tool.qualifiedName : tool.name;
}

/** NUL cannot occur in a configured server name, so the pair is unambiguous. */
function identityOf(tool: DiscoveredTool): string {
  return `${tool.server}\u0000${tool.name}`;
}

function dedupe(tools: readonly DiscoveredTool[]): DiscoveredTool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    const identity = identityOf(tool);
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
}

function firstNonBlank(...texts: Array<string | undefined>): string | undefined {
  return texts.map((text) => text?.trim()).find((text) => text !== undefined && text !== '');
}

/** Cuts at a code point boundary so no half surrogate pair is sent; `length` counts UTF-16 units, a safe upper bound. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - ELLIPSIS.length);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}${ELLIPSIS}`;
}
