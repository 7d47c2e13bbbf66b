/**
 * @module tools/calculate
 * `calculate`: evaluates one arithmetic expression. The parsing, the whitelist of what counts as
 * arithmetic and the evaluator live in `calculate-math.ts`, loaded on the first call so that
 * mathjs does not slow down the server's start-up. Model text never reaches `eval`, `Function`
 * or mathjs's own evaluator. Test: `calculate.test.ts`.
 */
import { ok, ToolError } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from '../deps.js';

/** Real arithmetic fits in a few lines; the cap keeps parse time and recursion depth small. */
export const MAX_EXPRESSION_LENGTH = 500;
/** mathjs's parser and our evaluator recurse once per bracket level; real formulas rarely pass 10. */
export const MAX_NESTING_DEPTH = 64;
/** A double carries about 15.9 significant digits; 14 hides binary noise such as 0.1 + 0.2. */
const DISPLAY_PRECISION = 14;

/**
 * mathjs loads on the first call, once: stdio hosts start this server on every launch, and
 * importing it up front would be the largest single part of start-up (about 0.5 s unbundled).
 */
let loadingMath: Promise<typeof import('./calculate-math.js')> | undefined;
const loadMath = () => {
  loadingMath ??= import('./calculate-math.js');
  return loadingMath;
};

const input = z.object({
  expression: z
    .string()
    .min(1, 'The expression is empty. Pass arithmetic such as "(2 + 3) * 4".')
    .max(
      MAX_EXPRESSION_LENGTH,
      `The expression is longer than ${MAX_EXPRESSION_LENGTH} characters. Split it into smaller calculations.`,
    )
    .describe(
      'One arithmetic expression, e.g. "(2 + 3) * 4", "sqrt(2) / 2", "round(10 / 3, 2)" or "2 ^ 10 % 7". ' +
        'Use explicit * (write "2 * pi", not "2pi"). Trig functions take radians; log(x) is natural, log(x, base) any base.',
    ),
});

const output = z.object({
  expression: z
    .string()
    .describe('The expression as it was understood, with normalized spacing, e.g. "2 + 3 * 4" for "2+3*4".'),
  result: z
    .number()
    .describe('The result as a full-precision number, e.g. 0.30000000000000004 for "0.1 + 0.2".'),
  formatted: z
    .string()
    .describe(
      `The result rounded to ${DISPLAY_PRECISION} significant digits for showing to people, e.g. "0.3".`,
    ),
});

export const calculate = defineTool({
  name: 'calculate',
  title: 'Calculator',
  description:
    'Evaluate an arithmetic expression; use it instead of doing arithmetic yourself. Supports + - * / ^ ' +
    '(power, right-associative: 2^3^2 = 512), % (modulo: 10 % 3 = 1; for percentages write / 100), ' +
    'parentheses, unary minus (-2^2 = -4), decimals, the functions sqrt, abs, round(x, digits), floor, ceil, ' +
    'min, max, sin, cos, tan (radians), log (natural, or log(x, base)), log10, exp and the constants pi and e. ' +
    'No variables, units, matrices or text. Returns the parsed expression, the number and a display string.',
  input,
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ expression }, { log }) {
    const text = expression.trim();
    // The length, not the text: an expression is the user's input.
    await log('debug', 'Evaluating an expression', { length: text.length });
    if (text === '') throw new ToolError('The expression is empty. Pass arithmetic such as "(2 + 3) * 4".');
    checkNesting(text);
    const { calculateExpression } = await loadMath();
    const { expression: normalized, result, formatted } = calculateExpression(text, DISPLAY_PRECISION);
    return ok({ expression: normalized, result, formatted }, { summary: `${normalized} = ${formatted}` });
  },
});

/** Rejects deep nesting before the recursive-descent parser sees it. */
function checkNesting(text: string): void {
  let depth = 0;
  for (const char of text) {
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') depth -= 1;
    if (depth > MAX_NESTING_DEPTH) {
      throw new ToolError(
        `The expression nests brackets more than ${MAX_NESTING_DEPTH} levels deep. Simplify it or split it into steps.`,
      );
    }
  }
}
