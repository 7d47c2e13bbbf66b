/**
 * Tests for `task-handoff.ts`: which answers become handoffs, on a small in-memory transport that
 * records what was sent and lets the test deliver answers as the wire would.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { MAX_OPEN_CALLS, surfaceTaskResults, TASK_HANDOFF_META, takeTaskHandoff } from './task-handoff.js';

class RecordingTransport implements Transport {
  readonly sent: JSONRPCMessage[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  async start() {}
  async close() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
  }
  /** Delivers `message` as if it came off the wire. */
  deliver(message: JSONRPCMessage) {
    this.onmessage?.(message);
  }
}

const TASK = {
  resultType: 'task',
  taskId: 'task-1',
  status: 'working',
  createdAt: '2026-07-28T10:00:00Z',
  lastUpdatedAt: '2026-07-28T10:00:00Z',
  ttlMs: 60_000,
};

/** The wrapped transport, and every message its client received. */
function setUp() {
  const inner = new RecordingTransport();
  const outer = surfaceTaskResults(inner);
  const received: JSONRPCMessage[] = [];
  outer.onmessage = (message) => received.push(message);
  return { inner, outer, received };
}

const request = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params: {} });
const answer = (id: number, result: Record<string, unknown>) =>
  ({ jsonrpc: '2.0', id, result }) as JSONRPCMessage;

describe('surfaceTaskResults', () => {
  it('hands a task answering our tools/call on as an isError result carrying it', async () => {
    const { inner, outer, received } = setUp();
    await outer.send(request(7, 'tools/call'));
    inner.deliver(answer(7, TASK));

    expect(inner.sent).toEqual([request(7, 'tools/call')]);
    const result = (received[0] as { result: Record<string, unknown> }).result;
    expect(result).toMatchObject({ resultType: 'complete', isError: true });
    expect(takeTaskHandoff(result)).toEqual(TASK);
  });

  it('leaves ordinary results, other methods and unknown ids alone', async () => {
    const { inner, outer, received } = setUp();
    await outer.send(request(1, 'tools/call'));
    await outer.send(request(2, 'resources/read'));
    const plain = answer(1, { resultType: 'complete', content: [] });
    const elsewhere = answer(2, TASK);
    const stranger = answer(99, TASK);
    for (const message of [plain, elsewhere, stranger]) inner.deliver(message);

    expect(received).toEqual([plain, elsewhere, stranger]);
    expect(received.map(takeTaskHandoff)).toEqual([undefined, undefined, undefined]);
  });

  it('hands off each answer once: a second answer with the same id is left alone', async () => {
    const { inner, outer, received } = setUp();
    await outer.send(request(3, 'tools/call'));
    inner.deliver(answer(3, TASK));
    inner.deliver(answer(3, TASK));
    expect(takeTaskHandoff((received[0] as { result: unknown }).result)).toEqual(TASK);
    expect((received[1] as { result: unknown }).result).toEqual(TASK);
  });

  it(`forgets the oldest open calls past ${MAX_OPEN_CALLS}`, async () => {
    const { inner, outer, received } = setUp();
    for (let id = 0; id <= MAX_OPEN_CALLS; id++) await outer.send(request(id, 'tools/call'));
    inner.deliver(answer(0, TASK));
    inner.deliver(answer(MAX_OPEN_CALLS, TASK));
    expect(received.map((message) => takeTaskHandoff((message as { result: unknown }).result))).toEqual([
      undefined,
      TASK,
    ]);
  });
});

describe('takeTaskHandoff', () => {
  it('finds nothing in results without the key', () => {
    expect(takeTaskHandoff(undefined)).toBeUndefined();
    expect(takeTaskHandoff({ content: [] })).toBeUndefined();
    expect(takeTaskHandoff({ _meta: { other: 1 } })).toBeUndefined();
    expect(takeTaskHandoff({ _meta: { [TASK_HANDOFF_META]: TASK } })).toEqual(TASK);
  });
});
