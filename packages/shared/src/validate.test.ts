/**
 * @module validate.test
 * Unit tests for `validate.ts`: which whole `CallToolResult` values pass, which fail, and that
 * each problem names the path of the offending field.
 */
import { describe, expect, it } from 'vitest';
import { assertToolResult, validateToolResult } from './validate.js';

/** "hello" in standard base64. */
const BASE64 = 'aGVsbG8=';

/** The problems of a value that must fail validation. */
function problemsOf(value: unknown): string[] {
  const outcome = validateToolResult(value);
  if (outcome.ok) throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
  return outcome.problems;
}

describe('validateToolResult', () => {
  it.each([
    ['text', { type: 'text', text: 'hello' }],
    ['image with base64 data', { type: 'image', data: BASE64, mimeType: 'image/png' }],
    ['audio with base64 data', { type: 'audio', data: BASE64, mimeType: 'audio/mpeg' }],
    ['resource_link', { type: 'resource_link', uri: 'file:///notes.txt', name: 'notes.txt' }],
    ['resource with text', { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi' } }],
    ['resource with a blob', { type: 'resource', resource: { uri: 'file:///a.bin', blob: BASE64 } }],
  ])('accepts a %s content block', (_label, block) => {
    const outcome = validateToolResult({ content: [block], isError: false });
    expect(outcome).toEqual({ ok: true, result: { content: [block], isError: false } });
  });

  it('accepts a full result with structuredContent, resultType and _meta', () => {
    const result = {
      content: [{ type: 'text', text: '{"count":0}' }],
      structuredContent: { count: 0 },
      isError: false,
      resultType: 'complete',
      _meta: { 'example.com/trace': 'abc' },
    };
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('accepts a result without isError, which the spec allows', () => {
    expect(validateToolResult({ content: [] }).ok).toBe(true);
  });

  it('rejects a content item of type "object" and names content.0.type', () => {
    const problems = problemsOf({ content: [{ type: 'object', object: { a: 1 } }] });
    expect(problems).toEqual([expect.stringMatching(/^content\.0\.type: /)]);
  });

  it.each([
    ['a bare array', [{ id: 1 }]],
    ['a string', 'ok'],
    ['a number', 42],
    ['null', null],
  ])('rejects %s in structuredContent and names the field', (_label, structuredContent) => {
    const problems = problemsOf({ content: [], structuredContent });
    expect(problems).toEqual([expect.stringMatching(/^structuredContent: .*JSON object/)]);
  });

  it('rejects an unknown top-level field such as requestId and names it', () => {
    const problems = problemsOf({ content: [], requestId: 'abc' });
    expect(problems).toEqual([expect.stringMatching(/^\(root\): .*requestId/)]);
  });

  it('rejects an unknown field inside a content item and names the item and the field', () => {
    const problems = problemsOf({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'text', text: 'x', extra: 1 },
      ],
    });
    expect(problems).toEqual([expect.stringMatching(/^content\.1: .*extra/)]);
  });

  it('rejects a result without content', () => {
    expect(problemsOf({ structuredContent: { a: 1 }, isError: false })).toEqual([
      expect.stringMatching(/^content: /),
    ]);
  });

  it('rejects image data that is not base64 and names content.0.data', () => {
    const problems = problemsOf({ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] });
    expect(problems).toEqual([expect.stringMatching(/^content\.0\.data: .*base64/)]);
  });

  it('rejects an embedded resource with neither text nor blob and names content.0.resource', () => {
    const problems = problemsOf({ content: [{ type: 'resource', resource: { uri: 'file:///a' } }] });
    expect(problems).toEqual([expect.stringMatching(/^content\.0\.resource: /)]);
  });

  it('rejects an isError that is not a boolean', () => {
    expect(problemsOf({ content: [], isError: 'true' })).toEqual([expect.stringMatching(/^isError: /)]);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'result'],
    ['an array', []],
  ])('rejects %s as a whole result at the root', (_label, value) => {
    expect(problemsOf(value)).toEqual([expect.stringMatching(/^\(root\): /)]);
  });

  it('lists every problem, not only the first', () => {
    const problems = problemsOf({ content: [{ type: 'object' }], structuredContent: [], requestId: 1 });
    expect(problems).toHaveLength(3);
  });
});

describe('assertToolResult', () => {
  it('returns the parsed result when it is valid', () => {
    const result = { content: [{ type: 'text', text: 'hi' }], isError: true };
    expect(assertToolResult(result)).toEqual(result);
  });

  it('throws a TypeError listing every problem with its path when it is invalid', () => {
    expect(() => assertToolResult({ content: [{ type: 'object' }], requestId: 1 })).toThrow(
      /Not a valid CallToolResult:\n- .*\n- /,
    );
    expect(() => assertToolResult({ structuredContent: [] })).toThrow(TypeError);
  });
});
