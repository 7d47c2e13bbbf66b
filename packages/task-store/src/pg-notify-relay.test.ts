/**
 * Two relays on one real Postgres database stand for two replicas: writes cross between them with
 * their owner (two owners' tasks of one id stay apart), bad payloads (an owner missing, too long, an old version) are dropped, a restarted
 * server is survived, bursts are bounded, and stop() leaves nothing running. Skipped, with one
 * line saying why, where PostgreSQL is not installed.
 *
 * How notices fall into the receiver's 50 ms windows depends on the machine: a burst the sender
 * sends in several round trips can span several windows on a loaded one. So these tests end a burst
 * with a marker and check what holds for any split; `pg-notify-inbound.test.ts` checks exactly what
 * one window becomes, on a fake clock.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { type PostgresCluster, startPostgres, systemPrograms } from '@mcp-workshop/test-infra';
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVERY_OWNER } from './events.js';
import type { Logger } from './logger.js';
import { MAX_PENDING_UPDATES } from './pg-notify-inbound.js';
import { decodeStoreNotice, encodeStoreNotice, MAX_NOTICE_LENGTH } from './pg-notify-payload.js';
import { createPgNotifyRelay, type PgNotifyRelay } from './pg-notify-relay.js';
import type { Todo } from './store.js';
import { MAX_OWNER_LENGTH } from './store.js';
import { createSilentLogger } from './test-support/silent-logger.js';

const available = systemPrograms('the Postgres LISTEN/NOTIFY relay tests', ['postgres']);

/**
 * How long a test waits for a notice to cross replicas: a safety net, not a bar. How soon it
 * arrives depends on the machine; these tests check that it arrives, once, to the right owner.
 */
const CROSS_REPLICA_MS = 15_000;

const task = (id: number, done = false): Todo => ({
  id,
  title: 'a title that must not travel',
  done,
  createdAt: '2026-07-28T12:00:00.000Z',
  completedAt: done ? '2026-07-28T12:01:00.000Z' : null,
});

const ALICE = 'sub:alice';
const BOB = 'sub:bob';
/** Two ids of the shape `newRunId` makes (22 base64url characters). */
const RUN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const OTHER_RUN_ID = 'b-b_bbbbbbbbbbbbbbbbbb';

/**
 * The MCP task whose change ends a burst. Notices leave in write order, LISTEN delivers them in
 * commit order, and a window is emitted in one go (updates, list changes, then MCP tasks), so once a
 * replica emits the marker it has emitted everything sent before it. A burst of listed tasks never
 * fills the window's separate cap of MCP tasks, so the marker is never dropped.
 */
const MARKER_RUN_ID = 'MMMMMMMMMMMMMMMMMMMMMM';
const MARKER_OWNER = 'sub:marker';
const marker = () => encodeStoreNotice({ kind: 'runChanged', owner: MARKER_OWNER, id: MARKER_RUN_ID });

/** What one replica's local events delivered: tasks with their owners, list changes by owner. */
function record(relay: PgNotifyRelay) {
  let markerHeard = () => {};
  const seen = {
    updated: [] as Todo[],
    updatedOwners: [] as string[],
    listChangedOwners: [] as Array<string | typeof EVERY_OWNER>,
    /** MCP tasks' changes, the marker left out. */
    runs: [] as Array<[id: string, owner: string]>,
    /** Resolves once the marker arrived: everything sent before it has been emitted. */
    marker: new Promise<void>((resolve) => {
      markerHeard = resolve;
    }),
    get listChanged() {
      return this.listChangedOwners.length;
    },
  };
  relay.events.on('updated', (t, owner) => {
    seen.updated.push(t);
    seen.updatedOwners.push(owner);
  });
  relay.events.on('listChanged', (owner) => void seen.listChangedOwners.push(owner));
  relay.events.on('runChanged', (id, owner) => {
    if (id === MARKER_RUN_ID && owner === MARKER_OWNER) markerHeard();
    else seen.runs.push([id, owner]);
  });
  return seen;
}

