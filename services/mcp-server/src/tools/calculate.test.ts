/**
 * @module tools/calculate.test
 * Drives `calculate` through the real MCP client: arithmetic, model-fixable errors and hostile input.
 */
import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';
import { MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH } from './calculate.js';

type TextBlocks = Array<{ text: string }>;

describe('calculate', () => {
  // One server per test, opened by the first call and shared by the test's later calls.
  let conn: Connected | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  const call = async (args: Record<string, unknown>) => {
    conn ??= await connectInMemory(testDeps());
    return conn.client.callTool({ name: 'calculate', arguments: args });
  };
  const text = (result: { content: unknown }) => (result.content as TextBlocks)[0]?.text ?? '';

  /** Calls with an expression, checks the success contract, and returns the structured result. */
  const solve = async (expression: string) => {
    const result = await call({ expression });
    expect(result.isError, text(result)).toBe(false);
    expect(validateToolResult(result).ok).toBe(true);
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    return result.structuredContent as { expression: string; result: number; formatted: string };
  };

  /** Calls with arguments, checks the failure contract, and returns the message for the model. */
  const failure = async (args: Record<string, unknown>) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(validateToolResult(result).ok).toBe(true);
    return text(result);
  };

  it('returns the normalized expression, the number and a summary for simple arithmetic', async () => {
    const result = await call({ expression: '2+3*4' });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ expression: '2 + 3 * 4', result: 14, formatted: '14' });
    expect((result.content as TextBlocks)[1]?.text).toBe('2 + 3 * 4 = 14');
  });

  it.each([
    ['(2+3)*4', 20],
    ['2^3^2', 512], // ^ is right-associative: 2^(3^2)
    ['-2^2', -4], // ^ binds tighter than unary minus, as in written maths
    ['(-2)^2', 4],
    ['10 % 3', 1],
    ['-7 % 3', 2], // mathjs's modulo takes the sign of the divisor
    ['50%', 0.5], // a trailing % is mathjs's percent: 50 / 100
    ['8 / 4 / 2', 1],
    ['--3', 3],
    ['+5', 5],
    ['1.5 * 4', 6],
    ['.5 + 1e3', 1000.5],
  ])('honours precedence and operators for %s', async (expression, expected) => {
    expect((await solve(expression)).result).toBe(expected);
  });

  it.each([
    ['sqrt(16)', 4],
    ['abs(-3)', 3],
    ['round(2.567, 2)', 2.57],
    ['round(2.5)', 3],
    ['floor(-1.5)', -2],
    ['ceil(1.2)', 2],
    ['min(4, 2, 8)', 2],
    ['max(4, 2, 8)', 8],
    ['sin(0)', 0],
    ['cos(pi)', -1],
    ['tan(0)', 0],
    ['log(e)', 1],
    ['log(8, 2)', 3],
    ['log10(1000)', 3],
    ['exp(0)', 1],
    ['2 * pi', 2 * Math.PI],
  ])('evaluates the function or constant in %s', async (expression, expected) => {
    expect((await solve(expression)).result).toBeCloseTo(expected, 12);
  });

  it('keeps full precision in result and rounds binary noise away in formatted', async () => {
    expect(await solve('0.1 + 0.2')).toEqual({
      expression: '0.1 + 0.2',
      result: 0.30000000000000004,
      formatted: '0.3',
    });
    expect((await solve('1 / 3')).formatted).toBe('0.33333333333333');
  });

  it('reports 0 rather than -0 when the result is negative zero', async () => {
    expect(await solve('-0')).toMatchObject({ result: 0, formatted: '0' });
  });

  it.each(['1 / 0', '0 / 0', '5 % 0', '1 / (2 - 2)', '3 % (1 - 1)'])(
    'reports division by zero for %s',
    async (expression) => {
      expect(await failure({ expression })).toMatch(/^Division by zero/);
    },
  );

  it.each(['sqrt(-1)', 'log(-1)', '(-8) ^ (1 / 3)'])(
    'rejects the complex result of %s',
    async (expression) => {
      expect(await failure({ expression })).toMatch(/no real-number result/);
    },
  );

  it.each(['10 ^ 400', 'exp(1000)', 'log(0)', '1e400'])(
    'rejects the non-finite result of %s',
    async (expression) => {
      expect(await failure({ expression })).toMatch(/not a finite number/);
    },
  );

  it('says where a syntax error is and what is allowed', async () => {
    const message = await failure({ expression: '2 +' });
    expect(message).toMatch(/^Syntax error at character 4 of "2 \+": Unexpected end of expression/);
    expect(message).toContain('Allowed:');
  });

  it('lists the allowed names when a symbol or function is unknown', async () => {
    const symbol = await failure({ expression: 'x + 1' });
    expect(symbol).toContain('unknown name "x"');
    expect(symbol).toContain('sqrt, abs, round');
    expect(symbol).toContain('constants pi, e');
    expect(await failure({ expression: 'fact(3)' })).toContain('unknown function "fact"');
    expect(await failure({ expression: 'sqrt + 1' })).toContain('call it like sqrt(2)');
  });

  it('rejects % followed by a sign, which mathjs would silently read as modulo', async () => {
    expect(await failure({ expression: '50% + 2' })).toContain('For a percentage write / 100');
    expect(await failure({ expression: '7 % -2' })).toContain('use parentheses');
    expect((await solve('7 % (-2)')).result).toBe(-1);
  });

  it('rejects implicit multiplication and asks for an explicit *', async () => {
    expect(await failure({ expression: '2pi' })).toContain('explicit *');
    expect(await failure({ expression: '2 (3 + 4)' })).toContain('explicit *');
  });

  it('explains a wrong number of function arguments and bad argument values', async () => {
    expect(await failure({ expression: 'sqrt(1, 2)' })).toContain('sqrt takes 1 argument(s), not 2');
    expect(await failure({ expression: 'max()' })).toContain('max takes at least 1 argument(s), not 0');
    expect(await failure({ expression: 'round(1.5, 0.5)' })).toMatch(/round\(1.5, 0.5\).*integer/);
  });

  it.each([
    ['import', 'import({}, {})'],
    ['evaluate', 'evaluate("1")'],
    ['createUnit', 'createUnit("x")'],
    ['parse', 'parse("1")'],
    ['a matrix', '[1, 2]'],
    ['a string', '"abc"'],
    ['a single-quoted string', "'abc'"],
    ['an assignment', 'a = 5'],
    ['a function definition', 'f(x) = x'],
    ['constructor', 'constructor'],
    ['__proto__', '__proto__'],
    ['a prototype function call', 'constructor("return 1")'],
    ['property access', 'x.y'],
    ['indexing', 'pi[1]'],
    ['an object', '{a: 1}'],
    ['a range', '1:3'],
    ['a unit', '5 cm'],
    ['two statements', '1; 2'],
    ['a comparison', '1 < 2'],
    ['a condition', '1 ? 2 : 3'],
    ['a boolean', 'true'],
    ['factorial', '3!'],
    ['the mod keyword', '10 mod 3'],
    ['a NUL byte', '1\u0000'],
  ])('rejects %s with isError and no crash', async (_label, expression) => {
    expect(await failure({ expression })).not.toMatch(/internal error/);
  });

  it('rejects nesting deeper than the bound before parsing, and accepts it at the bound', async () => {
    const nested = (depth: number) => `${'('.repeat(depth)}1${')'.repeat(depth)}`;
    expect((await solve(nested(MAX_NESTING_DEPTH))).result).toBe(1);
    expect(await failure({ expression: nested(MAX_NESTING_DEPTH + 1) })).toMatch(/levels deep/);
  });

  it('rejects overlong input with a clear message, and accepts it at the bound', async () => {
    const atLimit = `1 +${' '.repeat(MAX_EXPRESSION_LENGTH - 4)}1`;
    expect(atLimit.length).toBe(MAX_EXPRESSION_LENGTH);
    expect((await solve(atLimit)).result).toBe(2);
    expect(await failure({ expression: ` ${atLimit}` })).toContain(
      `longer than ${MAX_EXPRESSION_LENGTH} characters`,
    );
  });

  it.each([
    ['missing', {}],
    ['wrong type', { expression: 42 }],
    ['null', { expression: null }],
    ['an array', { expression: ['1 + 1'] }],
    ['empty', { expression: '' }],
    ['blank', { expression: '   ' }],
    ['100k characters', { expression: '1+'.repeat(50_000) }],
    ['10k nested parentheses', { expression: `${'('.repeat(10_000)}1${')'.repeat(10_000)}` }],
  ])('rejects %s input with isError and no crash', async (_label, args) => {
    const message = await failure(args);
    expect(message).not.toMatch(/internal error/);
  });

  it('tells the model an empty expression is empty', async () => {
    expect(await failure({ expression: '' })).toContain('The expression is empty');
    expect(await failure({ expression: '  ' })).toContain('The expression is empty');
  });
});
