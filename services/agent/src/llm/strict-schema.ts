/**
 * @module llm/strict-schema
 * Makes an MCP `inputSchema` fit OpenAI's strict function calling (Structured Outputs), or says why
 * it cannot. Also keeps the plan to undo the one change strict mode forces on the arguments: optional
 * fields become "required but nullable", so the nulls the model sends for them are removed again.
 * Used by `functions.ts`; test: `strict-schema.test.ts`.
 *
 * The rules:
 * - Kept as they are: `type`, `properties`, `required`, `items`, `enum`, `const`, `anyOf`,
 *   `description`, local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`) with root `$defs`/`definitions`.
 * - Every object gets `additionalProperties: false` and lists every property in `required`; an optional
 *   property that was not nullable becomes nullable (`type: [T, "null"]` or `anyOf: [..., {type: "null"}]`).
 * - Value constraints (`minLength`, `maximum`, `pattern`, `format`, ...) and `default`/`examples` are
 *   moved into the `description` in words, because not every OpenAI-compatible server accepts them in
 *   strict mode. Nothing is lost: `validate()` checks the original schema before every call.
 * - `title`, `$comment`, `deprecated`, `readOnly`, `writeOnly` and `x-*` only annotate, so they are dropped.
 * - Anything else (`oneOf`, `allOf`, `not`, `if`, `patternProperties`, open `additionalProperties`, an
 *   array without `items`, a nested free-form object, a schema without a type, a remote `$ref`, unknown
 *   keywords) cannot be expressed, so the tool is sent with `strict: false` and its original schema.
 */

import { isRecord } from '@mcp-workshop/shared';
import type { JsonSchema } from '../types.js';
import { MAX_REF_HOPS, type NullPlan, type NullPlans } from './null-plan.js';

/** OpenAI: "A schema may have up to 5000 object properties total". */
export const MAX_STRICT_PROPERTIES = 5000;
/** OpenAI: "with up to 10 levels of nesting" (objects inside objects). */
export const MAX_STRICT_OBJECT_DEPTH = 10;
/** OpenAI: "A schema may have up to 1000 enum values across all enum properties". */
export const MAX_STRICT_ENUM_VALUES = 1000;
/** OpenAI: property names, definition names, enum and const values may total 120,000 characters. */
export const MAX_STRICT_SCHEMA_CHARS = 120_000;
/** OpenAI: an enum with more than 250 string values may total at most 15,000 characters. */
export const LARGE_ENUM_THRESHOLD = 250;
export const MAX_LARGE_ENUM_CHARS = 15_000;
/** Guards the walk itself (schemas nest through `anyOf` and `items` too); a deeper schema is not strict. */
export const MAX_SCHEMA_WALK_DEPTH = 64;
/** A default or example longer than this is left out of the description rather than flooding it. */
export const MAX_NOTE_VALUE_LENGTH = 200;

export type StrictConversion =
  | { strict: true; schema: JsonSchema; plans: NullPlans }
  | { strict: false; reason: string };

