import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, jsonTextDepth, MAX_JSON_DEPTH, verifyJsonDepth } from './json-depth.js';

const depthOf = (text: string, stopAt?: number) => jsonTextDepth(Buffer.from(text), stopAt);

describe('jsonTextDepth', () => {
  it('counts scalars as 0 and each object or array level as 1', () => {
    expect(depthOf('"x"')).toBe(0);
    expect(depthOf('null')).toBe(0);
    expect(depthOf('{}')).toBe(1);
    expect(depthOf('{"a":[1,{"b":2}]}')).toBe(3);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depthOf('{"a":"[[[{{{"}')).toBe(1);
    expect(depthOf('{"a":"say \\"[[[\\" twice","b":[1]}')).toBe(2);
    expect(depthOf('["\\\\",[["x"]]]')).toBe(3);
  });

  it('measures a 100,000-level body without recursion', () => {
    expect(depthOf(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBe(100_000);
  });

  it('stops early once past the limit', () => {
    expect(depthOf(`${'['.repeat(10_000)}${']'.repeat(10_000)}`, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
  });

  it('agrees with the parsed value on every MCP-shaped message it is likely to see', () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'x', arguments: { a: [{ b: {} }] } },
    };
    expect(depthOf(JSON.stringify(message))).toBe(6);
  });
});

describe('verifyJsonDepth', () => {
  it('lets a body at the limit through and refuses one level more, before parsing', () => {
    const atLimit = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(() => verifyJsonDepth(undefined, undefined, Buffer.from(atLimit))).not.toThrow();
    const tooDeep = `[${atLimit}]`;
    expect(() => verifyJsonDepth(undefined, undefined, Buffer.from(tooDeep))).toThrow(JsonTooDeepError);
  });
});
