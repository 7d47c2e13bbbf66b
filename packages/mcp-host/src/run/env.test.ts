import { EnvError } from '@mcp-workshop/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HOST_ENV, loadRunEnv, quoteSafely, runEnvKeys } from './env.js';

const catalogueEnv = {
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  GREETING: z.string().default('hello'),
};

function errorOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error('the environment was accepted');
}

describe('loadRunEnv', () => {
  it("reads the host's settings and the catalogue's together, with their defaults", () => {
    const env = loadRunEnv(catalogueEnv, { PORT: '4100', GREETING: 'hei' });
    expect(env).toMatchObject({ HOST: '127.0.0.1', PORT: 4100, MCP_PAGE_SIZE: 50, GREETING: 'hei' });
    expect(loadRunEnv(catalogueEnv, {}).GREETING).toBe('hello');
  });

  it("names every bad variable at once, the catalogue's and the host's", () => {
    const message = errorOf(() => loadRunEnv(catalogueEnv, { PORT: 'eighty', DATABASE_URL: 'mysql://db' }));
    expect(message).toMatch(/PORT="eighty"/);
    expect(message).toMatch(/DATABASE_URL="mysql:\/\/db\/?"/);
  });

  it("keeps the host's cross-checks: sign-in needs both variables", () => {
    expect(errorOf(() => loadRunEnv({}, { MCP_AUTH_ISSUER: 'http://127.0.0.1:3003' }))).toMatch(
      /MCP_RESOURCE_URL/,
    );
  });

  it('refuses a catalogue variable that reuses a host name, naming it', () => {
    expect(() => loadRunEnv({ PORT: z.string() }, {})).toThrow(/redefines the host's PORT/);
  });

  it('never prints the password of a bad URL, nor all of an oversized value', () => {
    const message = errorOf(() =>
      loadRunEnv(catalogueEnv, { DATABASE_URL: 'mysql://app:s3cret@db:5432/tasks' }),
    );
    expect(message).not.toContain('s3cret');
    expect(message).toContain('mysql://app:***@db:5432/tasks');
    const long = errorOf(() => loadRunEnv({}, { MCP_TRUST_PROXY: `10.0.0.1,${'x'.repeat(5000)}` }));
    expect(long).toMatch(/MCP_TRUST_PROXY=.*\(5009 characters\)/);
    expect(long.length).toBeLessThan(600);
  });

  it('masks a password that does not even parse as a URL', () => {
    expect(quoteSafely('DATABASE_URL', 'postgres://app:p@ss word@db')).toBe('postgres://app:***@db');
    expect(quoteSafely('DATABASE_URL', 'postgres://app:secret@[db')).toBe('(an unparseable URL)');
    expect(quoteSafely('PORT', 'eighty')).toBe('eighty');
  });

  it("lists the host's variables and then the catalogue's", () => {
    expect(runEnvKeys(catalogueEnv)).toEqual([...Object.keys(HOST_ENV), 'DATABASE_URL', 'GREETING']);
  });
});
