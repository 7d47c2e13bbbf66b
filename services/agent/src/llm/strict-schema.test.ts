import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../types.js';
import type { NullPlans } from './null-plan.js';
import { MAX_STRICT_ENUM_VALUES, MAX_STRICT_OBJECT_DEPTH, toStrictSchema } from './strict-schema.js';

/** The strict conversion of `schema`; fails the test when there is none. */
function strict(schema: JsonSchema): { schema: JsonSchema; plans: NullPlans } {
  const result = toStrictSchema(schema);
  if (!result.strict) throw new Error(`expected a strict schema, got: ${result.reason}`);
  return result;
}

function reason(schema: JsonSchema): string {
  const result = toStrictSchema(schema);
  if (result.strict) throw new Error('expected the schema not to be strict');
  return result.reason;
}

describe('toStrictSchema', () => {
  it('makes an optional field nullable and required, and moves constraints into the description', () => {
    const { schema } = strict({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        location: { type: 'string', minLength: 1, maxLength: 100, description: 'City name' },
        days: { type: 'integer', minimum: 1, maximum: 16, default: 3, description: 'Days' },
      },
      required: ['location'],
      additionalProperties: false,
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City name (minLength: 1, maxLength: 100)' },
        days: { type: ['integer', 'null'], description: 'Days (minimum: 1, maximum: 16, default: 3)' },
      },
      required: ['location', 'days'],
      additionalProperties: false,
    });
  });

  it("leaves out zod's safe-integer bounds, which say nothing", () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['id'],
    });
    expect(schema.properties).toEqual({ id: { type: 'integer' } });
  });

  it('turns an empty object schema into a strict function without parameters', () => {
    expect(strict({ type: 'object' }).schema).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  it('wraps an optional enum in anyOf with null and infers a missing type from the values', () => {
    const { schema } = strict({
      type: 'object',
      properties: { unit: { enum: ['c', 'f'], description: 'Unit' } },
    });
    expect(schema.properties).toEqual({
      unit: { anyOf: [{ type: 'string', enum: ['c', 'f'] }, { type: 'null' }], description: 'Unit' },
    });
  });

  it('does not add null to a field that is already nullable', () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        other: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
    });
    expect(schema.properties).toEqual({
      note: { type: ['string', 'null'] },
      other: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
  });

  it('closes nested objects and converts array items', () => {
    const { schema } = strict({
      type: 'object',
      properties: {
        stops: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { city: { type: 'string' }, nights: { type: 'number' } },
            required: ['city'],
          },
        },
      },
      required: ['stops'],
    });
    expect(schema.properties).toEqual({
      stops: {
        type: 'array',
        description: 'minItems: 1',
        items: {
          type: 'object',
          properties: { city: { type: 'string' }, nights: { type: ['number', 'null'] } },
          required: ['city', 'nights'],
          additionalProperties: false,
        },
      },
    });
  });

  it('keeps local $refs, converts $defs, and inlines a described ref that cannot recurse', () => {
    const { schema } = strict({
      type: 'object',
      $defs: {
        Point: {
          type: 'object',
          properties: { x: { type: 'number' }, y: { type: 'number' } },
          required: ['x', 'y'],
        },
      },
      properties: {
        from: { $ref: '#/$defs/Point' },
        to: { $ref: '#/$defs/Point', description: 'End point' },
      },
      required: ['from'],
    });
    const point = {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
      additionalProperties: false,
    };
    expect(schema.$defs).toEqual({ Point: point });
    expect(schema.properties).toEqual({
      from: { $ref: '#/$defs/Point' },
      to: { ...point, type: ['object', 'null'], description: 'End point' },
    });
  });

  it('supports recursive definitions through $ref', () => {
    const { schema } = strict({
      type: 'object',
      definitions: {
        Node: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/definitions/Node' } },
          },
          required: ['value'],
        },
      },
      properties: { tree: { $ref: '#/definitions/Node' } },
      required: ['tree'],
    });
    expect(schema.definitions).toMatchObject({
      Node: { properties: { children: { type: ['array', 'null'], items: { $ref: '#/definitions/Node' } } } },
    });
  });

  it.each<[string, JsonSchema, RegExp]>([
    ['open additionalProperties', { type: 'object', additionalProperties: true }, /additional properties/],
    [
      'an additionalProperties schema',
      { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } },
      /additional properties/,
    ],
    [
      'patternProperties',
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      /patternProperties/,
    ],
    [
      'an array without items',
      { type: 'object', properties: { list: { type: 'array' } } },
      /without a single `items`/,
    ],
    ['oneOf', { type: 'object', properties: { v: { oneOf: [{ type: 'string' }] } } }, /"oneOf"/],
    ['allOf', { type: 'object', properties: { v: { allOf: [{ type: 'string' }] } } }, /"allOf"/],
    ['not', { type: 'object', properties: { v: { type: 'string', not: { const: 'x' } } } }, /"not"/],
    [
      'a missing type',
      { type: 'object', properties: { v: { description: 'anything' } } },
      /without a `type`/,
    ],
    ['a root that is not an object', { type: 'string' }, /root is not an object/],
    [
      'a remote $ref',
      { type: 'object', properties: { v: { $ref: 'https://example.com/s.json' } } },
      /not a local/,
    ],
    ['a nested free-form object', { type: 'object', properties: { meta: { type: 'object' } } }, /free-form/],
    ['a union type list', { type: 'object', properties: { v: { type: ['string', 'number'] } } }, /type list/],
    ['a boolean schema', { type: 'object', properties: { v: true } }, /boolean/],
    [
      'an unknown keyword',
      { type: 'object', properties: { v: { type: 'string', nullable: true } } },
      /"nullable"/,
    ],
    [
      'required naming an unknown property',
      { type: 'object', properties: {}, required: ['ghost'] },
      /unknown/,
    ],
  ])('falls back for %s', (_label, schema, expected) => {
    expect(reason(schema)).toMatch(expected);
  });

  it('names the place in the schema that is not strict-compatible', () => {
    expect(
      reason({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'array' } } } } }),
    ).toBe('/properties/a/properties/b: an array without a single `items` schema');
  });

  it('falls back when objects nest deeper than OpenAI allows', () => {
    let schema: JsonSchema = { type: 'object', properties: { leaf: { type: 'string' } } };
    for (let level = 0; level < MAX_STRICT_OBJECT_DEPTH; level += 1) {
      schema = { type: 'object', properties: { inner: schema } };
    }
    expect(reason(schema)).toMatch(/nest too deeply/);
  });

  it('falls back when there are more enum values than OpenAI allows', () => {
    const values = Array.from({ length: MAX_STRICT_ENUM_VALUES + 1 }, (_, index) => `v${index}`);
    expect(reason({ type: 'object', properties: { v: { type: 'string', enum: values } } })).toMatch(
      /enum values/,
    );
  });
});
