/**
 * @module expression
 * Turns the arithmetic in a message ("what is (2 + 3) * 4?", "sqrt(2) + 10% of 50") into one
 * expression for a calculator tool, and says what it could not turn: it never evaluates anything.
 * The words outside the expression are checked by `expression-coverage.ts`. Test: `expression.test.ts`.
 */
import { untranslatedAround } from './expression-coverage.js';

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
/** "3 squared": a power written after its operand. */
const POWER_WORDS = new Map([
  ['squared', '2'],
  ['cubed', '3'],
]);
/**
 * Words that take the one operand after them, written as the tokens to put before and after it:
 * "square root of 16" is sqrt(16), "half of 50" is (50 / 2). `words` is the whole phrase.
 */
const PREFIXES: ReadonlyArray<{ words: string[]; open: string[]; close: string[] }> = [
  { words: ['square', 'root', 'of'], open: ['sqrt', '('], close: [')'] },
  { words: ['square', 'root'], open: ['sqrt', '('], close: [')'] },
  { words: ['half', 'of'], open: ['('], close: ['/', '2', ')'] },
  { words: ['double'], open: ['(', '2', '*'], close: [')'] },
  { words: ['twice'], open: ['(', '2', '*'], close: [')'] },
];
/** "2 to the power of 10", "2 raised to the power 10". */
const POWER_PHRASES = [
  ['to', 'the', 'power', 'of'],
  ['to', 'the', 'power'],
  ['raised', 'to', 'the', 'power', 'of'],
  ['raised', 'to', 'the', 'power'],
];

const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const TOKEN = /(\d+(?:\.\d+)?|\.\d+)|([-+*/%^×÷])|([()])|(,)|([A-Za-z][A-Za-z0-9]*)|(\s+)|([\s\S])/g;

/** A prefix word waiting for its operand; `depth` is the bracket depth at which the operand ends. */
interface Pending {
  depth: number;
  close: string[];
}

interface Run {
  tokens: string[];
  start: number;
  end: number;
  depth: number;
  pending: Pending[];
  /** Parts of this run that look like arithmetic but have no faithful translation. */
  problems: string[];
}

/** A span of the message that looks like arithmetic, with its place in the text. */
export interface FoundExpression {
  expression: string;
  start: number;
  end: number;
  /**
   * Parts of the message that look like arithmetic but are not in `expression` ("%" with no
   * "of", a unit, a number left outside): when there are any, the expression is a guess.
   */
  untranslated: string[];
}

/** Function names written like `name(` in a tool's description, e.g. "round(x, digits)". */
export function functionsIn(description: string): string[] {
  return [...description.matchAll(/\b([a-z][a-z0-9]{1,11})\(/g)].map((m) => m[1] ?? '');
}

function newRun(start: number): Run {
  return { tokens: [], start, end: start, depth: 0, pending: [], problems: [] };
}

const isOperand = (token: string) => /^[\d.)]|^(?:pi|e)$/.test(token);

/**
 * The longest arithmetic-looking span, translated into an expression: numbers and at least one
 * operator or function. Words it knows ("plus", "squared", "10% of 50") become operators; what
 * it cannot translate is listed in `untranslated`, never silently dropped.
 */
