import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../types.js';
import { stripOptionalNulls } from './null-plan.js';
import { toStrictSchema } from './strict-schema.js';

function plansFor(schema: JsonSchema) {
  const result = toStrictSchema(schema);
  if (!result.strict) throw new Error(`expected a strict schema, got: ${result.reason}`);
  return result.plans;
}

describe('stripOptionalNulls', () => {
  it('removes nulls only for fields that were optional and not nullable', () => {
    const plans = plansFor({
      type: 'object',
      properties: {
        location: { type: 'string' },
        days: { type: 'integer' },
        note: { type: ['string', 'null'] },
        label: { type: 'string' },
      },
      required: ['location', 'label'],
    });
    expect(stripOptionalNulls({ location: 'Oslo', days: null, note: null, label: null }, plans)).toEqual({
      location: 'Oslo',
      note: null,
      label: null,
    });
  });

  it('works through nested objects, arrays, $refs and recursion, without touching the input', () => {
    const plans = plansFor({
      type: 'object',
      $defs: {
        Node: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            tag: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
          required: ['value'],
        },
      },
      properties: {
        tree: { $ref: '#/$defs/Node' },
        filter: { type: 'object', properties: { q: { type: 'string' } } },
      },
      required: ['tree'],
    });
    const input = {
      tree: { value: 'a', tag: null, children: [{ value: 'b', tag: 'x', children: null }] },
      filter: { q: null },
    };
    const copy = structuredClone(input);
    expect(stripOptionalNulls(input, plans)).toEqual({
      tree: { value: 'a', children: [{ value: 'b', tag: 'x' }] },
      filter: {},
    });
    expect(input).toEqual(copy);
  });

  it('picks the anyOf variant by its keys', () => {
    const plans = plansFor({
      type: 'object',
      properties: {
        place: {
          anyOf: [
            {
              type: 'object',
              properties: { city: { type: 'string' }, country: { type: 'string' } },
              required: ['city'],
            },
            {
              type: 'object',
              properties: { lat: { type: 'number' }, lon: { type: 'number' }, alt: { type: 'number' } },
              required: ['lat', 'lon'],
            },
          ],
        },
      },
      required: ['place'],
    });
    expect(stripOptionalNulls({ place: { city: 'Oslo', country: null } }, plans)).toEqual({
      place: { city: 'Oslo' },
    });
    expect(stripOptionalNulls({ place: { lat: 1, lon: 2, alt: null } }, plans)).toEqual({
      place: { lat: 1, lon: 2 },
    });
  });

  it('stops following $refs that only point at each other', () => {
    const plans = plansFor({
      type: 'object',
      $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } },
      properties: { loop: { $ref: '#/$defs/A' }, gone: { type: 'string' } },
      required: ['loop'],
    });
    expect(stripOptionalNulls({ loop: { a: null }, gone: null }, plans)).toEqual({ loop: { a: null } });
  });

  it('passes a value that is not an object through', () => {
    const plans = plansFor({ type: 'object', properties: { a: { type: 'string' } } });
    expect(stripOptionalNulls('text', plans)).toBe('text');
  });
});
