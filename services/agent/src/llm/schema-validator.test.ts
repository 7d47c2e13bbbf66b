import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSchemaValidatorFactory,
  dialectOf,
  formatValidationErrors,
  MAX_VALIDATION_MESSAGES,
} from './schema-validator.js';

const weather = {
  type: 'object',
  properties: {
    location: { type: 'string', minLength: 1 },
    days: { type: 'integer', minimum: 1, maximum: 16 },
    unit: { enum: ['c', 'f'] },
  },
  required: ['location'],
  additionalProperties: false,
};

describe('createSchemaValidatorFactory', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns no problems for valid arguments', () => {
    const validate = createSchemaValidatorFactory()(weather);
    expect(validate({ location: 'Oslo', days: 3, unit: 'c' })).toEqual([]);
  });

  it('words every problem as path and message, with the detail the model needs', () => {
    const validate = createSchemaValidatorFactory()(weather);
    expect(validate({ location: 42, days: 40, unit: 'k', extra: true })).toEqual([
      '/: must NOT have additional properties: "extra"',
      '/location: must be string',
      '/days: must be <= 16',
      '/unit: must be equal to one of the allowed values: "c", "f"',
    ]);
    expect(validate({})).toEqual(["/: must have required property 'location'"]);
  });

  it('compiles each schema once, on first use', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const validate = createSchemaValidatorFactory()(weather);
    expect(compile).not.toHaveBeenCalled();
    validate({ location: 'a' });
    validate({ location: 'b' });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('validates draft-07 schemas with definitions', () => {
    const validate = createSchemaValidatorFactory()({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { Name: { type: 'string' } },
      properties: { name: { $ref: '#/definitions/Name' } },
    });
    expect(validate({ name: 1 })).toEqual(['/name: must be string']);
  });

  it('lets the server decide when a schema cannot be compiled', () => {
    const factory = createSchemaValidatorFactory();
    expect(factory({ type: 'object', properties: { a: { type: 'strnig' } } })({ a: 1 })).toEqual([]);
    expect(factory({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })({ a: 1 })).toEqual([]);
  });

  it('ignores unknown keywords and formats instead of failing', () => {
    const validate = createSchemaValidatorFactory()({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time', 'x-widget': 'calendar' } },
    });
    expect(validate({ when: 'not a date' })).toEqual([]);
    expect(validate({ when: 5 })).toEqual(['/when: must be string']);
  });

  it('keeps two schemas with the same $id apart', () => {
    const factory = createSchemaValidatorFactory();
    const first = factory({
      $id: 'https://example.com/args.json',
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    const second = factory({
      $id: 'https://example.com/args.json',
      type: 'object',
      properties: { a: { type: 'number' } },
    });
    expect(first({ a: 'x' })).toEqual([]);
    expect(second({ a: 1 })).toEqual([]);
    expect(second({ a: 'x' })).toEqual(['/a: must be number']);
  });
});

describe('dialectOf', () => {
  it('reads $schema, defaulting to 2020-12 as MCP does', () => {
    expect(dialectOf({})).toBe('2020-12');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019-09');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('draft-07');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-04/schema#' })).toBe('draft-07');
  });
});

describe('formatValidationErrors', () => {
  it('deduplicates and bounds the list', () => {
    const errors: ErrorObject[] = Array.from({ length: MAX_VALIDATION_MESSAGES + 5 }, (_, index) => ({
      keyword: 'type',
      instancePath: `/items/${index}`,
      schemaPath: '#/items/type',
      params: { type: 'string' },
      message: 'must be string',
    }));
    const messages = formatValidationErrors([...errors, ...errors]);
    expect(messages).toHaveLength(MAX_VALIDATION_MESSAGES + 1);
    expect(messages.at(-1)).toBe('(5 more problems not shown)');
  });
});
