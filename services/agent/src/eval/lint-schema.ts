/**
 * @module eval/lint-schema
 * The lint's walk of a tool's input schema: every parameter (with local `$ref`s followed), what a
 * parameter accepts, and what strict mode rewrites in it. Pure functions. Test: `lint.test.ts`.
 */
import { isRecord } from '@mcp-workshop/shared';
import { CONSTRAINTS } from '../llm/strict-schema.js';
import type { JsonSchema } from '../types.js';

/** Bounds the schema walk: hostile or generated schemas can nest without end. */
export const MAX_PARAMETER_DEPTH = 8;
export const MAX_PARAMETERS_PER_TOOL = 500;
/** Constraints strict mode moves into the description (see `llm/strict-schema.ts`). */
const MOVED_CONSTRAINTS: readonly string[] = CONSTRAINTS;
const DROPPED_ANNOTATIONS = ['deprecated', 'readOnly', 'writeOnly'];

/** A property of some object in the schema, with its `$ref` followed. */
export interface ParameterSite {
  path: string;
  /** The property as written (its own description wins over the referenced one's). */
  node: JsonSchema;
  /** The property's schema after following a local `$ref`. */
  target: JsonSchema;
  required: boolean;
}

/** Every property of every object in the schema, depth- and count-bounded. */
export function parameterSites(root: JsonSchema): ParameterSite[] {
  const sites: ParameterSite[] = [];
  const visit = (node: JsonSchema, prefix: string, depth: number): void => {
    if (depth > MAX_PARAMETER_DEPTH || sites.length >= MAX_PARAMETERS_PER_TOOL) return;
    const required = Array.isArray(node.required) ? node.required : [];
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        if (!isRecord(child) || sites.length >= MAX_PARAMETERS_PER_TOOL) continue;
        const target = followRef(child, root);
        const path = `${prefix}${key}`;
        sites.push({ path, node: child, target, required: required.includes(key) });
        visit(target, `${path}.`, depth + 1);
        if (isRecord(target.items)) visit(followRef(target.items, root), `${path}[].`, depth + 1);
      }
    }
    for (const variant of Array.isArray(node.anyOf) ? node.anyOf : []) {
      if (isRecord(variant)) visit(followRef(variant, root), prefix, depth + 1);
    }
  };
  visit(root, '', 0);
  return sites;
}

/** One hop through a local `#/$defs/x` or `#/definitions/x`; anything else stays as written. */
function followRef(node: JsonSchema, root: JsonSchema): JsonSchema {
  if (typeof node.$ref !== 'string') return node;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(node.$ref);
  const container = match?.[1] ? root[match[1]] : undefined;
  const target = isRecord(container) && match?.[2] ? container[match[2]] : undefined;
  return isRecord(target) ? target : node;
}

function variantsOf(node: JsonSchema): JsonSchema[] {
  const variants = Array.isArray(node.anyOf) ? node.anyOf.filter(isRecord) : [];
  return [node, ...variants];
}

export function acceptsString(node: JsonSchema): boolean {
  return variantsOf(node).some(
    (variant) =>
      variant.type === 'string' || (Array.isArray(variant.type) && variant.type.includes('string')),
  );
}

export function hasValueList(node: JsonSchema): boolean {
  return variantsOf(node).some((variant) => Array.isArray(variant.enum) || 'const' in variant);
}

export function hasFormat(node: JsonSchema): boolean {
  return variantsOf(node).some((variant) => 'format' in variant || 'pattern' in variant);
}

/**
 * What strict mode changes (see `llm/strict-schema.ts`), in one sentence per kind, or undefined when
 * nothing. A note, not a warning: the agent undoes the nulls and checks every constraint against the
 * original schema before calling, so nothing here is a defect; it says what the model is not held to.
 */
export function describeStrictRewrite(schema: JsonSchema): string | undefined {
  const optional: string[] = [];
  const moved: string[] = [];
  const dropped: string[] = [];
  // JSON Schema lets an object take any extra property unless it says otherwise; strict mode forbids them.
  const closedByStrict = (node: JsonSchema) =>
    node.additionalProperties === undefined && isRecord(node.properties);
  let closed = closedByStrict(schema);
  for (const site of parameterSites(schema)) {
    if (!site.required && !acceptsNull(site.target)) optional.push(site.path);
    const keywords = variantsOf(site.target).flatMap((variant) =>
      MOVED_CONSTRAINTS.filter(
        (keyword) => keyword in variant && !isSafeIntegerBound(keyword, variant[keyword]),
      ),
    );
    if (keywords.length > 0) moved.push(`${site.path} (${[...new Set(keywords)].join(', ')})`);
    const gone = DROPPED_ANNOTATIONS.filter((keyword) => keyword in site.node);
    if (gone.length > 0) dropped.push(`${site.path} (${gone.join(', ')})`);
    if (closedByStrict(site.target)) closed = true;
  }
  const parts: string[] = [];
  if (optional.length > 0) {
    parts.push(
      `optional ${optional.join(', ')} must be sent, as null when unused (the agent drops the nulls)`,
    );
  }
  if (moved.length > 0) {
    parts.push(
      `${moved.join(', ')} reach the model only as words in the description (the agent checks them before calling)`,
    );
  }
  if (closed) parts.push('extra properties are refused');
  if (dropped.length > 0) parts.push(`the model is not told of ${dropped.join(', ')}`);
  return parts.length > 0 ? `strict mode rewrote the schema: ${parts.join('; ')}.` : undefined;
}

function acceptsNull(node: JsonSchema): boolean {
  return variantsOf(node).some(
    (variant) =>
      variant.type === 'null' ||
      (Array.isArray(variant.type) && variant.type.includes('null')) ||
      (Array.isArray(variant.enum) && variant.enum.includes(null)),
  );
}

/** zod's `.int()` writes ±(2^53 - 1); strict-schema.ts leaves those out of the description too. */
function isSafeIntegerBound(keyword: string, value: unknown): boolean {
  return (
    (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
    (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER)
  );
}
