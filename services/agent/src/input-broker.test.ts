import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInputBroker, type InputRequestEvent } from './input-broker.js';
import type { InputRequest } from './types.js';

const REQUEST: InputRequest = {
  server: 'workshop',
  message: 'Delete task 1?',
  schema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
};

function subscribed() {
  const broker = createInputBroker({ timeoutMs: 1_000 });
  const events: InputRequestEvent[] = [];
  const unsubscribe = broker.subscribe((event) => events.push(event));
  return { broker, events, unsubscribe };
}

describe('createInputBroker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells subscribers and resolves with an accepted answer', async () => {
    const { broker, events } = subscribed();
    const answer = broker.handler(REQUEST);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      server: 'workshop',
      message: 'Delete task 1?',
      schema: REQUEST.schema,
    });
    expect(events[0]?.id).toMatch(/^[A-Za-z0-9-]+$/);
    expect(broker.pending()).toBe(1);
    expect(broker.answer(events[0]?.id ?? '', { action: 'accept', content: { confirm: true } })).toBe(true);
    await expect(answer).resolves.toEqual({ action: 'accept', content: { confirm: true } });
    expect(broker.pending()).toBe(0);
  });

  it('resolves with a decline', async () => {
    const { broker, events } = subscribed();
    const answer = broker.handler(REQUEST);
    expect(broker.answer(events[0]?.id ?? '', { action: 'decline' })).toBe(true);
    await expect(answer).resolves.toEqual({ action: 'decline' });
  });

  it('cancels when nobody answers in time', async () => {
    vi.useFakeTimers();
    const { broker, events } = subscribed();
    const answer = broker.handler(REQUEST);
    vi.advanceTimersByTime(1_000);
    await expect(answer).resolves.toEqual({ action: 'cancel' });
    expect(broker.pending()).toBe(0);
    expect(broker.answer(events[0]?.id ?? '', { action: 'decline' })).toBe(false);
  });

  it('declines at once when no page is listening, and says nobody was asked', async () => {
    const { broker, unsubscribe } = subscribed();
    unsubscribe();
    await expect(broker.handler(REQUEST)).resolves.toEqual({
      action: 'decline',
      notAsked: expect.stringMatching(/no chat page was open/),
    });
    expect(broker.pending()).toBe(0);
  });

  it('refuses an unknown id', () => {
    const { broker } = subscribed();
    expect(broker.answer('nope', { action: 'decline' })).toBe(false);
  });

  it('accepts only the first answer', async () => {
    const { broker, events } = subscribed();
    const answer = broker.handler(REQUEST);
    const id = events[0]?.id ?? '';
    expect(broker.answer(id, { action: 'decline' })).toBe(true);
    expect(broker.answer(id, { action: 'accept', content: { confirm: true } })).toBe(false);
    await expect(answer).resolves.toEqual({ action: 'decline' });
  });

  it('tells every open stream', () => {
    const { broker, events } = subscribed();
    const second: InputRequestEvent[] = [];
    broker.subscribe((event) => second.push(event));
    void broker.handler(REQUEST);
    expect(second).toEqual(events);
  });
});
