import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvError, parseEnv } from './env.js';

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
