/**
 * @module terminal-input
 * How `pnpm chat` puts a tool's request for input (MCP elicitation) to the person: one question
 * per field, read from the chat's own ordered lines (`line-reader.ts`), so a piped line answers
 * whichever question comes next. A form of one field is one question, and its answer is what is
 * sent; a form of several fields shows what will be sent and asks once whether to send it.
 * Test: `terminal-input.test.ts`; through the built CLI, `cli.test.ts`.
 */
import type { LineReader } from './line-reader.js';
import type { InputAnswer, InputHandler, InputRequest } from './types.js';

/** A typo deserves another try; a pipe that keeps sending what is no answer must not loop. Then: cancel. */
export const MAX_ANSWER_ATTEMPTS = 3;
/** The web page's bound on one text answer (`MAX_INPUT_TEXT` in `http.ts`). */
export const MAX_ANSWER_CHARS = 2_000;
/** Typed instead of an answer: refuse the whole request, or call it off. */
export const DECLINE_WORD = '!decline';
export const CANCEL_WORD = '!cancel';

type Value = string | number | boolean | string[];

interface FieldSchema {
  type?: string;
  title?: string;
  enum?: unknown[];
  items?: { enum?: unknown[] };
  default?: unknown;
}

/** What one typed answer means for one question. */
type Parsed<T> = { value: T } | { skip: true } | { invalid: string };
type Asked<T> = { value: T | undefined } | { action: 'decline' | 'cancel' };

/** The person answers at the chat prompt; requests made at once (one round's tools) are asked one after another. */
export function terminalInput(lines: LineReader, print: (line: string) => void): InputHandler {
  let previous: Promise<unknown> = Promise.resolve();
  return (request) => {
    const asked = previous.then(() => askForm(request, lines, print));
    previous = asked.catch(() => undefined);
    return asked;
  };
}

async function askForm(
  request: InputRequest,
  lines: LineReader,
  print: (line: string) => void,
): Promise<InputAnswer> {
  print(`\n[${request.server}] asks: ${request.message}`);
  print(`  (${DECLINE_WORD} refuses, ${CANCEL_WORD} cancels)`);
  const properties = (request.schema.properties ?? {}) as Record<string, FieldSchema>;
  const required = new Set(Array.isArray(request.schema.required) ? request.schema.required : []);
  const fields = Object.entries(properties);
  const content: Record<string, Value> = {};
  for (const [name, field] of fields) {
    const prompt = `  ${field.title ?? name}${hint(field)}: `;
    const answer = await askOne(prompt, (raw) => parseField(raw, field, required.has(name)), lines, print);
    if ('action' in answer) return { action: answer.action };
    if (answer.value !== undefined) content[name] = answer.value;
  }
  // One field (a yes/no, say): its answer was the question; asking again would only repeat it.
  if (fields.length === 1) return { action: 'accept', content };
  if (fields.length > 1) print(`  will send: ${JSON.stringify(content)}`);
  const prompt = fields.length === 0 ? '  Accept? (y/n): ' : '  Send this answer? (y/n): ';
  const send = await askOne(prompt, (raw) => parseYesNo(raw, undefined, true), lines, print);
  if ('action' in send) return { action: send.action };
  return send.value ? { action: 'accept', content } : { action: 'decline' };
}

/** Asks until an answer parses, at most MAX_ANSWER_ATTEMPTS times; the end of input cancels. */
async function askOne<T>(
  prompt: string,
  parse: (raw: string) => Parsed<T>,
  lines: LineReader,
  print: (line: string) => void,
): Promise<Asked<T>> {
  for (let attempt = 1; attempt <= MAX_ANSWER_ATTEMPTS; attempt++) {
    const line = await lines.next(prompt);
    if (line === undefined) return { action: 'cancel' };
    const raw = line.trim();
    if (raw === CANCEL_WORD) return { action: 'cancel' };
    if (raw === DECLINE_WORD) return { action: 'decline' };
    const parsed: Parsed<T> =
      raw.length > MAX_ANSWER_CHARS ? { invalid: `at most ${MAX_ANSWER_CHARS} characters` } : parse(raw);
    if ('value' in parsed) return { value: parsed.value };
    if ('skip' in parsed) return { value: undefined };
    print(`  not an answer: ${parsed.invalid}`);
  }
  print(`  no answer after ${MAX_ANSWER_ATTEMPTS} tries: cancelled`);
  return { action: 'cancel' };
}

function hint(field: FieldSchema): string {
  const choices = field.enum ?? field.items?.enum;
  const kind =
    field.type === 'boolean'
      ? ' (y/n)'
      : choices
        ? ` (${choices.join('/')}${field.type === 'array' ? ', several with commas' : ''})`
        : '';
  if (field.default === undefined) return kind;
  const fallback = typeof field.default === 'boolean' ? (field.default ? 'y' : 'n') : String(field.default);
  return `${kind} [${fallback}]`;
}

function parseField(raw: string, field: FieldSchema, required: boolean): Parsed<Value> {
  if (field.type === 'boolean') return parseYesNo(raw, field.default, required);
  if (raw === '') {
    if (field.default !== undefined) return { value: field.default as Value };
    return required ? { invalid: 'this one is required' } : { skip: true };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(raw);
    if (!Number.isFinite(number)) return { invalid: 'a number, please' };
    if (field.type === 'integer' && !Number.isInteger(number)) return { invalid: 'a whole number, please' };
    return { value: number };
  }
  if (field.type === 'array') {
    const picked = raw
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    const allowed = field.items?.enum?.map(String);
    const unknown = allowed ? picked.filter((item) => !allowed.includes(item)) : [];
    return unknown.length ? { invalid: `pick from ${allowed?.join('/')}` } : { value: picked };
  }
  if (field.enum && !field.enum.map(String).includes(raw)) {
    return { invalid: `one of ${field.enum.join('/')}` };
  }
  return { value: raw };
}

function parseYesNo(raw: string, fallback: unknown, required: boolean): Parsed<boolean> {
  if (/^(y|yes|true|1)$/i.test(raw)) return { value: true };
  if (/^(n|no|false|0)$/i.test(raw)) return { value: false };
  if (raw === '' && typeof fallback === 'boolean') return { value: fallback };
  if (raw === '' && !required) return { skip: true };
  return { invalid: 'y or n' };
}
