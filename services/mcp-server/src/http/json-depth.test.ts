import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

describe('jsonDepth', () => {
  it('counts scalars as 0 and each object or array level as 1', () => {
    expect(jsonDepth('x')).toBe(0);
    expect(jsonDepth(null)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
  });

  it('measures a 100,000-level value without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(jsonDepth(deep)).toBe(100_000);
  });

  it('stops early once past the limit', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(jsonDepth(deep, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });
});
