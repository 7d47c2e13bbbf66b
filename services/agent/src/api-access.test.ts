import { describe, expect, it } from 'vitest';
import { createApiAccess, MAX_SESSIONS, SESSION_TTL_MS, sameSecret } from './api-access.js';

const TOKEN = '9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c';

describe('createApiAccess', () => {
  it('lets everyone in and makes no link without a token', () => {
    const links: string[] = [];
    const access = createApiAccess({ onLinkToken: (link) => links.push(link) });
    expect(access.secured).toBe(false);
    expect(access.linkToken()).toBeUndefined();
    expect(access.identify({})).toEqual({ id: 'local' });
    expect(access.redeem('anything')).toBeUndefined();
    expect(links).toEqual([]);
  });

  it('knows the bearer token and nothing like it', () => {
    const access = createApiAccess({ token: TOKEN });
    expect(access.identify({ bearer: TOKEN })).toEqual({ id: 'bearer' });
    for (const bearer of ['', TOKEN.slice(1), `${TOKEN}0`, TOKEN.toUpperCase()]) {
      expect(access.identify({ bearer }), bearer).toBeUndefined();
    }
    expect(access.identify({})).toBeUndefined();
  });

  it('ends a session after SESSION_TTL_MS', () => {
    let now = 1_000;
    const access = createApiAccess({ token: TOKEN, now: () => now });
    const session = access.redeem(access.linkToken() ?? '') ?? '';
    expect(access.identify({ session })?.id).toMatch(/^session:[0-9a-f]{16}$/);
    now += SESSION_TTL_MS;
    expect(access.identify({ session })).toBeUndefined();
  });

  it(`keeps at most ${MAX_SESSIONS} sessions, dropping the oldest`, () => {
    const access = createApiAccess({ token: TOKEN });
    const sessions = Array.from(
      { length: MAX_SESSIONS + 1 },
      () => access.redeem(access.linkToken() ?? '') ?? '',
    );
    expect(new Set(sessions).size).toBe(MAX_SESSIONS + 1);
    expect(access.identify({ session: sessions[0] })).toBeUndefined();
    expect(access.identify({ session: sessions[1] })).toBeDefined();
    expect(access.identify({ session: sessions.at(-1) })).toBeDefined();
  });
});

describe('sameSecret', () => {
  it('compares values of any length', () => {
    expect(sameSecret(TOKEN, TOKEN)).toBe(true);
    expect(sameSecret('a', TOKEN)).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });
});
