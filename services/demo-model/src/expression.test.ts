/**
 * Tests for `expression.ts` and `expression-coverage.ts`: each phrasing is either translated
 * into an expression that means the same, or its untranslated parts are named so the demo model
 * can refuse it. Never a shorter expression that silently drops part of the question.
 */
import { describe, expect, it } from 'vitest';
import { findExpression, functionsIn } from './expression.js';

describe('findExpression', () => {
  it.each([
    // The case that started it: this was once "sqrt(2) + 10", i.e. 11.41 instead of 6.414.
    ['What is sqrt(2) + 10% of 50?', 'sqrt(2) + (10 / 100 * 50)'],
    ['What is 15% of 80?', '15 / 100 * 80'],
    ['what is 20 percent of 150', '20 / 100 * 150'],
    ['12.5 per cent of 80', '12.5 / 100 * 80'],
    ['10% of (50 + 30)', '10 / 100 * (50 + 30)'],
    ['what is 3 squared plus 4 squared', '3 ^ 2 + 4 ^ 2'],
    ['2 cubed', '2 ^ 3'],
    ['2 to the power of 10', '2 ^ 10'],
    ['2 raised to the power 8 minus 1', '2 ^ 8 - 1'],
    ['the square root of 16 plus 2', 'sqrt(16) + 2'],
    ['2 + the square root of 16', '2 + sqrt(16)'],
    ['half of 50 + 2', '(50 / 2) + 2'],
    ['double 21', '2 * 21'],
    ['What is (2 + 3) * 4?', '(2 + 3) * 4'],
    ['Calculate (2 + 3) * 4 ^ 2', '(2 + 3) * 4 ^ 2'],
    ['compute 2^10 % 7 for me', '2 ^ 10 % 7'],
    ['10 % 3', '10 % 3'],
    ['12 divided by 4 minus 1', '12 / 4 - 1'],
    ['what is 6 × 7', '6 * 7'],
    ['What is 6 * 7?', '6 * 7'],
    ['sqrt(2) / 2', 'sqrt(2) / 2'],
    ['2 * pi', '2 * pi'],
    ['round(10 / 3, 2) please', 'round(10 / 3, 2)'],
  ])('translates %j whole', (text, expression) => {
    expect(findExpression(text)).toMatchObject({ expression, untranslated: [] });
  });

  it.each([
    // 5% of what? A calculator reads "5%" as 0.05 or as modulo; either may be wrong.
    ['10 + 5%', '5%'],
    ['what is 50% + 2', '50%'],
    ['10% * 50', '10%'],
    ['7 divided by 2 percent', 'percent'],
    ['5 + 3 km', 'km'],
    ['what is 3 + 4 apples', 'apples'],
    ['what is 3 + 4 in binary', 'in'],
    ['1,000 + 2', '1'],
    ['hypot(3, 4) + 1', 'hypot'],
    ['3 + 4 +', '+'],
    ['what is 2 + 2 and 7', '7'],
    ['the sum of 3 and 4 times 2', 'sum'],
    ['sqrt(2) + 10% of', 'sqrt(2) + 10% of'],
    ['what is 4 factorial plus 1 + 2', 'factorial'],
    ['what is 2 + 2 of 5', 'of'],
    ['3 * (4 + 5', 'a bracket'],
  ])('names what it cannot translate in %j', (text, part) => {
    const found = findExpression(text);
    expect(found?.untranslated).toContain(part);
  });

  it.each(['task 3', 'COVID-19 rules', 'call me at -5', 'no numbers here', 'half of', 'increase 100 by 10%'])(
    'finds nothing in %j',
    (text) => {
      expect(findExpression(text)).toBeUndefined();
    },
  );

  it("learns function names from a tool's description", () => {
    expect(functionsIn('Supports hypot(x, y) and round(x, digits).')).toEqual(['hypot', 'round']);
    expect(findExpression('hypot(3, 4)', ['hypot'])).toMatchObject({
      expression: 'hypot(3, 4)',
      untranslated: [],
    });
  });

  it('stays bounded on a long hostile message', () => {
    // Nested phrases by the hundred: a parse that backtracked on them would not end within the test's timeout.
    const text = `${'10% of '.repeat(300)}50 ${'square root of '.repeat(300)}`;
    const found = findExpression(text);
    expect(found?.untranslated.length).toBeGreaterThan(0);
  });
});
