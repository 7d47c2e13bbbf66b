/**
 * The coalescing window of `pg-notify-inbound.ts`, on a fake clock: exactly what one window of
 * notices becomes, whatever the machine's load. `pg-notify-relay.test.ts` checks the same over a
 * real LISTEN connection, where how notices fall into windows depends on timing, so it checks only
 * what holds for any split.
 */

import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTodoEvents, EVERY_OWNER } from './events.js';
import { createInbound, MAX_PENDING_UPDATES } from './pg-notify-inbound.js';
import { encodeStoreNotice } from './pg-notify-payload.js';
import { createSilentLogger } from './test-support/silent-logger.js';

/** Past any window: the inbound flushes 50 ms after the first notice of a window. */
const PAST_WINDOW_MS = 1_000;

const ALICE = 'sub:alice';
const BOB = 'sub:bob';
const RUN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

const updatedNotice = (owner: string, id: number, done = true) =>
  encodeStoreNotice({ kind: 'updated', owner, id, done, createdAt: 'c', completedAt: done ? 'd' : null });

/** An inbound on a fresh emitter, with every event it emits in order. */
function inbound(logger = createSilentLogger()) {
  const events = createTodoEvents();
  const seen: Array<[string, ...unknown[]]> = [];
  events.on('updated', (task, owner) => void seen.push(['updated', owner, task.id, task.done, task.title]));
  events.on('listChanged', (owner) => void seen.push(['listChanged', owner]));
  events.on('runChanged', (id, owner) => void seen.push(['runChanged', owner, id]));
  return { seen, events, relay: createInbound(events, logger) };
}

function capturingLogger() {
  const lines: string[] = [];
  return { logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }), lines };
}

describe('createInbound', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('turns 1,000 distinct tasks in one window into the capped updates and one list change for every owner', () => {
    const { seen, relay } = inbound();
    for (let id = 1; id <= 1_000; id += 1) relay.receive(updatedNotice(BOB, id));
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    const updates = seen.filter(([kind]) => kind === 'updated');
    expect(updates).toHaveLength(MAX_PENDING_UPDATES);
    // The first ones are kept, each with no title (a relayed task never carries one).
    expect(updates.map(([, , id]) => id)).toEqual(
      Array.from({ length: MAX_PENDING_UPDATES }, (_, i) => i + 1),
    );
    expect(updates.every(([, owner, , done, title]) => owner === BOB && done === true && title === '')).toBe(
      true,
    );
    expect(seen.filter(([kind]) => kind === 'listChanged')).toEqual([['listChanged', EVERY_OWNER]]);
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toHaveLength(MAX_PENDING_UPDATES + 1);
  });

  it('keeps exactly the cap of tasks without telling everybody to refetch', () => {
    const { seen, relay } = inbound();
    for (let id = 1; id <= MAX_PENDING_UPDATES; id += 1) relay.receive(updatedNotice(BOB, id));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toHaveLength(MAX_PENDING_UPDATES);
    expect(seen.some(([kind]) => kind === 'listChanged')).toBe(false);
  });

  it("turns 1,000 owners' list changes in one window into one list change for every owner", () => {
    const { seen, relay } = inbound();
    for (let i = 0; i < 1_000; i += 1)
      relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: `sub:${i}` }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toEqual([['listChanged', EVERY_OWNER]]);
  });

  it('sends one event per task and per owner in a window, the latest, and keeps two owners of one id apart', () => {
    const { seen, relay } = inbound();
    relay.receive(updatedNotice(ALICE, 1, false));
    relay.receive(updatedNotice(BOB, 1, true));
    relay.receive(updatedNotice(ALICE, 1, true));
    for (let i = 0; i < 3; i += 1) relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: ALICE }));
    for (let i = 0; i < 3; i += 1)
      relay.receive(encodeStoreNotice({ kind: 'runChanged', owner: ALICE, id: RUN_ID }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    // Updates first, then list changes, then MCP tasks: a window is emitted in one go, in that order.
    expect(seen).toEqual([
      ['updated', ALICE, 1, true, ''],
      ['updated', BOB, 1, true, ''],
      ['listChanged', ALICE],
      ['runChanged', ALICE, RUN_ID],
    ]);
  });

  it('emits a burst that spans two windows once per window', () => {
    const { seen, relay } = inbound();
    relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: ALICE }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: ALICE }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toEqual([
      ['listChanged', ALICE],
      ['listChanged', ALICE],
    ]);
  });

  it("drops MCP tasks' changes past the cap with one warn line, and tells nobody to refetch", () => {
    const { logger, lines } = capturingLogger();
    const { seen, relay } = inbound(logger);
    const runId = (i: number) => `run${String(i).padStart(19, '0')}`;
    for (let i = 0; i < MAX_PENDING_UPDATES + 10; i += 1)
      relay.receive(encodeStoreNotice({ kind: 'runChanged', owner: ALICE, id: runId(i) }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toHaveLength(MAX_PENDING_UPDATES);
    expect(seen.every(([kind]) => kind === 'runChanged')).toBe(true);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ dropped: 10 });
  });

  it('tells every owner to refetch after missed events', () => {
    const { seen, relay } = inbound();
    relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: ALICE }));
    relay.missed();
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toEqual([['listChanged', EVERY_OWNER]]);
  });

  it('warns once per interval for malformed payloads, and still relays the good ones', () => {
    const { logger, lines } = capturingLogger();
    const { seen, relay } = inbound(logger);
    for (const payload of [undefined, '', 'not json', '{"v":2,"kind":"listChanged"}'.repeat(3)])
      relay.receive(payload);
    relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: BOB }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toEqual([['listChanged', BOB]]);
    expect(lines).toHaveLength(1);
  });

  it("keeps emitting the window's other events when a listener throws, and logs it", () => {
    const { logger, lines } = capturingLogger();
    const { seen, events, relay } = inbound(logger);
    events.prependListener('updated', () => {
      throw new Error('a listener bug');
    });
    relay.receive(updatedNotice(ALICE, 1));
    relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: ALICE }));
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toEqual([['listChanged', ALICE]]);
    expect(lines.some((line) => line.includes('a task event listener threw'))).toBe(true);
  });

  it('drops what is pending on stop() and leaves no timer', () => {
    const { seen, relay } = inbound();
    relay.receive(encodeStoreNotice({ kind: 'listChanged', owner: ALICE }));
    relay.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(PAST_WINDOW_MS);
    expect(seen).toEqual([]);
  });
});
