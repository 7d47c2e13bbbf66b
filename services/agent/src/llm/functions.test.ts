import { describe, expect, it } from 'vitest';
import type { DiscoveredTool, JsonSchema } from '../types.js';
import { isValidFunctionName } from './function-names.js';
import {
  describeTool,
  MAX_FUNCTION_DESCRIPTION_LENGTH,
  type ResolvedFunction,
  toFunctionSpecs,
} from './functions.js';

function tool(
  name: string,
  inputSchema: JsonSchema = { type: 'object' },
  extra: Partial<DiscoveredTool> = {},
) {
  return {
    server: 'workshop',
    name,
    description: `Does ${name}.`,
    inputSchema,
    ...extra,
  } satisfies DiscoveredTool;
}

function only(tools: DiscoveredTool[]): ResolvedFunction {
  const catalog = toFunctionSpecs(tools);
  const [spec] = catalog.functions;
  const resolved = spec && catalog.resolve(spec.name);
  if (!resolved) throw new Error('no function');
  return resolved;
}

/** The input schema zod 4 writes for the workshop's `get_weather`. */
const weatherSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    location: { type: 'string', minLength: 1, maxLength: 100, description: 'City name' },
    days: {
      default: 3,
      description: 'Forecast days',
      type: 'integer',
      minimum: 1,
      maximum: 16,
    },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['location'],
};

