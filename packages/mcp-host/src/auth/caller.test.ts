/**
 * @module auth/caller.test
 * `ownerOf` and the scope checks: who owns a request's data, for tokens with and without a
 * subject, and that a client id can never name the same owner as a subject spelled alike.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  callerHasScopes,
  MAX_IDENTITY_LENGTH,
  MAX_OWNER_LENGTH,
  missingScopes,
  ownerOf,
  SHARED_OWNER,
} from './caller.js';

const auth = (fields: { sub?: unknown; clientId?: string; scopes?: string[] }): AuthInfo => ({
  token: 't',
  clientId: fields.clientId ?? '',
  scopes: fields.scopes ?? [],
  ...(fields.sub !== undefined && { extra: { sub: fields.sub } }),
});

describe('ownerOf', () => {
  it('gives the shared owner when nobody signed in', () => {
    expect(ownerOf(undefined)).toBe(SHARED_OWNER);
  });

  it("names the token's subject", () => {
    expect(ownerOf(auth({ sub: 'alice', clientId: 'app' }))).toBe('sub:alice');
  });

  it('falls back to the client id when the token has no (or an empty, or a non-string) subject', () => {
    expect(ownerOf(auth({ clientId: 'robot' }))).toBe('client:robot');
    expect(ownerOf(auth({ sub: '', clientId: 'robot' }))).toBe('client:robot');
    expect(ownerOf(auth({ sub: 42, clientId: 'robot' }))).toBe('client:robot');
  });

  it('throws, never names a blank owner, for a token with neither a subject nor a client id', () => {
    expect(() => ownerOf(auth({}))).toThrow(/subject or client id of 1 to 500 characters/);
    expect(() => ownerOf(auth({ sub: '' }))).toThrow(/subject or client id/);
  });

  it('never lets a client id collide with a subject of the same spelling, nor with the shared owner', () => {
    const asSubject = ownerOf(auth({ sub: 'alice' }));
    const asClient = ownerOf(auth({ clientId: 'alice' }));
    expect(asClient).not.toBe(asSubject);
    expect(ownerOf(auth({ sub: 'client:alice' }))).not.toBe(asClient);
    expect(asClient).not.toBe(SHARED_OWNER);
  });

  it(`never cuts an owner: up to ${MAX_IDENTITY_LENGTH} characters it is whole, past that it throws`, () => {
    const longest = 'x'.repeat(MAX_IDENTITY_LENGTH);
    expect(ownerOf(auth({ sub: longest }))).toBe(`sub:${longest}`);
    expect(ownerOf(auth({ clientId: longest }))).toBe(`client:${longest}`);
    expect(`client:${longest}`.length).toBeLessThanOrEqual(MAX_OWNER_LENGTH);
    expect(() => ownerOf(auth({ sub: 'x'.repeat(10 * MAX_OWNER_LENGTH) }))).toThrow(/subject or client id/);
    expect(() => ownerOf(auth({ clientId: 'y'.repeat(10 * MAX_OWNER_LENGTH) }))).toThrow(
      /subject or client id/,
    );
  });
});

describe('callerHasScopes and missingScopes', () => {
  it('lets a request without auth info through (sign-in off) and checks a token for every scope', () => {
    expect(callerHasScopes(undefined, ['notes:read'])).toBe(true);
    expect(callerHasScopes(auth({ scopes: ['notes:read'] }), ['notes:read'])).toBe(true);
    expect(callerHasScopes(auth({ scopes: ['notes:read'] }), ['notes:read', 'notes:write'])).toBe(false);
    expect(callerHasScopes(auth({ scopes: ['NOTES:READ'] }), ['notes:read'])).toBe(false);
    expect(missingScopes(['a', 'b', 'c'], ['b'])).toEqual(['a', 'c']);
    expect(missingScopes([], [])).toEqual([]);
  });
});