/** Kept in a strict schema as they are. */
const STRUCTURAL = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  '$ref',
  'additionalProperties',
]);
/** Narrow the allowed values; moved into the description, enforced by `validate()`. The eval's lint names them. */
export const CONSTRAINTS = [
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contentEncoding',
  'contentMediaType',
] as const;
/** Only inform; `default` and `examples` are worth telling the model, so they go into the description. */
const NOTED_ANNOTATIONS = ['default', 'examples'] as const;
const DROPPED_ANNOTATIONS = new Set(['title', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const ROOT_ONLY = new Set(['$schema', '$id', '$defs', 'definitions']);
const NOTE_KEYWORDS = new Set<string>([...CONSTRAINTS, ...NOTED_ANNOTATIONS]);
const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const DEFINITION_CONTAINERS = ['$defs', 'definitions'] as const;

/** Unwinds the walk with the reason a schema cannot be strict; never leaves this module. */
class NotStrictable extends Error {
  constructor(path: string, problem: string) {
    super(`${path || '(root)'}: ${problem}`);
    this.name = new.target.name;
  }
}

interface Walk {
  root: JsonSchema;
  properties: number;
  enumValues: number;
  chars: number;
}

interface Converted {
  schema: JsonSchema;
  plan: NullPlan;
}

/** Converts `inputSchema` to a strict schema plus its null plans, or explains why it cannot. */
export function toStrictSchema(inputSchema: JsonSchema): StrictConversion {
  const walk: Walk = { root: inputSchema, properties: 0, enumValues: 0, chars: 0 };
  try {
    if (inputSchema.type !== undefined && inputSchema.type !== 'object') {
      throw new NotStrictable('', 'the root is not an object schema');
    }
    const plans = new Map<string, NullPlan>();
    const defs: Record<string, Record<string, JsonSchema>> = {};
    for (const container of DEFINITION_CONTAINERS) {
      const definitions = inputSchema[container];
      if (definitions === undefined) continue;
      if (!isRecord(definitions)) throw new NotStrictable(container, 'is not an object');
      const converted: Record<string, JsonSchema> = {};
      for (const [name, definition] of Object.entries(definitions)) {
        walk.chars += name.length;
        const result = convert(definition, walk, `/${container}/${name}`, 0, 0);
        converted[name] = result.schema;
        plans.set(definitionKey(container, name), result.plan);
      }
      defs[container] = converted;
    }
    const root = convert({ ...inputSchema, type: 'object' }, walk, '', 0, 0, true);
    plans.set('#', root.plan);
    checkTotals(walk);
    return { strict: true, schema: { ...root.schema, ...defs }, plans };
  } catch (error) {
    if (error instanceof NotStrictable) return { strict: false, reason: error.message };
    throw error;
  }
}

function convert(
  node: unknown,
  walk: Walk,
  path: string,
  objectDepth: number,
  walkDepth: number,
  isRoot = false,
): Converted {
  if (walkDepth > MAX_SCHEMA_WALK_DEPTH) throw new NotStrictable(path, 'the schema nests too deeply');
  if (!isRecord(node)) throw new NotStrictable(path, 'a boolean or non-object schema');

  for (const key of Object.keys(node)) {
    if (STRUCTURAL.has(key) || NOTE_KEYWORDS.has(key) || DROPPED_ANNOTATIONS.has(key)) continue;
    if (key.startsWith('x-')) continue;
    if (isRoot && ROOT_ONLY.has(key)) continue;
    throw new NotStrictable(path, `"${key}" cannot be expressed in strict mode`);
  }

  const description = describe(node);
  if (node.$ref !== undefined) return convertRef(node, walk, path, description);
  if (node.anyOf !== undefined) return convertAnyOf(node, walk, path, objectDepth, walkDepth, description);

  const types = readTypes(node, path);
  const schema: JsonSchema = {};
  if (description !== undefined) schema.description = description;
  if (node.enum !== undefined) schema.enum = checkEnum(node.enum, walk, path);
  if ('const' in node) {
    walk.chars += JSON.stringify(node.const)?.length ?? 0;
    schema.const = node.const;
  }
  const nonNull = types.filter((type) => type !== 'null');
  schema.type = types.length === 1 ? types[0] : types;

  const main = nonNull[0];
  if (main === 'object') return convertObject(node, schema, walk, path, objectDepth, walkDepth, isRoot);
  if (hasAny(node, ['properties', 'required', 'additionalProperties'])) {
    throw new NotStrictable(path, 'object keywords on a schema that is not an object');
  }
  if (main === 'array') {
    if (!isRecord(node.items)) throw new NotStrictable(path, 'an array without a single `items` schema');
    const items = convert(node.items, walk, `${path}/items`, objectDepth, walkDepth + 1);
    return { schema: { ...schema, items: items.schema }, plan: { kind: 'array', items: items.plan } };
  }
  if (node.items !== undefined) throw new NotStrictable(path, '`items` on a schema that is not an array');
  return { schema, plan: { kind: 'scalar' } };
}

function convertObject(
  node: JsonSchema,
  schema: JsonSchema,
  walk: Walk,
  path: string,
  objectDepth: number,
  walkDepth: number,
  isRoot: boolean,
): Converted {
  if (objectDepth + 1 > MAX_STRICT_OBJECT_DEPTH) throw new NotStrictable(path, 'objects nest too deeply');
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new NotStrictable(path, 'an object that allows additional properties');
  }
  const rawProperties = node.properties;
  if (rawProperties === undefined && !isRoot && node.additionalProperties !== false) {
    throw new NotStrictable(path, 'a free-form object (no `properties`)');
  }
  if (rawProperties !== undefined && !isRecord(rawProperties)) {
    throw new NotStrictable(path, '`properties` is not an object');
  }
  const required = readRequired(node.required, rawProperties ?? {}, path);

  const properties: Record<string, JsonSchema> = {};
  const plans = new Map<string, NullPlan>();
  const optional = new Set<string>();
  for (const [key, propertySchema] of Object.entries(rawProperties ?? {})) {
    walk.properties += 1;
    walk.chars += key.length;
    const converted = convert(
      propertySchema,
      walk,
      `${path}/properties/${key}`,
      objectDepth + 1,
      walkDepth + 1,
    );
    const isOptional = !required.has(key) && !isNullable(propertySchema, walk.root, 0);
    if (isOptional) optional.add(key);
    properties[key] = isOptional ? makeNullable(converted.schema) : converted.schema;
    plans.set(key, converted.plan);
  }
  const keys = Object.keys(properties);
  return {
    schema: { ...schema, properties, required: keys, additionalProperties: false },
    plan: { kind: 'object', keys: new Set(keys), optional, properties: plans },
  };
}

function convertRef(node: JsonSchema, walk: Walk, path: string, description: string | undefined): Converted {
  const ref = node.$ref;
  if (typeof ref !== 'string') throw new NotStrictable(path, '`$ref` is not a string');
  if (
    hasAny(
      node,
      [...STRUCTURAL].filter((key) => key !== '$ref' && key !== 'description'),
    )
  ) {
    throw new NotStrictable(path, '`$ref` next to other schema keywords');
  }
  const resolved = resolveRef(walk.root, ref);
  if (resolved === undefined) throw new NotStrictable(path, `\`$ref\` "${ref}" is not a local definition`);
  const { target, key } = resolved;
  const bare: Converted = { schema: { $ref: ref }, plan: { kind: 'ref', ref: key } };
  // OpenAI rejects `$ref` with sibling keywords, so a described reference is inlined when that cannot recurse.
  if (description === undefined || ref === '#' || containsRef(target, 0)) return bare;
  const inlined = convert(target, walk, path, 0, 0);
  const ownDescription = typeof inlined.schema.description === 'string' ? inlined.schema.description : '';
  return {
    schema: { ...inlined.schema, description: joinText(description, ownDescription) },
    plan: inlined.plan,
  };
}

function convertAnyOf(
  node: JsonSchema,
  walk: Walk,
  path: string,
  objectDepth: number,
  walkDepth: number,
  description: string | undefined,
): Converted {
  const anyOf = node.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length === 0) throw new NotStrictable(path, '`anyOf` is not a list');
  if (
    hasAny(
      node,
      [...STRUCTURAL].filter((key) => key !== 'anyOf' && key !== 'description'),
    )
  ) {
    throw new NotStrictable(path, '`anyOf` next to other schema keywords');
  }
  const variants = anyOf.map((variant, index) =>
    convert(variant, walk, `${path}/anyOf/${index}`, objectDepth, walkDepth + 1),
  );
  const schema: JsonSchema = { anyOf: variants.map((variant) => variant.schema) };
  if (description !== undefined) schema.description = description;
  return { schema, plan: { kind: 'union', variants: variants.map((variant) => variant.plan) } };
}

