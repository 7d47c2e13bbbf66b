import { describe, expect, it } from 'vitest';
import { type PollClock, percentile, pollUntilSettled, type TaskState } from './tasks.js';

/** A `tasks/get` that answers `statuses` in turn, then the last one forever. */
function scripted(...statuses: string[]) {
  let calls = 0;
  const get = async (): Promise<TaskState> => ({
    status: statuses[Math.min(calls++, statuses.length - 1)] ?? '',
  });
  return { get, calls: () => calls };
}

/** A clock whose time moves only when the polling sleeps: each sleep is recorded and passes at once. */
function fakeClock(): PollClock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('pollUntilSettled', () => {
  it('stops at the first answer that says completed', async () => {
    const task = scripted('working', 'working', 'completed', 'completed');
    const outcome = await pollUntilSettled(task.get, { intervalMs: 0, timeoutMs: 1_000, maxPolls: 100 });
    expect(outcome).toMatchObject({ settled: true, polls: 3, state: { status: 'completed' } });
    expect(task.calls()).toBe(3);
  });

  it('stops on failed and cancelled too, and leaves judging them to the caller', async () => {
    for (const status of ['failed', 'cancelled']) {
      const outcome = await pollUntilSettled(scripted('working', status).get, {
        intervalMs: 0,
        timeoutMs: 1_000,
        maxPolls: 100,
      });
      expect(outcome).toMatchObject({ settled: true, polls: 2, state: { status } });
    }
  });

  it('gives up after maxPolls when the task never settles', async () => {
    const task = scripted('working');
    const outcome = await pollUntilSettled(task.get, { intervalMs: 0, timeoutMs: 10_000, maxPolls: 50 });
    expect(outcome).toMatchObject({ settled: false, polls: 50, state: { status: 'working' } });
  });

  it('gives up after timeoutMs when the task never settles', async () => {
    const clock = fakeClock();
    const outcome = await pollUntilSettled(scripted('input_required').get, {
      intervalMs: 10,
      timeoutMs: 50,
      maxPolls: 1_000,
      clock,
    });
    // Five waits of 10 ms fill the 50 ms; the deadline, not maxPolls, ended it.
    expect(outcome).toMatchObject({ settled: false, polls: 5, at: 50 });
    expect(clock.sleeps).toEqual([10, 10, 10, 10, 10]);
  });

  it('waits intervalMs before every poll, the first included, when following a hint', async () => {
    const clock = fakeClock();
    const task = scripted('working', 'completed');
    const outcome = await pollUntilSettled(task.get, {
      intervalMs: 30,
      timeoutMs: 1_000,
      maxPolls: 100,
      clock,
    });
    expect(outcome).toMatchObject({ settled: true, polls: 2, at: 60 });
    expect(clock.sleeps).toEqual([30, 30]);
  });
});

describe('percentile', () => {
  it('takes the nearest rank, so every figure is one that was measured', () => {
    const values = Array.from({ length: 30 }, (_, i) => 30 - i); // 30 … 1, unsorted on purpose
    expect(percentile(values, 50)).toBe(15);
    expect(percentile(values, 95)).toBe(29);
    expect(percentile(values, 100)).toBe(30);
    expect(percentile([7], 95)).toBe(7);
  });

  it('is NaN for no values', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});
