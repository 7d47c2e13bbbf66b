import { describe, expect, it } from 'vitest';
import { cappedJson, MAX_CONTENT_CHARS } from './content.js';

describe('cappedJson', () => {
  it('writes a small value as JSON', () => {
    expect(cappedJson({ city: 'Oslo', days: 3 })).toBe('{"city":"Oslo","days":3}');
    expect(cappedJson('text')).toBe('"text"');
    expect(cappedJson(null)).toBe('null');
  });

  it('keeps a value of exactly the cap whole', () => {
    const value = 'x'.repeat(MAX_CONTENT_CHARS - 2);
    expect(cappedJson(value)).toBe(JSON.stringify(value));
  });

  it('cuts a long value to the cap and says how long it was', () => {
    const value = { text: 'x'.repeat(100_000) };
    const json = JSON.stringify(value);
    const capped = cappedJson(value);
    expect(capped.startsWith(json.slice(0, MAX_CONTENT_CHARS))).toBe(true);
    expect(capped.slice(MAX_CONTENT_CHARS)).toBe(`… [${json.length} characters, cut]`);
  });

  it('writes a placeholder for a cyclic value instead of throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(cappedJson(cyclic)).toBe('"[not serializable]"');
  });

  it('writes a placeholder for a BigInt or a throwing toJSON', () => {
    expect(cappedJson({ big: 10n })).toBe('"[not serializable]"');
    expect(
      cappedJson({
        toJSON() {
          throw new Error('no');
        },
      }),
    ).toBe('"[not serializable]"');
  });

  it('writes undefined for values JSON has no text for', () => {
    expect(cappedJson(undefined)).toBe('undefined');
    expect(cappedJson(() => 1)).toBe('undefined');
  });
});
