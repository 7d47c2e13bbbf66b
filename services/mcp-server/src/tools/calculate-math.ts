/**
 * @module tools/calculate-math
 * The arithmetic behind `calculate.ts`: mathjs parses an expression, a whitelist walk rejects
 * everything but numbers, `+ - * / % ^`, parentheses and a few functions and constants, and a
 * small evaluator computes the checked tree with mathjs's functions. Model text never reaches
 * `eval`, `Function` or mathjs's own evaluator. `calculate.ts` imports this module on the first
 * call: mathjs is large, and start-up does not need it.
 */
import { ToolError } from '@mcp-workshop/shared';
// The number-only build: we never need matrices, units or complex numbers. Only the functions
// used below are created, which makes the first call quicker than `create(all)` would.
import {
  absDependencies,
  addDependencies,
  ceilDependencies,
  cosDependencies,
  create,
  divideDependencies,
  expDependencies,
  type FactoryFunctionMap,
  floorDependencies,
  formatDependencies,
  log10Dependencies,
  logDependencies,
  type MathNode,
  maxDependencies,
  minDependencies,
  modDependencies,
  multiplyDependencies,
  parseDependencies,
  powDependencies,
  roundDependencies,
  sinDependencies,
  sqrtDependencies,
  subtractDependencies,
  tanDependencies,
} from 'mathjs/number';

/** Quotes of the offending part of an expression stay short, so error texts stay readable. */
const MAX_QUOTE_LENGTH = 60;

const math = create(
  checked({
    parseDependencies,
    formatDependencies,
    sqrtDependencies,
    absDependencies,
    roundDependencies,
    floorDependencies,
    ceilDependencies,
    minDependencies,
    maxDependencies,
    sinDependencies,
    cosDependencies,
    tanDependencies,
    logDependencies,
    log10Dependencies,
    expDependencies,
    addDependencies,
    subtractDependencies,
    multiplyDependencies,
    divideDependencies,
    modDependencies,
    powDependencies,
  }),
);
/** mathjs types its dependency maps as a Record, so `noUncheckedIndexedAccess` adds `undefined`. */
function checked(maps: Record<string, FactoryFunctionMap | undefined>): FactoryFunctionMap {
  const present: FactoryFunctionMap = {};
  for (const [name, map] of Object.entries(maps)) {
    if (!map) throw new Error(`mathjs did not export ${name}`);
    present[name] = map;
  }
  return present;
}
// Capture the parser first, then follow mathjs's security guidance: functions that parse,
// compile, define units or change the instance throw, in case any code path ever reaches them.
const parse = math.parse;
const DISABLED = [
  ...['import', 'createUnit', 'evaluate', 'parse', 'compile', 'parser', 'simplify', 'derivative', 'resolve'],
  ...['reviver', 'rationalize', 'simplifyConstant', 'simplifyCore'],
];
const disabled = (name: string) => () => {
  throw new Error(`mathjs function ${name} is disabled`);
};
math.import(Object.fromEntries(DISABLED.map((name) => [name, disabled(name)])), { override: true });

interface FunctionSpec {
  minArgs: number;
  maxArgs: number;
  apply(...args: number[]): unknown;
}
const unary = (apply: (x: number) => unknown): FunctionSpec => ({ minArgs: 1, maxArgs: 1, apply });
// A Map, not an object literal: `constructor` or `__proto__` must not be found on a prototype.
const FUNCTIONS = new Map<string, FunctionSpec>([
  ['sqrt', unary((x) => math.sqrt(x))],
  ['abs', unary((x) => math.abs(x))],
  ['round', { minArgs: 1, maxArgs: 2, apply: (x = 0, digits = 0) => math.round(x, digits) }],
  ['floor', unary((x) => math.floor(x))],
  ['ceil', unary((x) => math.ceil(x))],
  ['min', { minArgs: 1, maxArgs: Number.POSITIVE_INFINITY, apply: (...xs) => math.min(...xs) }],
  ['max', { minArgs: 1, maxArgs: Number.POSITIVE_INFINITY, apply: (...xs) => math.max(...xs) }],
  ['sin', unary((x) => math.sin(x))],
  ['cos', unary((x) => math.cos(x))],
  ['tan', unary((x) => math.tan(x))],
  [
    'log',
    {
      minArgs: 1,
      maxArgs: 2,
      apply: (x = 0, base) => (base === undefined ? math.log(x) : math.log(x, base)),
    },
  ],
  ['log10', unary((x) => math.log10(x))],
  ['exp', unary((x) => math.exp(x))],
]);
const CONSTANTS = new Map<string, number>([
  ['pi', Math.PI],
  ['e', Math.E],
]);
/** The binary operators we accept. mathjs also parses a trailing `%` as percent: `50%` becomes `50 / 100`. */
const BINARY_OPS = new Map<string, (a: number, b: number) => unknown>([
  ['+', (a, b) => math.add(a, b)],
  ['-', (a, b) => math.subtract(a, b)],
  ['*', (a, b) => math.multiply(a, b)],
  ['/', (a, b) => math.divide(a, b)],
  ['%', (a, b) => math.mod(a, b)],
  ['^', (a, b) => math.pow(a, b)],
]);

