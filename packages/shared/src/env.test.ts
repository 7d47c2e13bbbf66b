import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commaList, EnvError, parseEnv } from './env.js';

const Schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  MODE: z.enum(['a', 'b']).default('a'),
});

describe('parseEnv', () => {
  it('applies defaults and treats empty values as unset', () => {
    expect(parseEnv(Schema, { PORT: '', MODE: '   ' })).toEqual({ PORT: 3000, MODE: 'a' });
  });

  it('coerces and keeps valid values', () => {
    expect(parseEnv(Schema, { PORT: '8080', MODE: 'b', UNRELATED: 'x' })).toEqual({ PORT: 8080, MODE: 'b' });
  });

  it('lists every bad variable with the value it was given', () => {
    expect(() => parseEnv(Schema, { PORT: 'abc', MODE: 'c' })).toThrow(EnvError);
    try {
      parseEnv(Schema, { PORT: 'abc', MODE: 'c' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT="abc"/);
      expect((error as Error).message).toMatch(/MODE="c"/);
    }
  });
});

describe('commaList', () => {
  it('trims each item and drops empty ones', () => {
    expect(commaList.parse(' a.example , b.example:8080,,  ,c ')).toEqual([
      'a.example',
      'b.example:8080',
      'c',
    ]);
  });

  it('is an empty list for a value of only commas and spaces', () => {
    expect(commaList.parse(' , ,, ')).toEqual([]);
  });

  it('keeps a single item without commas', () => {
    expect(commaList.parse('only')).toEqual(['only']);
  });

  it('rejects a value that is not a string', () => {
    expect(commaList.safeParse(['a', 'b']).success).toBe(false);
    expect(commaList.safeParse(undefined).success).toBe(false);
  });

  it('splits a 100 kB hostile value without losing items', () => {
    // 20,000 items of " ab " with padding, plus runs of empty items: a regex that backtracks on
    // them would not finish within the test's timeout.
    const hostile = `${' ab ,'.repeat(20_000)}${','.repeat(10_000)}${' '.repeat(10_000)}`;
    expect(hostile.length).toBeGreaterThanOrEqual(100_000);
    const items = commaList.parse(hostile);
    expect(items).toHaveLength(20_000);
    expect(new Set(items)).toEqual(new Set(['ab']));
  });

  it('works inside parseEnv, where an empty value counts as unset', () => {
    const schema = z.object({ HOSTS: commaList.optional() });
    expect(parseEnv(schema, { HOSTS: 'a, b' })).toEqual({ HOSTS: ['a', 'b'] });
    expect(parseEnv(schema, { HOSTS: '  ' })).toEqual({});
  });
});
