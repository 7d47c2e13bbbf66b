import { describe, expect, it } from 'vitest';
import { contentWords, MAX_COMPARED_CHARS, overlapOf } from './overlap.js';

describe('contentWords', () => {
  it('splits names in every style, drops stop words and numbers, and folds plurals', () => {
    expect([...contentWords('getWeatherForecast', 'Returns the forecasts for 3 cities.')].sort()).toEqual([
      'city',
      'forecast',
      'return',
      'weather',
    ]);
    expect(contentWords('list-tasks', '')).toEqual(contentWords('list_task', ''));
  });

  it('is empty for a tool with neither words nor name', () => {
    expect(contentWords('', '!!! 42 ...').size).toBe(0);
  });

  it('reads only the start of a huge description', () => {
    const words = contentWords('x', `${'alpha '.repeat(MAX_COMPARED_CHARS / 6)} omega`);
    expect(words.has('alpha')).toBe(true);
    expect(words.has('omega')).toBe(false);
  });
});

describe('overlapOf', () => {
  it('is the shared words over all distinct words, with the shared ones listed', () => {
    const overlap = overlapOf(new Set(['task', 'add', 'list']), new Set(['task', 'list', 'delete', 'id']));
    expect(overlap.shared).toEqual(['list', 'task']);
    expect(overlap.score).toBeCloseTo(2 / 5);
  });

  it('is 1 for the same words and 0 for none in common or nothing at all', () => {
    expect(overlapOf(new Set(['a1', 'b2']), new Set(['b2', 'a1'])).score).toBe(1);
    expect(overlapOf(new Set(['a1']), new Set(['b2'])).score).toBe(0);
    expect(overlapOf(new Set(), new Set()).score).toBe(0);
  });
});
