import { describe, expect, it } from 'vitest';
import { toLooseSchema } from './loose-schema.js';

describe('toLooseSchema', () => {
  it('removes $schema, ensures an object root with properties, and gives arrays items', () => {
    const original = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { tags: { type: 'array' }, meta: { type: 'object', additionalProperties: true } },
      additionalProperties: true,
    };
    expect(toLooseSchema(original)).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: {} },
        meta: { type: 'object', additionalProperties: true },
      },
      additionalProperties: true,
    });
    expect(original.properties.tags).toEqual({ type: 'array' });
  });

  it('adds empty properties to a bare object root', () => {
    expect(toLooseSchema({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: { type: 'string' },
    });
  });

  it('finds arrays without items anywhere in the schema', () => {
    expect(
      toLooseSchema({
        type: 'object',
        $defs: { List: { type: 'array' } },
        properties: { v: { oneOf: [{ type: ['array', 'null'] }, { type: 'string' }] } },
      }),
    ).toEqual({
      type: 'object',
      $defs: { List: { type: 'array', items: {} } },
      properties: { v: { oneOf: [{ type: ['array', 'null'], items: {} }, { type: 'string' }] } },
    });
  });
});
