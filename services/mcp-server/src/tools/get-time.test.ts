import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';

describe('get_time', () => {
  let conn: Connected;
  afterEach(async () => conn?.close());

  const call = async (args: Record<string, unknown>, now = '2026-07-28T12:00:00Z') => {
    conn = await connectInMemory(testDeps({ now: () => new Date(now) }));
    return conn.client.callTool({ name: 'get_time', arguments: args });
  };

  it('returns the local time with its offset for a valid zone', async () => {
    const result = await call({ timezone: 'Europe/Oslo' });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      timezone: 'Europe/Oslo',
      iso: '2026-07-28T14:00:00+02:00',
      date: '2026-07-28',
      time: '14:00:00',
      weekday: 'Tuesday',
      utcOffset: '+02:00',
      unixSeconds: 1785240000,
    });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(
      result.structuredContent,
    );
  });

  it('handles negative and half-hour offsets', async () => {
    const ny = await call({ timezone: 'America/New_York' }, '2026-01-15T12:00:00Z');
    expect(ny.structuredContent).toMatchObject({ time: '07:00:00', utcOffset: '-05:00' });
    await conn.close();
    const india = await call({ timezone: 'Asia/Kolkata' }, '2026-01-15T12:00:00Z');
    expect(india.structuredContent).toMatchObject({ time: '17:30:00', utcOffset: '+05:30' });
  });

  it('returns an isError result the model can act on for an unknown zone', async () => {
    const result = await call({ timezone: 'Mars/Olympus_Mons' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(
      /not an IANA time zone.*Europe\/Oslo/,
    );
  });

  it.each([
    ['missing', {}],
    ['wrong type', { timezone: 42 }],
    ['empty', { timezone: '' }],
    ['oversized', { timezone: 'A'.repeat(10_000) }],
    ['hostile', { timezone: '../../etc/passwd\u0000' }],
  ])('rejects %s input with isError and no crash', async (_label, args) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
  });
});