/** Why common non-arithmetic node types are refused, worded for the model. */
const UNSUPPORTED = new Map<string, string>([
  ['AssignmentNode', 'assignments and variables are not supported'],
  ['FunctionAssignmentNode', 'defining functions is not supported'],
  ['BlockNode', 'only one expression per call is supported'],
  ['AccessorNode', 'property access and indexing are not supported'],
  ['ConditionalNode', 'conditions are not supported'],
  ['RelationalNode', 'comparisons are not supported'],
]);

const ALLOWED = `Allowed: numbers, + - * / % ^, parentheses, the functions ${[...FUNCTIONS.keys()].join(', ')} and the constants ${[...CONSTANTS.keys()].join(', ')}.`;

/** What `calculate` returns for an expression that passed the whitelist and has a finite result. */
export interface Calculation {
  /** The expression as mathjs understood it, with normalized spacing. */
  expression: string;
  result: number;
  /** `result` rounded to `precision` significant digits. */
  formatted: string;
}

/**
 * Parses, checks and evaluates one trimmed, non-empty expression whose bracket nesting the caller
 * has already bounded. Anything the model can fix throws a {@link ToolError}.
 */
export function calculateExpression(text: string, precision: number): Calculation {
  const tree = parseExpression(text);
  const problemText = findProblem(tree);
  if (problemText) throw new ToolError(problemText);
  // `+ 0` turns -0 into 0, which is what JSON carries anyway.
  const result = evaluateNode(tree) + 0;
  return { expression: tree.toString(), result, formatted: math.format(result, { precision }) };
}

function parseExpression(text: string): MathNode {
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // mathjs adds the 1-based position as a `char` property and as "(char N)" in the message.
    const where = 'char' in error && typeof error.char === 'number' ? ` at character ${error.char}` : '';
    const detail = error.message.replace(/\s*\(char \d+\)\s*$/, '');
    throw new ToolError(`Syntax error${where} of "${quote(text)}": ${detail}. ${ALLOWED}`);
  }
}

