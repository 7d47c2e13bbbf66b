import { describe, expect, it } from 'vitest';
import { resolveThere } from './there.js';

describe('resolveThere', () => {
  it('reads "there" as the place the earlier clause named', () => {
    expect(resolveThere(["What's the weather in Paris", 'what time is it there'])).toEqual([
      "What's the weather in Paris",
      'what time is it in Paris',
    ]);
  });

  it('leaves an existential "there" alone', () => {
    const clauses = ['weather in Oslo', 'is there a task for tomorrow', 'there are two tasks'];
    expect(resolveThere(clauses)).toEqual(clauses);
  });

  it('leaves "there" alone when no earlier clause names one place, or the clause names its own', () => {
    expect(resolveThere(['what time is it there'])).toEqual(['what time is it there']);
    expect(resolveThere(['weather in Oslo', 'time in Tokyo there'])).toEqual([
      'weather in Oslo',
      'time in Tokyo there',
    ]);
  });
});
