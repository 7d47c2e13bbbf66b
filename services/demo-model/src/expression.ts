/**
 * @module expression
 * Finds the arithmetic in a message ("what is (2 + 3) * 4?", "sqrt(16) plus 2") for the demo
 * model's argument extraction. It only cuts text out; it never evaluates anything.
 */

/** Common math function names; a tool's own description can add more (see `findExpression`). */
const BASE_FUNCTIONS = [
  'sqrt',
  'cbrt',
  'abs',
  'round',
  'floor',
  'ceil',
  'min',
  'max',
  'sin',
  'cos',
  'tan',
  'log',
  'log10',
  'log2',
  'ln',
  'exp',
  'pow',
];
const CONSTANTS = new Set(['pi', 'e']);
/** Spelled-out operators, accepted only between operands ("3 plus 4"). */
const WORD_OPERATORS = new Map([
  ['plus', '+'],
  ['minus', '-'],
  ['times', '*'],
  ['x', '*'],
  ['mod', '%'],
  ['modulo', '%'],
]);
/** "multiplied by", "divided by": the operator word, then "by". */
const BY_OPERATORS = new Map([
  ['multiplied', '*'],
  ['divided', '/'],
]);

const TOKEN = /(\d+(?:\.\d+)?|\.\d+)|([-+*/%^×÷])|([()])|(,)|([A-Za-z][A-Za-z0-9]*)|(\s+)|([\s\S])/g;

interface Run {
  tokens: string[];
  start: number;
  end: number;
  depth: number;
}

/** A span of the message that looks like arithmetic, with its place in the text. */
export interface FoundExpression {
  expression: string;
  start: number;
  end: number;
}

/** Function names written like `name(` in a tool's description, e.g. "round(x, digits)". */
export function functionsIn(description: string): string[] {
  return [...description.matchAll(/\b([a-z][a-z0-9]{1,11})\(/g)].map((m) => m[1] ?? '');
}

function newRun(start: number): Run {
  return { tokens: [], start, end: start, depth: 0 };
}

/** The longest arithmetic-looking span: numbers and at least one operator or function. */
export function findExpression(
  text: string,
  extraFunctions: readonly string[] = [],
): FoundExpression | undefined {
  const functions = new Set([...BASE_FUNCTIONS, ...extraFunctions]);
  const runs: Run[] = [];
  let run = newRun(0);
  const close = () => {
    if (run.tokens.length > 0) runs.push(run);
  };
  const last = () => run.tokens.at(-1) ?? '';
  const afterOperand = () => /^[\d.)]|^(?:pi|e)$/.test(last());
  const matches = [...text.matchAll(TOKEN)];
  // Index of the next token that is not whitespace, for "name(" and "divided by" lookahead.
  const nextSolid: number[] = [];
  for (let i = matches.length - 1, next = -1; i >= 0; i -= 1) {
    nextSolid[i] = next;
    if (!matches[i]?.[6]) next = i;
  }
  for (let i = 0; i < matches.length; i += 1) {
    const m = matches[i];
    if (!m) continue;
    const index = m.index ?? 0;
    const [whole, number, operator, paren, comma, word, space] = m;
    const push = (token: string) => {
      if (run.tokens.length === 0) run.start = index;
      run.tokens.push(token);
      run.end = index + whole.length;
    };
    const nextIndex = nextSolid[i] ?? -1;
    const nextWord = matches[nextIndex]?.[0].toLowerCase();
    if (number) push(number);
    else if (operator) push(operator === '×' ? '*' : operator === '÷' ? '/' : operator);
    else if (paren) {
      run.depth += paren === '(' ? 1 : -1;
      push(paren);
    } else if (comma && run.depth > 0) push(',');
    else if (word && functions.has(word.toLowerCase()) && nextWord === '(') push(word.toLowerCase());
    else if (word && CONSTANTS.has(word.toLowerCase()) && run.tokens.length > 0 && !afterOperand()) {
      push(word.toLowerCase());
    } else if (word && WORD_OPERATORS.has(word.toLowerCase()) && afterOperand()) {
      push(WORD_OPERATORS.get(word.toLowerCase()) ?? '');
    } else if (word && BY_OPERATORS.has(word.toLowerCase()) && afterOperand() && nextWord === 'by') {
      push(BY_OPERATORS.get(word.toLowerCase()) ?? '');
      i = nextIndex; // skip "by"
    } else if (space) continue;
    else {
      close();
      run = newRun(index + whole.length);
    }
  }
  close();
  const candidates = runs.map(tidy).filter((c): c is FoundExpression => c !== undefined);
  return candidates.sort((a, b) => b.expression.length - a.expression.length)[0];
}

/** Trims dangling operators, then keeps the run only if it has a number and something to do with it. */
function tidy(run: Run): FoundExpression | undefined {
  const tokens = [...run.tokens];
  while (tokens.length > 0 && /^[-+*/%^,(]$/.test(tokens.at(-1) ?? '')) tokens.pop();
  while (tokens.length > 0 && /^[*/%^,)]$/.test(tokens[0] ?? '')) tokens.shift();
  const numbers = tokens.filter((t) => /^[\d.]|^(?:pi|e)$/.test(t)).length;
  const operators = tokens.filter((t) => /^[-+*/%^]$/.test(t)).length;
  const functions = tokens.filter((t) => /^[a-z]/.test(t) && !/^(?:pi|e)$/.test(t)).length;
  // "-3" or "COVID-19" is not arithmetic: ask for two operands and an operator, or a function call.
  if (functions === 0 && (numbers < 2 || operators === 0)) return undefined;
  const expression = tokens
    .join(' ')
    .replace(/\b([a-z][a-z0-9]*) \(/g, '$1(')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .replace(/ ,/g, ',');
  return { expression, start: run.start, end: run.end };
}
