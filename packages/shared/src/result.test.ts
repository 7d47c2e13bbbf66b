/**
 * @module result.test
 * Unit tests for the result builders in `result.ts`: every result they build must pass the
 * contract in `validate.ts`, carry an explicit `isError`, and never leak an internal error.
 */
import { describe, expect, it } from 'vitest';
import { ToolError } from './errors.js';
import { fail, failFromError, ok, okList, okText, resultText } from './result.js';
import { validateToolResult } from './validate.js';

/** The text of the content block at `index`, or undefined when it is missing or not text. */
function textAt(result: { content: Array<{ type: string }> }, index: number): string | undefined {
  const block = result.content[index];
  return block && 'text' in block && typeof block.text === 'string' ? block.text : undefined;
}

describe('ok', () => {
  it('puts the object in structuredContent and the same JSON in one text block', () => {
    const result = ok({ city: 'Oslo', temperature: 21.5, tags: ['sunny'] });
    expect(result.structuredContent).toEqual({ city: 'Oslo', temperature: 21.5, tags: ['sunny'] });
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.type).toBe('text');
    expect(JSON.parse(textAt(result, 0) ?? '')).toEqual(result.structuredContent);
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('sets isError to false explicitly when it succeeds', () => {
    const result = ok({ value: 1 });
    expect(result).toHaveProperty('isError', false);
  });

  it('adds the summary as a second text block after the JSON when one is given', () => {
    const result = ok({ value: 14 }, { summary: '2 + 3 * 4 = 14' });
    expect(result.content).toHaveLength(2);
    expect(JSON.parse(textAt(result, 0) ?? '')).toEqual({ value: 14 });
    expect(textAt(result, 1)).toBe('2 + 3 * 4 = 14');
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('adds no summary block when the summary is empty', () => {
    expect(ok({ value: 1 }, { summary: '' }).content).toHaveLength(1);
  });

  it('round-trips through JSON so Dates become strings and undefined fields disappear', () => {
    const at = new Date('2026-07-28T12:00:00Z');
    const result = ok({ at, missing: undefined, nested: { also: undefined, kept: 1 } });
    expect(result.structuredContent).toEqual({ at: '2026-07-28T12:00:00.000Z', nested: { kept: 1 } });
    expect(Object.hasOwn(result.structuredContent, 'missing')).toBe(false);
    expect(JSON.parse(textAt(result, 0) ?? '')).toEqual(result.structuredContent);
  });

  it('does not share objects with the data it was given', () => {
    const data = { nested: { value: 1 } };
    const result = ok(data);
    data.nested.value = 2;
    expect(result.structuredContent.nested.value).toBe(1);
  });

  it('accepts an object without a prototype', () => {
    const data: Record<string, unknown> = Object.create(null);
    data.value = 1;
    expect(ok(data).structuredContent).toEqual({ value: 1 });
  });

  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }

  it.each([
    ['an array', [1, 2, 3]],
    ['a string', 'hello'],
    ['a number', 42],
    ['a boolean', true],
    ['null', null],
    ['undefined', undefined],
    ['a class instance', new Point(1, 2)],
    ['a Date', new Date(0)],
    ['a Map', new Map([['a', 1]])],
  ])('throws a TypeError when given %s', (_label, value) => {
    expect(() => ok(value as never)).toThrow(TypeError);
  });

  it('points to okList in its message when given an array', () => {
    expect(() => ok([] as never)).toThrow(/okList/);
  });

  it('throws a TypeError when a toJSON method turns the data into something other than an object', () => {
    expect(() => ok({ toJSON: () => [1, 2] })).toThrow(TypeError);
    expect(() => ok({ toJSON: () => undefined })).toThrow(TypeError);
  });
});

describe('okList', () => {
  it('wraps the items as { items, count } and never returns a bare array', () => {
    const result = okList([{ id: 1 }, { id: 2 }]);
    expect(result.structuredContent).toEqual({ items: [{ id: 1 }, { id: 2 }], count: 2 });
    expect(Array.isArray(result.structuredContent)).toBe(false);
    expect(result.isError).toBe(false);
    expect(JSON.parse(textAt(result, 0) ?? '')).toEqual(result.structuredContent);
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('returns items [] and count 0 when the list is empty', () => {
    const result = okList([]);
    expect(result.structuredContent).toEqual({ items: [], count: 0 });
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('adds extra fields such as nextCursor beside items and count', () => {
    const result = okList(['a'], { nextCursor: 'abc' });
    expect(result.structuredContent).toEqual({ items: ['a'], count: 1, nextCursor: 'abc' });
  });

  it('keeps its own items and count when extra tries to override them', () => {
    const result = okList(['a', 'b'], { items: ['x'], count: 99 });
    expect(result.structuredContent).toEqual({ items: ['a', 'b'], count: 2 });
  });

  it('passes the summary on to ok', () => {
    const result = okList([1], undefined, { summary: 'One item.' });
    expect(textAt(result, 1)).toBe('One item.');
  });

  it('copies the items so later changes to the input do not show', () => {
    const items = [1, 2];
    const result = okList(items);
    items.push(3);
    expect(result.structuredContent).toEqual({ items: [1, 2], count: 2 });
  });

  it('throws a TypeError when items is not an array', () => {
    expect(() => okList({ length: 1 } as never)).toThrow(TypeError);
  });
});

describe('okText', () => {
  it('returns one text block, isError false and no structuredContent', () => {
    const result = okText('Done.');
    expect(result).toEqual({ content: [{ type: 'text', text: 'Done.' }], isError: false });
    expect('structuredContent' in result).toBe(false);
    expect(validateToolResult(result).ok).toBe(true);
  });
});

describe('fail', () => {
  it('returns the message as text with isError true and no structuredContent', () => {
    const result = fail('Unknown city "Osloo". Did you mean "Oslo"?');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Unknown city "Osloo". Did you mean "Oslo"?' }],
      isError: true,
    });
    expect('structuredContent' in result).toBe(false);
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('trims the message', () => {
    expect(textAt(fail('  Try again.\n'), 0)).toBe('Try again.');
  });

  it.each([
    ['empty', ''],
    ['blank', '   \n'],
  ])('falls back to a generic message when the message is %s', (_label, message) => {
    const result = fail(message);
    expect(textAt(result, 0)).toBe('The tool failed without saying why.');
    expect(result.isError).toBe(true);
  });
});

describe('failFromError', () => {
  it('keeps the message of a ToolError and returns no ref', () => {
    const { result, ref } = failFromError(new ToolError('No task with id 7. List tasks to see valid ids.'));
    expect(textAt(result, 0)).toBe('No task with id 7. List tasks to see valid ids.');
    expect(result.isError).toBe(true);
    expect(ref).toBeUndefined();
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('keeps the message of a ToolError subclass', () => {
    class NotFound extends ToolError {}
    expect(textAt(failFromError(new NotFound('Not found.')).result, 0)).toBe('Not found.');
  });

  it('hides the message and stack of an unexpected Error but gives the ref', () => {
    const secret = 'password=hunter2 at postgres://admin@db.internal/prod';
    const error = new Error(secret);
    error.stack = `Error: ${secret}\n    at query (/srv/app/secret-path/db.ts:42:7)`;
    const { result, ref } = failFromError(error);
    const text = textAt(result, 0) ?? '';
    expect(ref).toMatch(/^[0-9a-f]{8}$/);
    expect(text).toContain(`ref ${ref}`);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('postgres');
    expect(text).not.toContain('secret-path');
    expect(text).not.toContain('db.ts');
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
  });

  it('gives a different ref to each unexpected error so logs can be matched', () => {
    const first = failFromError(new Error('a')).ref;
    const second = failFromError(new Error('a')).ref;
    expect(first).not.toBe(second);
  });

  it.each([
    ['a string', 'token=abc123'],
    ['a plain object', { message: 'token=abc123' }],
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a TypeError', new TypeError('token=abc123')],
  ])('returns a generic text with a ref when %s is thrown', (_label, thrown) => {
    const { result, ref } = failFromError(thrown);
    const text = textAt(result, 0) ?? '';
    expect(ref).toBeDefined();
    expect(text).toContain(`ref ${ref}`);
    expect(text).not.toContain('abc123');
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
  });
});

describe('every builder', () => {
  it('sets isError to a boolean', () => {
    const results = [
      ok({ a: 1 }),
      okList([]),
      okText('x'),
      fail('x'),
      failFromError(new ToolError('x')).result,
      failFromError(new Error('x')).result,
    ];
    for (const result of results) expect(typeof result.isError).toBe('boolean');
  });
});

describe('resultText', () => {
  it("reads a fail()'s message back", () => {
    expect(resultText(fail('No cities for country "Atlantis".'))).toBe('No cities for country "Atlantis".');
  });

  it("joins an ok()'s text blocks, the JSON first and then the summary", () => {
    expect(resultText(ok({ a: 1 }, { summary: 'One a.' }))).toBe('{"a":1}\nOne a.');
  });

  it('skips blocks that are not text, and trims', () => {
    const result = {
      content: [
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: '  first ' },
        { type: 'text', text: 7 },
        { type: 'text', text: 'second  ' },
      ],
    };
    expect(resultText(result)).toBe('first \nsecond');
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'text'],
    ['a result without content', { isError: true }],
    ['content that is not a list', { content: 'text' }],
    ['an empty content list', { content: [] }],
    ['a list of non-blocks', { content: [null, 1, 'text'] }],
  ])('gives an empty string for %s, without throwing', (_label, value) => {
    expect(resultText(value)).toBe('');
  });
});
