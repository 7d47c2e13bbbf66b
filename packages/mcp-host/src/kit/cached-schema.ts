/**
 * @module tools/cached-schema
 * Tool input, tool output and prompt argument schemas whose JSON Schema is computed once per
 * process. zod converts afresh on every call, and the SDK asks on every `tools/list`,
 * `prompts/list` and 2026-07-28 `tools/call`; its own memo lives on one `McpServer`, and the HTTP
 * endpoint builds instances per session and per request. Validation is unchanged: the same zod
 * `validate` (defaults, refinements) or the same compiled JSON Schema validator runs every time.
 * Test: `cached-schema.test.ts`.
 */
import {
  fromJsonSchema,
  type JsonSchemaType,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

/**
 * The draft the SDK asks every schema for (its `JSON_SCHEMA_CONVERSION_TARGET`). Only this
 * answer is cached; a caller asking for another target gets a fresh conversion.
 */
const SDK_TARGET = 'draft-2020-12';

type Converter = StandardSchemaWithJSON['~standard']['jsonSchema']['input'];
type JsonObject = Record<string, unknown>;

/**
 * A zod object schema as the SDK sees it, with its JSON Schema cached. `shape` stays readable
 * because the SDK finds a prompt's completable arguments through it.
 */
export type CachedZodSchema<S extends z.ZodObject> = StandardSchemaWithJSON<z.input<S>, z.output<S>> & {
  readonly shape: S['shape'];
};

/**
 * Wraps `schema` so its JSON Schema (input and output side) is converted on first use and then
 * reused. The SDK still adds its own root `type: "object"` to every answer, as it would for the
 * bare zod schema, so what clients see is byte-for-byte the same.
 */
export function cacheJsonSchema<S extends z.ZodObject>(schema: S): CachedZodSchema<S> {
  const std = schema['~standard'];
  return {
    shape: schema.shape,
    '~standard': {
      version: 1,
      vendor: std.vendor,
      validate: std.validate,
      jsonSchema: {
        input: cachedForSdkTarget(std.jsonSchema.input),
        output: cachedForSdkTarget(std.jsonSchema.output),
      },
    },
  };
}

/**
 * Like the SDK's `fromJsonSchema`, but lazy: `compute` runs on the first `tools/list` or call
 * that needs the JSON Schema, and the validator is compiled on the first value it checks. Both
 * happen once per process, and start-up pays for neither.
 */
export function lazyJsonSchema<T>(compute: () => JsonSchemaType): StandardSchemaWithJSON<T> {
  const json = once(() => deepFreeze(compute()));
  let validate: StandardSchemaWithJSON<T>['~standard']['validate'] | undefined;
  // fromJsonSchema answers every target with the same schema; so does this.
  const convert = () => json() as JsonObject;
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp',
      jsonSchema: { input: convert, output: convert },
      validate: (value) => {
        validate ??= fromJsonSchema<T>(json())['~standard'].validate;
        return validate(value);
      },
    },
  };
}

function cachedForSdkTarget(convert: Converter): Converter {
  const forSdk = once(() => deepFreeze(convert({ target: SDK_TARGET })));
  return (options) =>
    options.target === SDK_TARGET && options.libraryOptions === undefined ? forSdk() : convert(options);
}

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/**
 * Every list response and every server instance shares the cached object (the in-memory
 * transport even hands it to the client by reference), so a mutation anywhere would change what
 * every later client sees. Frozen, such a mutation throws where it happens instead.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
