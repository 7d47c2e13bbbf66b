/**
 * Tests for `line-reader.ts` over real streams: lines that arrive before anyone asks are kept in
 * order, the end of input ends the questions, and a flood of lines stops the reading instead of
 * piling up in memory.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLineReader, type LineReader, MAX_QUEUED_LINES } from './line-reader.js';

function piped(): { input: PassThrough; shown: () => string; lines: LineReader } {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { input, shown: () => text, lines: createLineReader({ input, output, terminal: false }) };
}

/** Lets the streams deliver what was written. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createLineReader', () => {
  it('keeps the lines that arrive before any question, and gives them out in order after their prompts', async () => {
    const { input, shown, lines } = piped();
    input.write('first\nsecond\n');
    input.write('third\n');
    await settle();

    expect(await lines.next('a> ')).toBe('first');
    expect(await lines.next('b> ')).toBe('second');
    expect(await lines.next('c> ')).toBe('third');
    expect(shown()).toBe('a> first\nb> second\nc> third\n');
    lines.close();
  });

  it('answers an open question with the next line, echoing it after the prompt', async () => {
    const { input, shown, lines } = piped();
    const answer = lines.next('you> ');
    await settle();
    expect(shown()).toBe('you> ');

    input.write('later\n');
    expect(await answer).toBe('later');
    expect(shown()).toBe('you> later\n');
    lines.close();
  });

  it('gives out a last line without a newline, then undefined at the end of input, still showing the prompt', async () => {
    const { input, shown, lines } = piped();
    input.end('one\nlast');
    await settle();

    expect(await lines.next('1> ')).toBe('one');
    expect(await lines.next('2> ')).toBe('last');
    expect(await lines.next('3> ')).toBeUndefined();
    expect(await lines.next('4> ')).toBeUndefined();
    expect(shown()).toBe('1> one\n2> last\n3> \n4> \n');
  });

  it('ends an open question with undefined when the input ends while it waits', async () => {
    const { input, lines } = piped();
    const answer = lines.next('you> ');
    await settle();
    input.end();
    expect(await answer).toBeUndefined();
  });

  it('refuses a second question while one is open, rather than giving one line to two askers', async () => {
    const { input, lines } = piped();
    const first = lines.next('a> ');
    await expect(lines.next('b> ')).rejects.toThrow(/still open/);
    input.write('x\n');
    expect(await first).toBe('x');
    lines.close();
  });

  it('stops reading a flood of lines until they are taken, then gives out every one in order', async () => {
    const { input, lines } = piped();
    const total = MAX_QUEUED_LINES * 10;
    for (let index = 0; index < total; index++) input.write(`line ${index}\n`);
    input.end();
    await settle();

    // The reader paused its input: most of the flood is still in the stream, not in the queue.
    expect(input.isPaused()).toBe(true);
    expect(input.readableLength).toBeGreaterThan(0);

    const taken: string[] = [];
    for (let index = 0; index <= total; index++) {
      const line = await lines.next('');
      if (line === undefined) break;
      taken.push(line);
      await settle();
    }
    expect(taken).toEqual(Array.from({ length: total }, (_, index) => `line ${index}`));
  });
});
