import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createInputBroker,
  type InputBroker,
  type InputRequestEvent,
  NO_OWNER_NOT_ASKED,
} from './input-broker.js';
import type { InputAnswer, InputRequest } from './types.js';

const REQUEST: InputRequest = {
  server: 'workshop',
  message: 'Delete task 1?',
  schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
};

const CALLER = 'session:a';

/** A broker, and a way to ask it for input from inside a turn of CALLER with a stream open. */
function subscribed() {
  const broker = createInputBroker({ timeoutMs: 1_000 });
  const events: InputRequestEvent[] = [];
  const listener = (event: InputRequestEvent) => void events.push(event);
  const ask = () => broker.runAs({ caller: CALLER, listener }, () => broker.handler(REQUEST));
  return { broker, events, ask };
}

/** Starts a turn that asks once and holds until it gets its answer. */
function turnAsking(broker: InputBroker, caller: string, events: InputRequestEvent[]): Promise<InputAnswer> {
  return broker.runAs({ caller, listener: (event) => void events.push(event) }, () =>
    broker.handler(REQUEST),
  );
}

describe('createInputBroker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells subscribers and resolves with an accepted answer', async () => {
    const { broker, events, ask } = subscribed();
    const answer = ask();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      server: 'workshop',
      message: 'Delete task 1?',
      schema: REQUEST.schema,
    });
    expect(events[0]?.id).toMatch(/^[A-Za-z0-9-]+$/);
    expect(broker.pending()).toBe(1);
    expect(broker.answer(events[0]?.id ?? '', { action: 'accept', content: { confirm: true } }, CALLER)).toBe(
      true,
    );
    await expect(answer).resolves.toEqual({ action: 'accept', content: { confirm: true } });
    expect(broker.pending()).toBe(0);
  });

  it('resolves with a decline', async () => {
    const { broker, events, ask } = subscribed();
    const answer = ask();
    expect(broker.answer(events[0]?.id ?? '', { action: 'decline' }, CALLER)).toBe(true);
    await expect(answer).resolves.toEqual({ action: 'decline' });
  });

  it('cancels when nobody answers in time', async () => {
    vi.useFakeTimers();
    const { broker, events, ask } = subscribed();
    const answer = ask();
    vi.advanceTimersByTime(1_000);
    await expect(answer).resolves.toEqual({ action: 'cancel' });
    expect(broker.pending()).toBe(0);
    expect(broker.answer(events[0]?.id ?? '', { action: 'decline' }, CALLER)).toBe(false);
  });

  it('declines at once when the turn has no stream to ask on, and says nobody was asked', async () => {
    const { broker } = subscribed();
    const answer = broker.runAs({ caller: CALLER }, () => broker.handler(REQUEST));
    await expect(answer).resolves.toEqual({
      action: 'decline',
      notAsked: expect.stringMatching(/no chat page was open/),
    });
    expect(broker.pending()).toBe(0);
  });

  it('refuses an unknown id', () => {
    const { broker } = subscribed();
    expect(broker.answer('nope', { action: 'decline' }, CALLER)).toBe(false);
  });

  it('accepts only the first answer', async () => {
    const { broker, events, ask } = subscribed();
    const answer = ask();
    const id = events[0]?.id ?? '';
    expect(broker.answer(id, { action: 'decline' }, CALLER)).toBe(true);
    expect(broker.answer(id, { action: 'accept', content: { confirm: true } }, CALLER)).toBe(false);
    await expect(answer).resolves.toEqual({ action: 'decline' });
  });

  it('asks only the turn that raised the request, and only its caller may answer', async () => {
    const broker = createInputBroker({ timeoutMs: 1_000 });
    const seenByA: InputRequestEvent[] = [];
    const seenByB: InputRequestEvent[] = [];
    const answerA = turnAsking(broker, 'session:a', seenByA);
    // B's turn runs at the same time and asks nothing.
    const turnB = broker.runAs(
      { caller: 'session:b', listener: (event) => void seenByB.push(event) },
      async () => 'b',
    );
    expect(seenByA).toHaveLength(1);
    expect(seenByB).toEqual([]);
    const id = seenByA[0]?.id ?? '';
    expect(broker.answer(id, { action: 'accept', content: { confirm: true } }, 'session:b')).toBe(false);
    expect(broker.pending()).toBe(1);
    expect(broker.answer(id, { action: 'decline' }, 'session:a')).toBe(true);
    await expect(answerA).resolves.toEqual({ action: 'decline' });
    await expect(turnB).resolves.toBe('b');
  });

  it('gives a request from no turn to the only turn running, and to nobody when several run', async () => {
    const broker = createInputBroker({ timeoutMs: 1_000 });
    const seenByA: InputRequestEvent[] = [];
    const seenByB: InputRequestEvent[] = [];
    let releaseA = () => {};
    let releaseB = () => {};
    const turnA = broker.runAs(
      { caller: 'session:a', listener: (event) => void seenByA.push(event) },
      () => new Promise<void>((resolve) => (releaseA = resolve)),
    );
    // Outside any turn's async context, as a stdio server's request arrives.
    const lone = broker.handler(REQUEST);
    expect(seenByA).toHaveLength(1);
    expect(broker.answer(seenByA[0]?.id ?? '', { action: 'cancel' }, 'session:a')).toBe(true);
    await expect(lone).resolves.toEqual({ action: 'cancel' });

    const turnB = broker.runAs(
      { caller: 'session:b', listener: (event) => void seenByB.push(event) },
      () => new Promise<void>((resolve) => (releaseB = resolve)),
    );
    await expect(broker.handler(REQUEST)).resolves.toEqual({
      action: 'decline',
      notAsked: NO_OWNER_NOT_ASKED,
    });
    expect(seenByA).toHaveLength(1);
    expect(seenByB).toEqual([]);
    releaseA();
    releaseB();
    await Promise.all([turnA, turnB]);
  });
});