/** The node's types as a list; a missing type is read from `enum`/`const` when all values agree. */
function readTypes(node: JsonSchema, path: string): string[] {
  const declared = node.type;
  let types: string[];
  if (typeof declared === 'string') types = [declared];
  else if (Array.isArray(declared) && declared.every((type) => typeof type === 'string')) types = declared;
  else if (declared === undefined) types = inferTypes(node, path);
  else throw new NotStrictable(path, '`type` is neither a string nor a list of strings');
  if (types.length === 0 || types.some((type) => !SIMPLE_TYPES.has(type))) {
    throw new NotStrictable(path, `unsupported type ${JSON.stringify(declared)}`);
  }
  if (new Set(types).size !== types.length || types.filter((type) => type !== 'null').length > 1) {
    throw new NotStrictable(path, 'a type list other than [T] or [T, "null"]');
  }
  return types;
}

function inferTypes(node: JsonSchema, path: string): string[] {
  const values = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : undefined;
  if (values === undefined) throw new NotStrictable(path, 'a schema without a `type`');
  const types = new Set(values.map(jsonTypeOf));
  if (types.has('integer') && types.has('number')) types.delete('integer');
  const list = [...types];
  const nonNull = list.filter((type) => type !== 'null');
  if (nonNull.length !== 1) {
    throw new NotStrictable(path, 'an enum without a `type` whose values differ in type');
  }
  return list.includes('null') ? [nonNull[0] ?? 'null', 'null'] : nonNull;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function checkEnum(values: unknown, walk: Walk, path: string): unknown[] {
  if (!Array.isArray(values) || values.length === 0) throw new NotStrictable(path, '`enum` is not a list');
  walk.enumValues += values.length;
  let chars = 0;
  for (const value of values)
    chars += typeof value === 'string' ? value.length : JSON.stringify(value).length;
  walk.chars += chars;
  if (values.length > LARGE_ENUM_THRESHOLD && chars > MAX_LARGE_ENUM_CHARS) {
    throw new NotStrictable(path, 'an enum too large for strict mode');
  }
  return values;
}

function readRequired(required: unknown, properties: JsonSchema, path: string): Set<string> {
  if (required === undefined) return new Set();
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    throw new NotStrictable(path, '`required` is not a list of names');
  }
  const missing = required.filter((name) => !Object.hasOwn(properties, name));
  if (missing.length > 0) throw new NotStrictable(path, `\`required\` names unknown properties (${missing})`);
  return new Set(required);
}

