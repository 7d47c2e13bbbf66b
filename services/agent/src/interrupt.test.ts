/**
 * Tests for `interrupt.ts`: what one Ctrl-C does with a question running, stopping, or none.
 */
import { describe, expect, it } from 'vitest';
import { createInterrupter, InterruptedError } from './interrupt.js';

describe('createInterrupter', () => {
  it('stops the running question on the first Ctrl-C, and leaves on the second', () => {
    const left: boolean[] = [];
    const interrupter = createInterrupter((stopping) => left.push(stopping));
    const signal = interrupter.begin();

    interrupter.interrupt();
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(InterruptedError);
    expect(left).toEqual([]);

    interrupter.interrupt();
    expect(left).toEqual([true]);
  });

  it('leaves when no question runs, and gives each question a fresh signal', () => {
    const left: boolean[] = [];
    const interrupter = createInterrupter((stopping) => left.push(stopping));
    interrupter.interrupt();
    expect(left).toEqual([false]);

    const first = interrupter.begin();
    interrupter.interrupt();
    interrupter.end();
    const second = interrupter.begin();
    expect(first.aborted).toBe(true);
    expect(second.aborted).toBe(false);
  });
});
