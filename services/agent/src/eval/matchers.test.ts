import { describe, expect, it } from 'vitest';
import { checkExpectations, matchArguments } from './matchers.js';

describe('matchArguments', () => {
  it.each([
    [{ location: 'Oslo' }, { location: 'Oslo' }, []],
    [{ location: 'Oslo' }, { location: 'oslo' }, ['location: expected "Oslo", got "oslo"']],
    [{ location: { mentions: 'oslo' } }, { location: 'Oslo, Norway' }, []],
    [
      { location: { mentions: 'Oslo' } },
      { location: 'Bergen' },
      ['location: expected a mention of "Oslo", got "Bergen"'],
    ],
    [{ location: { mentions: 'Oslo' } }, {}, ['location: expected a mention of "Oslo", got nothing']],
    [{ n: { matches: '^\\d+$' } }, { n: '42' }, []],
    [{ n: { matches: '^\\d+$' } }, { n: 42 }, ['n: expected a match for /^\\d+$/i, got 42']],
    [{ s: { oneOf: ['open', null] } }, { s: null }, []],
    [{ s: { oneOf: ['open', 'done'] } }, { s: 'all' }, ['s: expected one of ["open","done"], got "all"']],
    [{ s: { absent: true } }, { s: null }, []],
    [{ s: { absent: true } }, {}, []],
    [{ s: { absent: true } }, { s: 'x' }, ['s: expected it absent, got "x"']],
    [{ s: { present: true } }, { s: 0 }, []],
    [{ s: { present: true } }, { s: null }, ['s: expected a value, got null']],
    [{ o: { equals: { mentions: 'x' } } }, { o: { mentions: 'x' } }, []],
    [{ o: { a: 1, b: 2 } }, { o: { b: 2, a: 1 } }, []],
    [{ id: 3 }, { id: '3' }, ['id: expected 3, got "3"']],
  ])('%j against %j', (expectations, actual, problems) => {
    expect(matchArguments(expectations, actual)).toEqual(problems);
  });

  it('judges only the arguments a case names, and reads non-objects as no arguments', () => {
    expect(matchArguments({}, { anything: 1 })).toEqual([]);
    expect(matchArguments({ a: { present: true } }, 'not an object')).toEqual([
      'a: expected a value, got nothing',
    ]);
  });

  it('cuts a long value short in the report', () => {
    const [problem] = matchArguments({ a: 'x' }, { a: 'y'.repeat(500) });
    expect(problem?.length).toBeLessThan(100);
  });
});

describe('checkExpectations', () => {
  it.each([
    [{ a: { mentions: '' } }, 'a: mentions takes a non-empty string'],
    [{ a: { matches: 'x'.repeat(201) } }, 'a: matches takes a regular expression of 1 to 200 characters'],
    [{ a: { matches: '[' } }, /a: matches: Invalid regular expression/],
    [{ a: { oneOf: [] } }, 'a: oneOf takes a non-empty list'],
    [{ a: { absent: false } }, 'a: absent takes true'],
  ])('refuses %j', (expectations, message) => {
    const problem = checkExpectations(expectations);
    if (typeof message === 'string') expect(problem).toBe(message);
    else expect(problem).toMatch(message);
  });

  it('accepts plain values and objects with several keys as literals', () => {
    expect(checkExpectations({ a: 1, b: { mentions: 'x', other: 1 }, c: null })).toBe(undefined);
  });
});
