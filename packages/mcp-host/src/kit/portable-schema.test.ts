import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { portableJsonSchema } from './portable-schema.js';

describe('portableJsonSchema', () => {
  it('turns a type list into anyOf branches of one type each', () => {
    const schema = z.toJSONSchema(z.object({ at: z.string().min(1).nullable().describe('When') }));
    expect(portableJsonSchema(schema)).toMatchObject({
      properties: {
        at: { description: 'When', anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
      },
    });
  });

  it('rewrites nested objects and array items and leaves single types alone', () => {
    const schema = z.toJSONSchema(
      z.object({
        items: z.array(z.object({ done: z.boolean(), note: z.string().nullable() })),
        n: z.number(),
      }),
    );
    const out = JSON.stringify(portableJsonSchema(schema));
    expect(out).not.toMatch(/"type":\[/);
    expect(out).toContain('"n":{"type":"number"}');
  });

  it('keeps every value a nullable field accepted, and nothing more', () => {
    const out = portableJsonSchema(z.toJSONSchema(z.object({ a: z.number().int().nullable() }))) as {
      properties: { a: { anyOf: Array<Record<string, unknown>> } };
    };
    expect(out.properties.a.anyOf).toEqual([expect.objectContaining({ type: 'integer' }), { type: 'null' }]);
  });
});