function checkTotals(walk: Walk): void {
  if (walk.properties > MAX_STRICT_PROPERTIES) {
    throw new NotStrictable('', 'too many properties for strict mode');
  }
  if (walk.enumValues > MAX_STRICT_ENUM_VALUES) {
    throw new NotStrictable('', 'too many enum values for strict mode');
  }
  if (walk.chars > MAX_STRICT_SCHEMA_CHARS) throw new NotStrictable('', 'too much text for strict mode');
}

/** Adds null to what a converted schema accepts; a description stays on the outside. */
function makeNullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (typeof schema.type === 'string' && schema.enum === undefined && !('const' in schema)) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  const { description, ...inner } = schema;
  const wrapped: JsonSchema = { anyOf: [inner, { type: 'null' }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

/** Whether the ORIGINAL schema already accepts null (then a null from the model is a real value). */
function isNullable(node: unknown, root: JsonSchema, hops: number): boolean {
  if (!isRecord(node) || hops > MAX_REF_HOPS) return false;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  if ('const' in node && node.const === null) return true;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const variants = node[keyword];
    if (Array.isArray(variants) && variants.some((variant) => isNullable(variant, root, hops + 1))) {
      return true;
    }
  }
  if (typeof node.$ref === 'string') return isNullable(resolveRef(root, node.$ref)?.target, root, hops + 1);
  return false;
}

/**
 * `#`, `#/$defs/name` or `#/definitions/name` in the root schema, with the key its null plan is
 * kept under (the name decoded, so `#/$defs/a%20b` and `#/$defs/a b` meet); anything else is not followed.
 */
function resolveRef(root: JsonSchema, ref: string): { target: unknown; key: string } | undefined {
  if (ref === '#') return { target: root, key: '#' };
  for (const container of DEFINITION_CONTAINERS) {
    const prefix = `#/${container}/`;
    if (!ref.startsWith(prefix)) continue;
    const name = decodePointerToken(ref.slice(prefix.length));
    const definitions = root[container];
    if (isRecord(definitions) && Object.hasOwn(definitions, name)) {
      return { target: definitions[name], key: definitionKey(container, name) };
    }
  }
  return undefined;
}

function definitionKey(container: string, name: string): string {
  return `#/${container}/${name}`;
}

function decodePointerToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not percent-encoded after all; use it as written.
  }
  return decoded.replaceAll('~1', '/').replaceAll('~0', '~');
}

function containsRef(node: unknown, depth: number): boolean {
  if (depth > MAX_SCHEMA_WALK_DEPTH) return true;
  if (Array.isArray(node)) return node.some((item) => containsRef(item, depth + 1));
  if (!isRecord(node)) return false;
  if ('$ref' in node) return true;
  return Object.values(node).some((value) => containsRef(value, depth + 1));
}

/** The node's description plus, in words, every constraint and default strict mode cannot carry. */
function describe(node: JsonSchema): string | undefined {
  // A title is a poor description but better than none; otherwise it only annotates and is dropped.
  const own =
    typeof node.description === 'string'
      ? node.description
      : typeof node.title === 'string'
        ? node.title
        : '';
  const notes: string[] = [];
  for (const keyword of [...CONSTRAINTS, ...NOTED_ANNOTATIONS]) {
    if (!(keyword in node)) continue;
    const value = node[keyword];
    if (isSafeIntegerSentinel(keyword, value)) continue;
    const text = JSON.stringify(value);
    if (text === undefined || text.length > MAX_NOTE_VALUE_LENGTH) continue;
    notes.push(`${keyword}: ${text}`);
  }
  const noteText = notes.join(', ');
  const text = own && noteText ? `${own} (${noteText})` : own || noteText;
  return text === '' ? undefined : text;
}

/** zod writes `.int()` as `minimum: -(2^53 - 1), maximum: 2^53 - 1`; telling the model that is noise. */
function isSafeIntegerSentinel(keyword: string, value: unknown): boolean {
  return (
    (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER) ||
    (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER)
  );
}

function joinText(first: string, second: string): string {
  if (!second || first === second) return first;
  return `${first} ${second}`;
}

function hasAny(node: JsonSchema, keys: readonly string[]): boolean {
  return keys.some((key) => key in node);
}
