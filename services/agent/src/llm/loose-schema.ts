/**
 * @module llm/loose-schema
 * The schema sent with `strict: false`, for tools whose schema cannot be made strict
 * (`strict-schema.ts` decides). Test: `loose-schema.test.ts`.
 */

import { isRecord } from '@mcp-workshop/shared';
import type { JsonSchema } from '../types.js';

/** Bounds the walk over a hostile, deeply nested schema. */
const MAX_LOOSE_WALK_DEPTH = 64;

/**
 * The non-strict schema: the original, cleaned just enough for OpenAI to accept it. The root is an
 * object with `properties` (some servers reject an object schema without them) and no `$schema`, and
 * an array without `items` gets `items: {}` (any item, the same meaning), because OpenAI rejects the
 * whole request with "array schema missing items" even in non-strict mode.
 */
export function toLooseSchema(inputSchema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = structuredClone(inputSchema);
  addMissingItems(rest, 0);
  return { ...rest, type: 'object', properties: isRecord(rest.properties) ? rest.properties : {} };
}

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const SUBSCHEMA_KEYWORDS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'];
const SUBSCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
];

function addMissingItems(node: unknown, depth: number): void {
  if (!isRecord(node) || depth > MAX_LOOSE_WALK_DEPTH) return;
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && node.items === undefined) node.items = {};
  for (const keyword of SUBSCHEMA_KEYWORDS) addMissingItems(node[keyword], depth + 1);
  for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const item of list) addMissingItems(item, depth + 1);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (isRecord(map)) for (const item of Object.values(map)) addMissingItems(item, depth + 1);
  }
}