export function findExpression(
  text: string,
  extraFunctions: readonly string[] = [],
): FoundExpression | undefined {
  const functions = new Set([...BASE_FUNCTIONS, ...extraFunctions]);
  const runs: Run[] = [];
  let run = newRun(0);
  // A date is no subtraction: "2026-12-03" is masked, keeping every other index in place.
  const matches = [...text.replace(ISO_DATE, (date) => '_'.repeat(date.length)).matchAll(TOKEN)];
  // Index of the next token that is not whitespace, for "name(" and multi-word lookahead.
  const nextSolid: number[] = [];
  for (let i = matches.length - 1, next = -1; i >= 0; i -= 1) {
    nextSolid[i] = next;
    if (!matches[i]?.[6]) next = i;
  }
  const lowerAt = (i: number) => (i >= 0 ? (matches[i]?.[0].toLowerCase() ?? '') : '');
  /** The index of the phrase's last token when the solid tokens from `i` spell `phrase`, else -1. */
  const phraseAt = (i: number, phrase: readonly string[]) => {
    let at = i;
    for (const [n, word] of phrase.entries()) {
      if (n > 0) at = nextSolid[at] ?? -1;
      if (lowerAt(at) !== word) return -1;
    }
    return at;
  };
  const endOf = (i: number) => (matches[i]?.index ?? 0) + (matches[i]?.[0].length ?? 0);
  const last = () => run.tokens.at(-1) ?? '';
  const push = (tokens: readonly string[], from: number, to: number) => {
    if (run.tokens.length === 0) run.start = from;
    for (const token of tokens) {
      run.tokens.push(token);
      if (token === '(') run.depth += 1;
      if (token === ')') run.depth -= 1;
    }
    run.end = to;
  };
  /** After an operand: prefixes waiting at this depth get their closing tokens. */
  const operandDone = (to: number) => {
    for (let p = run.pending.at(-1); p && p.depth === run.depth; p = run.pending.at(-1)) {
      run.pending.pop();
      push(p.close, run.start, to);
    }
  };
  const isPrefixAt = (at: number) => at >= 0 && PREFIXES.some((p) => phraseAt(at, p.words) >= 0);
  const close = () => {
    if (run.pending.length > 0) run.problems.push(text.slice(run.start, run.end).trim());
    if (run.tokens.length > 0) runs.push(run);
  };
  for (let i = 0; i < matches.length; i += 1) {
    const m = matches[i];
    if (!m) continue;
    const index = m.index ?? 0;
    const [whole, number, operator, paren, comma, word, space] = m;
    if (space) continue;
    const lower = word?.toLowerCase() ?? '';
    const nextIndex = nextSolid[i] ?? -1;
    const nextWord = lowerAt(nextIndex);
    const prefix = isOperand(last()) ? undefined : PREFIXES.find((p) => phraseAt(i, p.words) >= 0);
    const power = isOperand(last())
      ? POWER_PHRASES.map((p) => phraseAt(i, p)).find((at) => at >= 0)
      : undefined;
    const percentEnd = operator === '%' || lower === 'percent' ? i : phraseAt(i, ['per', 'cent']);
    if (number) {
      push([number], index, endOf(i));
      // "10% of 50" is not over at "10": the percentage takes the operand after "of".
      if (!/^(?:%|percent|per)$/.test(lowerAt(nextIndex))) operandDone(endOf(i));
    } else if (percentEnd >= 0 && run.tokens.length > 0) {
      const afterPercent = nextSolid[percentEnd] ?? -1;
      const amount = last();
      if (/^[\d.]/.test(amount) && lowerAt(afterPercent) === 'of') {
        // "10% of 50" is 10 / 100 * 50, bracketed so that what surrounds it cannot split it.
        run.tokens.pop();
        push(['(', amount, '/', '100', '*'], run.start, endOf(afterPercent));
        run.pending.push({ depth: run.depth, close: [')'] });
        i = afterPercent;
      } else if (operator === '%' && isOperand(amount) && startsOperand(lowerAt(afterPercent), functions)) {
        push(['%'], index, endOf(i)); // "10 % 3": modulo, as the calculator reads it
      } else {
        // "10 + 5%": 5% of what? A calculator reads it as modulo or as 0.05; neither is safe to guess.
        run.problems.push(text.slice(matches[i - 1]?.index ?? index, endOf(percentEnd)).trim());
        run.end = endOf(percentEnd);
        i = percentEnd;
      }
    } else if (operator) push([operator === '×' ? '*' : operator === '÷' ? '/' : operator], index, endOf(i));
    else if (paren) {
      push([paren], index, endOf(i));
      if (paren === ')') operandDone(endOf(i));
    } else if (comma && run.depth > 0) push([','], index, endOf(i));
    else if (word && functions.has(lower) && nextWord === '(') push([lower], index, endOf(i));
    else if (word && CONSTANTS.has(lower) && run.tokens.length > 0 && !isOperand(last())) {
      push([lower], index, endOf(i));
      operandDone(endOf(i));
    } else if (prefix) {
      const at = phraseAt(i, prefix.words);
      push(prefix.open, index, endOf(at));
      run.pending.push({ depth: run.depth, close: prefix.close });
      i = at;
    } else if (power !== undefined) {
      push(['^'], index, endOf(power));
      i = power;
    } else if (POWER_WORDS.has(lower) && isOperand(last())) {
      push(['^', POWER_WORDS.get(lower) ?? ''], index, endOf(i));
    } else if (WORD_OPERATORS.has(lower) && isOperand(last())) {
      push([WORD_OPERATORS.get(lower) ?? ''], index, endOf(i));
    } else if (BY_OPERATORS.has(lower) && isOperand(last()) && nextWord === 'by') {
      push([BY_OPERATORS.get(lower) ?? ''], index, endOf(nextIndex));
      i = nextIndex; // skip "by"
    } else if (lower === 'the' && run.tokens.length > 0 && !isOperand(last()) && isPrefixAt(nextIndex)) {
      // "2 + the square root of 16": "the" is no reason to end the arithmetic.
    } else {
      close();
      run = newRun(index + whole.length);
    }
  }
  close();
  const candidates = runs.map(tidy).filter((c): c is Tidied => c !== undefined);
  const best = candidates.sort((a, b) => b.expression.length - a.expression.length)[0];
  if (!best) return undefined;
  const { problems, ...found } = best;
  return { ...found, untranslated: [...problems, ...untranslatedAround(text, found.start, found.end)] };
}

