import { describe, expect, it } from 'vitest';
import { ClientShares, shareUnder } from './client-shares.js';

describe('ClientShares', () => {
  it("refuses a client past its own share with 'client', and leaves others their room", () => {
    const shares = new ClientShares(2, 10);
    expect(typeof shares.take('a')).toBe('function');
    expect(typeof shares.take('a')).toBe('function');
    expect(shares.take('a')).toBe('client');
    expect(typeof shares.take('b')).toBe('function');
    expect(shares.held()).toBe(3);
    expect(shares.held('a')).toBe(2);
  });

  it("refuses everyone with 'global' once the total is reached, and a client over its share still hears 'client'", () => {
    const shares = new ClientShares(2, 3);
    shares.take('a');
    shares.take('a');
    shares.take('b');
    expect(shares.take('c')).toBe('global');
    expect(shares.take('a')).toBe('client');
  });

  it('gives a piece back once, however often its release is called', () => {
    const shares = new ClientShares(1, 5);
    const release = shares.take('a');
    if (typeof release !== 'function') throw new Error('expected a share');
    release();
    release();
    expect(shares.held()).toBe(0);
    expect(shares.held('a')).toBe(0);
    const again = shares.take('a');
    expect(typeof again).toBe('function');
    expect(shares.take('a')).toBe('client');
  });

  it('stays bounded under a flood from one client', () => {
    const shares = new ClientShares(4, 100);
    let granted = 0;
    for (let i = 0; i < 10_000; i++) if (typeof shares.take('flood') === 'function') granted++;
    expect(granted).toBe(4);
    expect(typeof shares.take('someone-else')).toBe('function');
  });
});

describe('shareUnder', () => {
  const logged: Array<{ fields: unknown; message: string }> = [];
  const logger = {
    info: (fields: unknown, message: string) => logged.push({ fields, message }),
  } as unknown as Parameters<typeof shareUnder>[3];
  const cap = (value: number) => ({ name: 'maxSessions', value });
  const unset = { name: 'maxSessionsPerClient', value: undefined };

  it('keeps the default under a cap at least twice as large, without a word', () => {
    logged.length = 0;
    expect(shareUnder(unset, 50, cap(1000), logger)).toBe(50);
    expect(shareUnder(unset, 50, cap(100), logger)).toBe(50);
    expect(logged).toEqual([]);
  });

  it('lowers an unset share to half a smaller cap (at least 1), and says so once', () => {
    logged.length = 0;
    expect(shareUnder(unset, 50, cap(20), logger)).toBe(10);
    expect(shareUnder(unset, 50, cap(1), logger)).toBe(1);
    expect(logged).toHaveLength(2);
    expect(logged[0]?.message).toBe(
      'maxSessionsPerClient is 10, half of maxSessions, since maxSessions is below twice its default',
    );
  });

  it('keeps a share that was set, up to the cap, and refuses one above it naming both', () => {
    expect(shareUnder({ name: 'maxSessionsPerClient', value: 20 }, 50, cap(20), logger)).toBe(20);
    expect(() => shareUnder({ name: 'maxSessionsPerClient', value: 21 }, 50, cap(20), logger)).toThrow(
      'maxSessionsPerClient (21) is above maxSessions (20): one client could take every place.',
    );
  });
});
