/**
 * Tests for `terminal-input.ts`: a tool's request for input answered from the chat's lines (a
 * real `LineReader` over a stream, as when stdin is piped). A yes/no is one question whose answer
 * is sent; a form of several fields shows what it will send and asks once; !decline, !cancel and
 * the end of input still work; answers that are no answer are asked again, a bounded number of times.
 * doc/agent.md ("When a tool asks for input") quotes the first test's expected output.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLineReader } from './line-reader.js';
import {
  CANCEL_WORD,
  DECLINE_WORD,
  MAX_ANSWER_ATTEMPTS,
  MAX_ANSWER_CHARS,
  terminalInput,
} from './terminal-input.js';
import type { InputRequest } from './types.js';

/** delete_task's request, as the workshop server sends it. */
const CONFIRM_DELETE: InputRequest = {
  server: 'workshop',
  message: 'Delete task 3 "buy milk"? This cannot be undone.',
  schema: {
    type: 'object',
    properties: { confirm: { type: 'boolean', title: 'Yes, delete it', description: 'Tick to delete.' } },
    required: ['confirm'],
  },
};

const BOOKING: InputRequest = {
  server: 'travel',
  message: 'Book the trip?',
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      nights: { type: 'integer', title: 'Nights', default: 2 },
      room: { type: 'string', title: 'Room', enum: ['single', 'double'] },
      extras: { type: 'array', title: 'Extras', items: { enum: ['breakfast', 'parking'] } },
    },
    required: ['name', 'room'],
  },
};

/** Answers `request` from `typed` (piped, then the input ends); returns the answer and everything shown. */
async function answer(request: InputRequest, typed: string) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
  });
  const lines = createLineReader({ input, output, terminal: false });
  input.end(typed);
  const result = await terminalInput(lines, (line) => output.write(`${line}\n`))(request);
  lines.close();
  return { result, shown };
}

describe('terminalInput', () => {
  it('sends "yes" for a yes/no on a single "y", asking one question and no "send this answer?"', async () => {
    const { result, shown } = await answer(CONFIRM_DELETE, 'y\n');
    expect(result).toEqual({ action: 'accept', content: { confirm: true } });
    expect(shown).toBe(
      '\n[workshop] asks: Delete task 3 "buy milk"? This cannot be undone.\n' +
        '  (!decline refuses, !cancel cancels)\n' +
        '  Yes, delete it (y/n): y\n',
    );
  });

  it('sends "no" for a yes/no on "n" or "No", one question', async () => {
    for (const typed of ['n\n', 'No\n']) {
      const { result, shown } = await answer(CONFIRM_DELETE, typed);
      expect(result).toEqual({ action: 'accept', content: { confirm: false } });
      expect(shown.match(/\(y\/n\)/g)).toHaveLength(1);
    }
  });

  it(`declines on ${DECLINE_WORD} and cancels on ${CANCEL_WORD} or at the end of input`, async () => {
    expect((await answer(CONFIRM_DELETE, `${DECLINE_WORD}\n`)).result).toEqual({ action: 'decline' });
    expect((await answer(CONFIRM_DELETE, `${CANCEL_WORD}\ny\n`)).result).toEqual({ action: 'cancel' });
    expect((await answer(CONFIRM_DELETE, '')).result).toEqual({ action: 'cancel' });
  });

  it('asks again after an answer that is no yes/no, and cancels after too many', async () => {
    const retried = await answer(CONFIRM_DELETE, 'maybe\n\ny\n');
    expect(retried.result).toEqual({ action: 'accept', content: { confirm: true } });
    expect(retried.shown.match(/not an answer: y or n/g)).toHaveLength(2);

    const given = await answer(CONFIRM_DELETE, 'maybe\n'.repeat(MAX_ANSWER_ATTEMPTS + 1));
    expect(given.result).toEqual({ action: 'cancel' });
    expect(given.shown).toContain(`no answer after ${MAX_ANSWER_ATTEMPTS} tries: cancelled`);
  });

  it('does not take an oversized answer', async () => {
    const { result, shown } = await answer(BOOKING, `${'x'.repeat(MAX_ANSWER_CHARS + 1)}\n${CANCEL_WORD}\n`);
    expect(result).toEqual({ action: 'cancel' });
    expect(shown).toContain(`not an answer: at most ${MAX_ANSWER_CHARS} characters`);
  });

  it('shows what a form of several fields will send and asks once to send it', async () => {
    const { result, shown } = await answer(BOOKING, 'Ada\n\ndouble\nbreakfast, parking\ny\n');
    expect(result).toEqual({
      action: 'accept',
      content: { name: 'Ada', nights: 2, room: 'double', extras: ['breakfast', 'parking'] },
    });
    expect(shown).toContain('  Nights [2]: \n');
    expect(shown).toContain('  Room (single/double): double\n');
    expect(shown).toContain('  Extras (breakfast/parking, several with commas): breakfast, parking\n');
    expect(shown).toContain(
      '  will send: {"name":"Ada","nights":2,"room":"double","extras":["breakfast","parking"]}\n' +
        '  Send this answer? (y/n): y\n',
    );
  });

  it('declines a form when its answers are not to be sent', async () => {
    expect((await answer(BOOKING, 'Ada\n3\nsingle\n\nn\n')).result).toEqual({ action: 'decline' });
  });

  it('asks again for a missing required field, a non-number, and a choice not offered', async () => {
    const { result, shown } = await answer(BOOKING, '\nAda\n2.5\nthree\n4\nsuite\nsingle\nspa\n\ny\n');
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', nights: 4, room: 'single' } });
    expect(shown).toContain('not an answer: this one is required');
    expect(shown).toContain('not an answer: a whole number, please');
    expect(shown).toContain('not an answer: a number, please');
    expect(shown).toContain('not an answer: one of single/double');
    expect(shown).toContain('not an answer: pick from breakfast/parking');
  });

  it('asks a request with no fields as one yes/no', async () => {
    const request: InputRequest = { server: 'workshop', message: 'Go on?', schema: { type: 'object' } };
    const { result, shown } = await answer(request, 'y\n');
    expect(result).toEqual({ action: 'accept', content: {} });
    expect(shown).toContain('  Accept? (y/n): y\n');
    expect((await answer(request, 'n\n')).result).toEqual({ action: 'decline' });
  });

  it('asks requests made at once one after the other, each with its own line', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
    });
    const lines = createLineReader({ input, output, terminal: false });
    const ask = terminalInput(lines, (line) => output.write(`${line}\n`));
    const second: InputRequest = { ...CONFIRM_DELETE, message: 'Delete task 4 "buy eggs"?' };
    const both = Promise.all([ask(CONFIRM_DELETE), ask(second)]);
    input.end('y\nn\n');

    expect(await both).toEqual([
      { action: 'accept', content: { confirm: true } },
      { action: 'accept', content: { confirm: false } },
    ]);
    expect(shown.indexOf('Delete task 4')).toBeGreaterThan(shown.indexOf('Yes, delete it (y/n): y'));
    lines.close();
  });
});
