/**
 * @module tools/portable-schema
 * zod writes a nullable field as `"type": ["string", "null"]`. That is valid JSON Schema, but
 * clients that map tool schemas onto a single-`type` dialect (Gemini's OpenAPI subset, for one)
 * reject or mangle it, and MCP Inspector warns about it. This rewrites every such list into
 * `anyOf` branches with one type each, which means the same thing and travels everywhere.
 */

type Json = Record<string, unknown>;

/** Keywords that describe the field as a whole and stay outside the `anyOf`. */
const SHARED_KEYWORDS = new Set([
  'description',
  'title',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

export function portableJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portableJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const rewritten: Json = {};
  for (const [key, value] of Object.entries(schema)) rewritten[key] = portableJsonSchema(value);
  const type = rewritten.type;
  if (!Array.isArray(type) || type.length < 2) return rewritten;
  const shared: Json = {};
  const specific: Json = {};
  for (const [key, value] of Object.entries(rewritten)) {
    if (key === 'type') continue;
    (SHARED_KEYWORDS.has(key) ? shared : specific)[key] = value;
  }
  // Type-specific keywords (minLength, properties, ...) belong to the branch of their own type.
  const branches = type.map((one) => (one === 'null' ? { type: 'null' } : { type: one, ...specific }));
  return { ...shared, anyOf: branches };
}