/** Waits for the marker, bounded like every other wait here. */
async function untilMarker(seen: ReturnType<typeof record>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the end-of-burst marker never arrived')), CROSS_REPLICA_MS);
  });
  try {
    await Promise.race([seen.marker, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A logger whose warn lines a test can read. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }), lines };
}

function openSocketsAndTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap' || name === 'Timeout')
    .length;
}

describe('unit: task notice payloads', () => {
  it('round-trips a notice with its owner and never carries the title', () => {
    const notice = {
      kind: 'updated',
      owner: ALICE,
      id: 7,
      done: true,
      createdAt: 'a',
      completedAt: 'b',
    } as const;
    const wire = encodeStoreNotice(notice);
    expect(wire).not.toContain('title');
    expect(decodeStoreNotice(wire)).toEqual(notice);
    expect(decodeStoreNotice(encodeStoreNotice({ kind: 'listChanged', owner: '' }))).toEqual({
      kind: 'listChanged',
      owner: '',
    });
    expect(decodeStoreNotice(encodeStoreNotice({ kind: 'missed' }))).toEqual({ kind: 'missed' });
  });

  it("round-trips an MCP task's change: its id and owner, nothing else", () => {
    const wire = encodeStoreNotice({ kind: 'runChanged', owner: ALICE, id: RUN_ID });
    expect(decodeStoreNotice(wire)).toEqual({ kind: 'runChanged', owner: ALICE, id: RUN_ID });
  });

  it('keeps the largest notice it can send under its own bound and under Postgres 8000 bytes', () => {
    // Control characters are what JSON escapes the longest (six characters each).
    for (const owner of [
      '\u0001'.repeat(MAX_OWNER_LENGTH),
      '😀'.repeat(MAX_OWNER_LENGTH / 2),
      'é'.repeat(MAX_OWNER_LENGTH),
    ]) {
      const wire = encodeStoreNotice({
        kind: 'updated',
        owner,
        id: Number.MAX_SAFE_INTEGER,
        done: true,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: '2026-07-28T12:00:00.000Z',
      });
      expect(wire.length).toBeLessThanOrEqual(MAX_NOTICE_LENGTH);
      expect(Buffer.byteLength(wire)).toBeLessThan(8000);
      expect(decodeStoreNotice(wire)).toMatchObject({ owner });
    }
  });

  it('rejects what is not a notice, and a notice without an owner or with a bad one', () => {
    for (const payload of [
      undefined,
      '',
      'not json',
      '{}',
      '{"v":2,"kind":"listChanged"}',
      '{"v":2,"kind":"listChanged","owner":7}',
      '{"v":2,"kind":"listChanged","owner":null}',
      `{"v":2,"kind":"listChanged","owner":"${'a'.repeat(MAX_OWNER_LENGTH + 1)}"}`,
      '{"v":2,"kind":"updated","id":7,"done":true,"createdAt":"a","completedAt":null}',
      '{"v":2,"kind":"updated","id":"7"}',
      // Version 1, from before owners: whose it is cannot be known, so nobody is told.
      '{"v":1,"kind":"listChanged"}',
      '{"v":1,"kind":"updated","id":7,"done":true,"createdAt":"a","completedAt":null}',
      `{"v":2,"kind":"listChanged","owner":"","x":"${'a'.repeat(MAX_NOTICE_LENGTH)}"}`,
      // An MCP task's change names a run id as newRunId makes them, and an owner.
      `{"v":2,"kind":"runChanged","id":"${RUN_ID}"}`,
      `{"v":2,"kind":"runChanged","owner":"${ALICE}","id":"../../etc"}`,
      `{"v":2,"kind":"runChanged","owner":"${ALICE}","id":"${RUN_ID}x"}`,
      `{"v":2,"kind":"runChanged","owner":"${ALICE}","id":7}`,
    ]) {
      expect(decodeStoreNotice(payload)).toBeUndefined();
    }
  });
});