describe('toFunctionSpecs', () => {
  it('sets strict explicitly on every function', () => {
    const catalog = toFunctionSpecs([
      tool('strict_one', weatherSchema),
      tool('loose_one', { type: 'object', additionalProperties: true }),
    ]);
    expect(catalog.functions.map((spec) => spec.strict)).toEqual([true, false]);
    for (const spec of catalog.functions) expect(Object.hasOwn(spec, 'strict')).toBe(true);
  });

  it('converts a real zod schema to a strict one and back: nulls go only for optional fields', () => {
    const fn = only([tool('get_weather', weatherSchema)]);
    expect(fn.spec.strict).toBe(true);
    expect(fn.spec.parameters).toMatchObject({
      required: ['location', 'days', 'unit'],
      additionalProperties: false,
    });
    const args = fn.toMcpArguments({ location: 'Oslo', days: null, unit: null });
    expect(args).toEqual({ location: 'Oslo' });
    expect(fn.validate(args)).toEqual([]);
    // A required field the model set to null is not "left out": the server must hear about it.
    expect(fn.toMcpArguments({ location: null, days: 2, unit: 'celsius' })).toEqual({
      location: null,
      days: 2,
      unit: 'celsius',
    });
  });

  it('keeps the null of a field that was nullable in the original schema', () => {
    const fn = only([
      tool('set_note', {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          note: { type: ['string', 'null'] },
          color: { type: 'string' },
        },
        required: ['id'],
      }),
    ]);
    expect(fn.toMcpArguments({ id: 1, note: null, color: null })).toEqual({ id: 1, note: null });
  });

  it('handles nested objects and arrays of objects with optional fields', () => {
    const fn = only([
      tool('plan_trip', {
        type: 'object',
        properties: {
          traveller: {
            type: 'object',
            properties: { name: { type: 'string' }, age: { type: 'integer' } },
            required: ['name'],
          },
          stops: {
            type: 'array',
            items: {
              type: 'object',
              properties: { city: { type: 'string' }, nights: { type: 'integer' } },
              required: ['city'],
            },
          },
        },
        required: ['traveller', 'stops'],
      }),
    ]);
    expect(fn.spec.strict).toBe(true);
    const args = fn.toMcpArguments({
      traveller: { name: 'Ada', age: null },
      stops: [
        { city: 'Oslo', nights: 2 },
        { city: 'Bergen', nights: null },
      ],
    });
    expect(args).toEqual({
      traveller: { name: 'Ada' },
      stops: [{ city: 'Oslo', nights: 2 }, { city: 'Bergen' }],
    });
    expect(fn.validate(args)).toEqual([]);
  });

  it('keeps enums, making an optional one nullable', () => {
    const fn = only([tool('get_weather', weatherSchema)]);
    expect((fn.spec.parameters.properties as JsonSchema).unit).toEqual({
      anyOf: [{ type: 'string', enum: ['celsius', 'fahrenheit'] }, { type: 'null' }],
    });
    expect(fn.validate({ location: 'Oslo', unit: 'kelvin' })).toEqual([
      '/unit: must be equal to one of the allowed values: "celsius", "fahrenheit"',
    ]);
  });

  it('sends an array without items non-strict, with items: {} so OpenAI accepts it', () => {
    const fn = only([
      tool('tag', { type: 'object', properties: { tags: { type: 'array' } }, required: ['tags'] }),
    ]);
    expect(fn.spec.strict).toBe(false);
    expect(fn.notStrictBecause).toMatch(/items/);
    expect(fn.spec.parameters).toEqual({
      type: 'object',
      properties: { tags: { type: 'array', items: {} } },
      required: ['tags'],
    });
  });

  it('makes arrays with items strict', () => {
    const fn = only([
      tool('tag', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }),
    ]);
    expect(fn.spec.strict).toBe(true);
    expect(fn.toMcpArguments({ tags: null })).toEqual({});
  });

  it.each([
    ['true', true, false],
    ['a schema', { type: 'string' }, false],
    ['false', false, true],
  ])('treats additionalProperties %s as strict=%s', (_label, additionalProperties, expected) => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties };
    const fn = only([tool('t', schema)]);
    expect(fn.spec.strict).toBe(expected);
    if (!expected) expect(fn.spec.parameters).toEqual({ ...schema });
  });

  it('keeps $ref/$defs and strips nulls through them', () => {
    const fn = only([
      tool('route', {
        type: 'object',
        $defs: {
          Point: {
            type: 'object',
            properties: { lat: { type: 'number' }, lon: { type: 'number' }, label: { type: 'string' } },
            required: ['lat', 'lon'],
          },
        },
        properties: { from: { $ref: '#/$defs/Point' }, to: { $ref: '#/$defs/Point' } },
        required: ['from', 'to'],
      }),
    ]);
    expect(fn.spec.strict).toBe(true);
    expect(fn.spec.parameters.$defs).toBeDefined();
    const args = fn.toMcpArguments({
      from: { lat: 1, lon: 2, label: null },
      to: { lat: 3, lon: 4, label: 'x' },
    });
    expect(args).toEqual({ from: { lat: 1, lon: 2 }, to: { lat: 3, lon: 4, label: 'x' } });
    expect(fn.validate({ from: { lat: 'north', lon: 2 }, to: { lat: 3, lon: 4 } })).toEqual([
      '/from/lat: must be number',
    ]);
  });

  it('passes arguments through unchanged for a non-strict function', () => {
    const fn = only([tool('loose', { type: 'object', properties: { a: {} } })]);
    expect(fn.spec.strict).toBe(false);
    expect(fn.toMcpArguments({ a: null, b: 1 })).toEqual({ a: null, b: 1 });
  });

  it('turns an empty inputSchema into a strict function without parameters', () => {
    const fn = only([tool('ping', { type: 'object' })]);
    expect(fn.spec).toMatchObject({
      name: 'ping',
      strict: true,
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    });
    expect(fn.toMcpArguments(undefined)).toEqual({});
    expect(fn.toMcpArguments(null)).toEqual({});
    expect(fn.validate({})).toEqual([]);
  });

  it('rejects arguments that are not an object with a message for the model', () => {
    const fn = only([tool('ping')]);
    expect(() => fn.toMcpArguments([1])).toThrow(
      'The arguments must be a JSON object with named fields, not an array.',
    );
    expect(() => fn.toMcpArguments('x')).toThrow(/not a string/);
  });

  it('maps dotted, unicode and overlong names to valid names and back', () => {
    const long = `very.${'long_'.repeat(24)}name`;
    expect(long.length).toBe(129);
    const tools = [tool('tasks.add'), tool('météo du jour'), tool('天气'), tool(long)];
    const catalog = toFunctionSpecs(tools);
    const names = catalog.functions.map((spec) => spec.name);
    expect(names.slice(0, 3)).toEqual(['tasks_add', 'meteo_du_jour', '__']);
    expect(names[3]).toHaveLength(64);
    for (const [index, name] of names.entries()) {
      expect(isValidFunctionName(name)).toBe(true);
      expect(catalog.resolve(name)?.tool).toBe(tools[index]);
    }
    expect(catalog.resolve('tasks.add')).toBeUndefined();
  });

  it('disambiguates colliding names deterministically, whatever the order', () => {
    const tools = [
      tool('get.weather'),
      tool('get_weather'),
      tool('get weather', undefined, { server: 'other' }),
    ];
    const forward = toFunctionSpecs(tools);
    const backward = toFunctionSpecs([...tools].reverse());
    const nameOf = (catalog: typeof forward, original: DiscoveredTool) =>
      catalog.functions.find((spec) => catalog.resolve(spec.name)?.tool === original)?.name;
    for (const original of tools) expect(nameOf(backward, original)).toBe(nameOf(forward, original));
    expect(nameOf(forward, tools[1] as DiscoveredTool)).toBe('get_weather');
    expect(new Set(forward.functions.map((spec) => spec.name)).size).toBe(3);
  });

  it('gives the same names on every call for the same tools', () => {
    const tools = [tool('a.b'), tool('a_b'), tool('x'.repeat(100))];
    expect(toFunctionSpecs(tools).functions).toEqual(toFunctionSpecs([...tools]).functions);
  });

  it('reuses the catalog for the same tool list, so schemas are compiled once', () => {
    const tools = [tool('a')];
    expect(toFunctionSpecs(tools)).toBe(toFunctionSpecs(tools));
    expect(toFunctionSpecs([...tools])).not.toBe(toFunctionSpecs(tools));
  });

  it('lists a tool that appears twice only once', () => {
    expect(toFunctionSpecs([tool('a'), tool('a')]).functions).toHaveLength(1);
  });

  it('prefers a qualifiedName as the base of the function name when the tool has one', () => {
    const withQualified: DiscoveredTool = { ...tool('add'), qualifiedName: 'tasks.add' };
    expect(toFunctionSpecs([withQualified]).functions[0]?.name).toBe('tasks_add');
  });

  it('validates against the original schema, not the strict one', () => {
    const fn = only([tool('get_weather', weatherSchema)]);
    expect(fn.validate({ location: '', days: 0 })).toEqual([
      '/location: must NOT have fewer than 1 characters',
      '/days: must be >= 1',
    ]);
    expect(fn.validate({ location: 'Oslo', days: null })).toEqual(['/days: must be integer']);
  });
});

describe('describeTool', () => {
  it('falls back from description to title to a sentence naming the tool', () => {
    expect(describeTool(tool('a', undefined, { description: 'Desc', title: 'Title' }))).toBe('Desc');
    expect(describeTool(tool('a', undefined, { description: '  ', title: 'Title' }))).toBe('Title');
    expect(describeTool({ server: 'workshop', name: 'a', inputSchema: { type: 'object' } })).toBe(
      'Tool a on server workshop',
    );
  });

  it('cuts a long description to what OpenAI accepts, without splitting a surrogate pair', () => {
    const text = `${'a'.repeat(MAX_FUNCTION_DESCRIPTION_LENGTH - 2)}😀😀😀`;
    const description = describeTool(tool('a', undefined, { description: text }));
    expect(description.length).toBeLessThanOrEqual(MAX_FUNCTION_DESCRIPTION_LENGTH);
    expect(description.endsWith('…')).toBe(true);
    expect(description).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
