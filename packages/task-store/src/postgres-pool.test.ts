/**
 * @module postgres-pool.test
 * Telling "the database is unreachable" from a bug, and hiding the password in DATABASE_URL.
 * No Postgres needed: the errors are shaped like the ones `pg` and Node raise.
 */
import { describe, expect, it } from 'vitest';
import { redactDatabaseUrl } from './database-url.js';
import { isConnectionError } from './postgres-pool.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it.each([
    ['a refused connect', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset', withCode('read ECONNRESET', 'ECONNRESET')],
    [
      'a server shutting down (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['a server still starting (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['a cut connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'every address refused',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]),
    ],
    ['a wrapped one', new Error('migration failed', { cause: withCode('x', 'ECONNREFUSED') })],
  ])('is true for %s', (_name, error) => {
    expect(isConnectionError(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('syntax error at or near "only"', '42601')],
    ['a check violation', withCode('new row violates check constraint', '23514')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isConnectionError(error)).toBe(false);
  });
});

describe('redactDatabaseUrl', () => {
  it('replaces the password and keeps the rest', () => {
    expect(redactDatabaseUrl('postgres://app:s3cret@db:5432/tasks?sslmode=require')).toBe(
      'postgres://app:***@db:5432/tasks?sslmode=require',
    );
  });

  it('leaves a URL without a password as it is', () => {
    expect(redactDatabaseUrl('postgresql://app@db/tasks')).toBe('postgresql://app@db/tasks');
  });

  it('shows nothing of a value it cannot parse', () => {
    expect(redactDatabaseUrl('app:s3cret@db tasks')).toBe('(an unparseable URL)');
  });
});