describe.skipIf(!available.ok)('createPgNotifyRelay', () => {
  let cluster: PostgresCluster;
  let url: string;
  let channelNumber = 0;
  const running: PgNotifyRelay[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase('relay');
  }, 60_000);
  afterEach(async () => {
    await Promise.all(running.splice(0).map((relay) => relay.stop()));
  });
  afterAll(() => cluster?.destroy(), 60_000);

  /** Two replicas on a channel of their own, so tests never hear each other. */
  async function replicas(logger: Logger = createSilentLogger()) {
    channelNumber += 1;
    const channel = `relay_test_${channelNumber}`;
    const a = createPgNotifyRelay({ connectionString: url, logger, channel });
    const b = createPgNotifyRelay({ connectionString: url, logger, channel });
    running.push(a, b);
    await Promise.all([a.start(), b.start()]);
    return { a, b, channel };
  }

  async function notifyRaw(channel: string, payloads: string[]) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS t(p)', [channel, payloads]);
    } finally {
      await client.end();
    }
  }

  it('delivers a write announced on A to B, and to A itself once, with its owner', async () => {
    const { a, b } = await replicas();
    const onA = record(a);
    const onB = record(b);
    a.outbox.emit('updated', task(42, true), ALICE);
    a.outbox.emit('listChanged', ALICE);
    await vi.waitFor(
      () => {
        expect(onB.updated.map((t) => t.id)).toEqual([42]);
        expect(onB.listChanged).toBe(1);
      },
      { timeout: CROSS_REPLICA_MS, interval: 5 },
    );
    expect(onB.updated[0]).toMatchObject({
      id: 42,
      done: true,
      completedAt: '2026-07-28T12:01:00.000Z',
      title: '',
    });
    expect(onB.updatedOwners).toEqual([ALICE]);
    expect(onB.listChangedOwners).toEqual([ALICE]);
    // A hears its own notices back through Postgres too, each in its own time: wait for both.
    await vi.waitFor(() => {
      expect(onA.updated.map((t) => t.id)).toEqual([42]);
      expect(onA.listChanged).toBe(1);
    });
  });

  it("delivers an MCP task's changes to every replica, with its owner, never more than were made", async () => {
    const { a, b } = await replicas();
    const onB = record(b);
    // Working, a new status message, completed: one notice for the task in a window.
    for (let i = 0; i < 3; i += 1) a.outbox.emit('runChanged', RUN_ID, ALICE);
    a.outbox.emit('runChanged', OTHER_RUN_ID, BOB);
    a.outbox.emit('runChanged', MARKER_RUN_ID, MARKER_OWNER);
    await untilMarker(onB);
    // Bob's change was made last, so it is emitted last, once; hers once per window they spanned.
    expect(onB.runs.at(-1)).toEqual([OTHER_RUN_ID, BOB]);
    const hers = onB.runs.slice(0, -1);
    expect(hers.length).toBeGreaterThanOrEqual(1);
    expect(hers.length).toBeLessThanOrEqual(3);
    expect(hers.every(([id, owner]) => id === RUN_ID && owner === ALICE)).toBe(true);
  });

  it('keeps owners apart across replicas: one list change per owner, and "every owner" as itself', async () => {
    const { a, b } = await replicas();
    const onB = record(b);
    a.outbox.emit('listChanged', ALICE);
    a.outbox.emit('listChanged', BOB);
    a.outbox.emit('listChanged', ALICE);
    a.outbox.emit('updated', task(1), BOB);
    a.outbox.emit('runChanged', MARKER_RUN_ID, MARKER_OWNER);
    await untilMarker(onB);
    // One per owner in a window (exactly so in pg-notify-inbound.test.ts), and each to its owner.
    expect(new Set(onB.listChangedOwners)).toEqual(new Set([ALICE, BOB]));
    expect(onB.listChanged).toBeLessThanOrEqual(3);
    expect(onB.updatedOwners).toEqual([BOB]);
    a.outbox.emit('listChanged', EVERY_OWNER);
    await vi.waitFor(() => expect(onB.listChangedOwners.at(-1)).toBe(EVERY_OWNER), {
      timeout: CROSS_REPLICA_MS,
    });
  });

  it("delivers two owners' changes to tasks of the same id in one window, each to its owner", async () => {
    // Ids are per owner, so her task 1 and his task 1 are two tasks: coalescing must not merge them.
    const { a, b } = await replicas();
    const onB = record(b);
    a.outbox.emit('updated', task(1), ALICE);
    a.outbox.emit('updated', task(1, true), BOB);
    a.outbox.emit('updated', task(1, true), ALICE);
    a.outbox.emit('runChanged', MARKER_RUN_ID, MARKER_OWNER);
    await untilMarker(onB);
    const seen = onB.updated.map((t, i) => ({ owner: onB.updatedOwners[i], id: t.id, done: t.done }));
    // His once; hers once per window the three writes spanned (one on an idle machine), and what
    // each owner saw last is the latest: hers was completed after his.
    expect(seen.filter((s) => s.owner === BOB)).toEqual([{ owner: BOB, id: 1, done: true }]);
    const hers = seen.filter((s) => s.owner === ALICE);
    expect(hers.length).toBeGreaterThanOrEqual(1);
    expect(hers.length).toBeLessThanOrEqual(2);
    expect(hers.at(-1)).toEqual({ owner: ALICE, id: 1, done: true });
    expect(seen).toHaveLength(1 + hers.length);
  });

  it('ignores malformed payloads with one warn line, and keeps relaying', async () => {
    const { logger, lines } = capturingLogger();
    const { b, channel } = await replicas(logger);
    const onB = record(b);
    await notifyRaw(channel, [
      'not json',
      '{"v":1,"kind":"updated","id":-1}',
      '{"kind":"drop table"}',
      'x'.repeat(7_000),
      // Forged or old notices without an owner must not reach anybody.
      '{"v":2,"kind":"listChanged"}',
      '{"v":2,"kind":"updated","id":3,"done":true,"createdAt":"a","completedAt":null}',
      '{"v":1,"kind":"listChanged"}',
    ]);
    await notifyRaw(channel, [encodeStoreNotice({ kind: 'listChanged', owner: BOB })]);
    await vi.waitFor(() => expect(onB.listChanged).toBe(1), { timeout: CROSS_REPLICA_MS });
    expect(onB.listChangedOwners).toEqual([BOB]);
    expect(onB.updated).toEqual([]);
    expect(b.isListening()).toBe(true);
    const warns = lines.filter((line) => line.includes('malformed'));
    // Two relays share the logger: each warns once for the burst, then holds its peace.
    expect(warns).toHaveLength(2);
  });

  it('reconnects after Postgres restarts, tells listeners to refetch, and relays again', async () => {
    const { a, b } = await replicas();
    const onB = record(b);
    await cluster.restart();
    await vi.waitFor(() => expect(onB.listChanged).toBeGreaterThanOrEqual(1), {
      timeout: 15_000,
      interval: 20,
    });
    // Whose writes were missed is unknown: every owner is told to refetch.
    expect(new Set(onB.listChangedOwners)).toEqual(new Set([EVERY_OWNER]));
    expect(b.isListening()).toBe(true);
    const before = onB.listChanged;
    a.outbox.emit('updated', task(5), ALICE);
    await vi.waitFor(() => expect(onB.updated.map((t) => t.id)).toEqual([5]), { timeout: 5_000 });
    expect(onB.listChanged).toBe(before);
  }, 30_000);

  it('bounds a burst of 900 list changes to a few events, never one per write', async () => {
    const { a, b } = await replicas();
    const onB = record(b);
    // 900, so that the burst and the marker fit the sender's queue of 1,000 (past it, the rest
    // become one "missed" notice, and the marker with them).
    for (let i = 0; i < 900; i += 1) a.outbox.emit('listChanged', ALICE);
    a.outbox.emit('runChanged', MARKER_RUN_ID, MARKER_OWNER);
    await untilMarker(onB);
    // The sender needs 10 round trips (the first notice leaves alone, then batches of 100), and B
    // emits one list change per window those land in: one to a few when idle, at most one per
    // round trip on a loaded machine. Still forty-five times fewer than one per write.
    expect(onB.listChanged).toBeGreaterThanOrEqual(1);
    expect(onB.listChanged).toBeLessThanOrEqual(20);
    expect(new Set(onB.listChangedOwners)).toEqual(new Set([ALICE]));
  });

  it('bounds a burst of 1,000 updated tasks: capped updates, and a list change for the rest', async () => {
    const { b, channel } = await replicas();
    const onB = record(b);
    const notices = Array.from({ length: 1_000 }, (_, i) =>
      encodeStoreNotice({
        kind: 'updated',
        owner: BOB,
        id: i + 1,
        done: true,
        createdAt: 'c',
        completedAt: 'd',
      }),
    );
    await notifyRaw(channel, [...notices, marker()]);
    await untilMarker(onB);
    const ids = onB.updated.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(onB.updatedOwners)).toEqual(new Set([BOB]));
    // A window keeps at most MAX_PENDING_UPDATES tasks, and one list change for every owner stands
    // in for the rest, so no client misses a change. When idle, one window holds the whole burst:
    // 256 updates and one list change. Loaded, the burst may span windows, and only one holding
    // more than the cap drops anything.
    const overflows = onB.listChanged;
    expect(new Set(onB.listChangedOwners)).toEqual(ids.length === 1_000 ? new Set() : new Set([EVERY_OWNER]));
    expect(overflows).toBeLessThanOrEqual(Math.floor(1_000 / (MAX_PENDING_UPDATES + 1)));
    expect(ids.length).toBeLessThanOrEqual(1_000 - overflows);
    expect(ids.length).toBeGreaterThanOrEqual(MAX_PENDING_UPDATES);
  });

  it('bounds a burst of list changes from 1,000 owners: each told by name, or all told at once', async () => {
    const { b, channel } = await replicas();
    const onB = record(b);
    const notices = Array.from({ length: 1_000 }, (_, i) =>
      encodeStoreNotice({ kind: 'listChanged', owner: `sub:user-${i}` }),
    );
    await notifyRaw(channel, [...notices, marker()]);
    await untilMarker(onB);
    const named = onB.listChangedOwners.filter((owner) => owner !== EVERY_OWNER);
    const everyone = onB.listChanged - named.length;
    // Past the cap of owners in a window, one list change for every owner replaces that window's.
    expect(new Set(named).size).toBe(named.length);
    expect(named.length === 1_000 || everyone >= 1).toBe(true);
    expect(everyone).toBeLessThanOrEqual(Math.floor(1_000 / (MAX_PENDING_UPDATES + 1)));
    expect(named.length).toBeLessThanOrEqual(1_000 - everyone * (MAX_PENDING_UPDATES + 1));
  });

  it('leaves no sockets or timers behind after stop()', async () => {
    const baseline = openSocketsAndTimers();
    const { a, b } = await replicas();
    a.outbox.emit('listChanged', ALICE);
    await vi.waitFor(() => expect(b.isListening()).toBe(true));
    await Promise.all(running.splice(0).map((relay) => relay.stop()));
    expect(a.isListening()).toBe(false);
    // Polled by hand: vi.waitFor's own timer would count as a leftover.
    for (let i = 0; i < 40 && openSocketsAndTimers() > baseline; i += 1) await sleep(25);
    expect(openSocketsAndTimers()).toBeLessThanOrEqual(baseline);
  });

  it('keeps retrying while Postgres is down, and stops cleanly meanwhile', async () => {
    await cluster.stopServer();
    try {
      const relay = createPgNotifyRelay({
        connectionString: url,
        logger: createSilentLogger(),
        channel: 'down',
      });
      const started = relay.start();
      relay.outbox.emit('listChanged', ALICE);
      await sleep(300);
      expect(relay.isListening()).toBe(false);
      await relay.stop();
      await started;
    } finally {
      await cluster.start();
    }
  }, 30_000);
});