/** The whitelist: a reason for the first part that is not plain arithmetic, or undefined. */
function findProblem(node: MathNode): string | undefined {
  if (math.isConstantNode(node)) {
    return typeof node.value === 'number' ? undefined : problem(node, 'only numbers are allowed as values');
  }
  if (math.isParenthesisNode(node)) return findProblem(node.content);
  if (math.isSymbolNode(node)) {
    if (CONSTANTS.has(node.name)) return undefined;
    const hint = FUNCTIONS.has(node.name) ? `call it like ${node.name}(2)` : 'there are no variables';
    return problem(node, `unknown name "${node.name}" (${hint})`);
  }
  if (math.isOperatorNode(node)) {
    if (node.implicit) return problem(node, 'write multiplication with an explicit *, e.g. "2 * pi"');
    // mathjs's `op` type omits "%", so compare it as a plain string.
    const op: string = node.op;
    const unaryOk = node.args.length === 1 && (op === '-' || op === '+');
    const binaryOk = node.args.length === 2 && BINARY_OPS.has(op);
    if (!unaryOk && !binaryOk) return problem(node, `the operator "${op}" is not supported`);
    // mathjs reads "50% + 2" as 50 % (+2), i.e. 0, not 50% plus 2: refuse that silent trap.
    const divisor = node.args[1];
    if (op === '%' && divisor && math.isOperatorNode(divisor) && divisor.args.length === 1) {
      return problem(
        node,
        'a % followed by + or - is read as modulo of a signed number. For a percentage write / 100 ' +
          '(e.g. 50 / 100 + 2); for modulo of a negative number use parentheses (e.g. 50 % (-2))',
      );
    }
    return firstProblem(node.args);
  }
  if (math.isFunctionNode(node)) {
    const name = math.isSymbolNode(node.fn) ? node.fn.name : '';
    const spec = FUNCTIONS.get(name);
    if (!spec) return problem(node, `unknown function "${name || node.fn.toString()}"`);
    const count = node.args.length;
    if (count < spec.minArgs || count > spec.maxArgs) {
      return problem(node, `${name} takes ${describeArity(spec)} argument(s), not ${count}`);
    }
    return firstProblem(node.args);
  }
  return problem(node, UNSUPPORTED.get(node.type) ?? 'matrices, ranges, objects and units are not supported');
}

function firstProblem(nodes: readonly MathNode[]): string | undefined {
  for (const node of nodes) {
    const found = findProblem(node);
    if (found) return found;
  }
  return undefined;
}

function problem(node: MathNode, why: string): string {
  return `Cannot calculate "${quote(node.toString())}": ${why}. ${ALLOWED}`;
}

function describeArity({ minArgs, maxArgs }: FunctionSpec): string {
  if (minArgs === maxArgs) return String(minArgs);
  return maxArgs === Number.POSITIVE_INFINITY ? `at least ${minArgs}` : `${minArgs} or ${maxArgs}`;
}

/** Computes a tree that {@link findProblem} accepted; every step must stay a finite real number. */
function evaluateNode(node: MathNode): number {
  if (math.isConstantNode(node) && typeof node.value === 'number') return finite(node, node.value);
  if (math.isParenthesisNode(node)) return evaluateNode(node.content);
  if (math.isSymbolNode(node)) return finite(node, CONSTANTS.get(node.name));
  if (math.isOperatorNode(node)) {
    const values = node.args.map(evaluateNode);
    const [a = 0, b = 0] = values;
    if (values.length === 1) return finite(node, node.op === '-' ? -a : a);
    const op: string = node.op;
    if ((op === '/' || op === '%') && b === 0) {
      throw new ToolError(`Division by zero in "${quote(node.toString())}". Check the divisor.`);
    }
    return finite(node, BINARY_OPS.get(op)?.(a, b));
  }
  if (math.isFunctionNode(node) && math.isSymbolNode(node.fn)) {
    const spec = FUNCTIONS.get(node.fn.name);
    const args = node.args.map(evaluateNode);
    try {
      if (spec) return finite(node, spec.apply(...args));
    } catch (error) {
      if (error instanceof ToolError) throw error;
      // mathjs explains bad arguments itself, e.g. "Number of decimals in function round must be an integer".
      const detail = error instanceof Error ? error.message : String(error);
      throw new ToolError(`Cannot calculate "${quote(node.toString())}": ${detail}.`);
    }
  }
  // findProblem let through a node this evaluator does not know: a bug, not the model's fault.
  throw new Error(`calculate: unchecked node type ${node.type}`);
}

/** Narrows a step's value to a finite real number, or explains why it is not one. */
function finite(node: MathNode, value: unknown): number {
  // The number-only build of mathjs answers NaN where the full build would answer a complex number.
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new ToolError(
      `"${quote(node.toString())}" has no real-number result (for example sqrt or log of a negative number). ` +
        'Only real numbers are supported.',
    );
  }
  if (!Number.isFinite(value)) {
    throw new ToolError(
      `"${quote(node.toString())}" is not a finite number (it overflows, e.g. 10^400, or is infinite, e.g. log(0)).`,
    );
  }
  return value;
}

function quote(text: string): string {
  return text.length <= MAX_QUOTE_LENGTH ? text : `${text.slice(0, MAX_QUOTE_LENGTH - 1)}…`;
}