/** Whether a token can begin an operand: "10 % 3" is modulo, "10 % of" or "10 %" is not. */
function startsOperand(token: string, functions: ReadonlySet<string>): boolean {
  return /^[\d.(]/.test(token) || CONSTANTS.has(token) || functions.has(token) || token === '-';
}

interface Tidied {
  expression: string;
  start: number;
  end: number;
  problems: string[];
}

/** Trims dangling operators (noting them), then keeps the run only if it has a number and something to do with it. */
function tidy(run: Run): Tidied | undefined {
  const tokens = [...run.tokens];
  const dropped: string[] = [];
  while (tokens.length > 0 && /^[-+*/%^,(]$/.test(tokens.at(-1) ?? '')) dropped.push(tokens.pop() ?? '');
  while (tokens.length > 0 && /^[*/%^,)]$/.test(tokens[0] ?? '')) dropped.push(tokens.shift() ?? '');
  const numbers = tokens.filter((t) => /^[\d.]|^(?:pi|e)$/.test(t)).length;
  const operators = tokens.filter((t) => /^[-+*/%^]$/.test(t)).length;
  const functions = tokens.filter((t) => /^[a-z]/.test(t) && !/^(?:pi|e)$/.test(t)).length;
  // "-3" or "COVID-19" is not arithmetic: ask for two operands and an operator, or a function call.
  if (functions === 0 && (numbers < 2 || operators === 0)) return undefined;
  const expression = unwrap(tokens)
    .join(' ')
    .replace(/\b([a-z][a-z0-9]*) \(/g, '$1(')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .replace(/ ,/g, ',');
  // A dangling "3 + 4 +" or an unbalanced bracket means part of the arithmetic is missing.
  const unbalanced = tokens.filter((t) => t === '(').length !== tokens.filter((t) => t === ')').length;
  const problems = [...run.problems];
  if (dropped.length > 0 || unbalanced) problems.push(dropped.length > 0 ? dropped.join(' ') : 'a bracket');
  return { expression, start: run.start, end: run.end, problems };
}

/** "(15 / 100 * 80)" reads better as "15 / 100 * 80": drops one pair of brackets around everything. */
function unwrap(tokens: readonly string[]): readonly string[] {
  if (tokens[0] !== '(' || tokens.at(-1) !== ')') return tokens;
  let depth = 0;
  for (const [n, token] of tokens.entries()) {
    depth += token === '(' ? 1 : token === ')' ? -1 : 0;
    if (depth === 0 && n < tokens.length - 1) return tokens;
  }
  return tokens.slice(1, -1);
}
