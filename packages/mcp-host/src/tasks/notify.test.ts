/**
 * `publishTaskStatus` on the real owner-scoped bus: a change is read and sent to its owner's
 * streams only, in the order the task changed even when an earlier read is slower, and nothing is
 * read while the owner has no stream open. The runtime here is the port's shape over a map, so the
 * test can make one read slow; the whole path over HTTP is in dev/host-integration's `tasks.http.test.ts`.
 */

import type { TaskRecord, TaskStatus } from '@mcp-workshop/shared/tasks-port';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { OwnerScopedEventBus } from '../http/owner-bus.js';
import { createLogger } from '../logger.js';
import { publishTaskStatus } from './notify.js';
import type { TaskRuntime } from './runtime.js';

function record(id: string, owner: string, status: TaskStatus): TaskRecord {
  return {
    id,
    owner,
    tool: 'generate_report',
    arguments: {},
    caller: {},
    status,
    statusMessage: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    lastUpdatedAt: '2026-11-28T10:00:00.000Z',
    ttlMs: 60_000,
    pollIntervalMs: 500,
    result: status === 'completed' ? { content: [] } : null,
    error: null,
    inputRequests: null,
  };
}

/** A runtime whose reads answer from `reads` in turn, each after its delay; changes are fed by hand. */
function scriptedRuntime(reads: Array<{ run: TaskRecord | undefined; delayMs: number }>) {
  const listeners = new Set<(id: string, owner: string) => void>();
  let gets = 0;
  const runtime = {
    async get() {
      const next = reads[gets++];
      await new Promise((resolve) => setTimeout(resolve, next?.delayMs ?? 0));
      return next?.run;
    },
    onChange(listener: (id: string, owner: string) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as TaskRuntime;
  return {
    runtime,
    change: (id: string, owner: string) => {
      for (const listener of listeners) listener(id, owner);
    },
    gets: () => gets,
    listeners: () => listeners.size,
  };
}

/** A stream of `owner`'s on the bus, recording what it hears. */
function streamOf(bus: OwnerScopedEventBus, owner: string): ServerEvent[] {
  const heard: ServerEvent[] = [];
  bus.runAs(owner, () => bus.subscribe((event) => heard.push(event)));
  return heard;
}

const silent = createLogger('silent', { service: 'notify-test' });

describe('publishTaskStatus', () => {
  it("sends each change to the owner's streams only, in the order the task changed", async () => {
    const script = scriptedRuntime([
      { run: record('t1', 'alice', 'working'), delayMs: 60 },
      { run: record('t1', 'alice', 'completed'), delayMs: 0 },
    ]);
    const bus = new OwnerScopedEventBus();
    const hers = streamOf(bus, 'alice');
    const his = streamOf(bus, 'mallory');
    const stop = publishTaskStatus(script.runtime, bus, silent);
    script.change('t1', 'alice');
    script.change('t1', 'alice');
    // The second read starts only once the first (60 ms) is done: wait for both, not for a time.
    await vi.waitFor(() => expect(hers).toHaveLength(2));
    expect(hers.map((event) => (event.kind === 'task_status' ? event.task.status : event.kind))).toEqual([
      'working',
      'completed',
    ]);
    expect(hers[0]).toMatchObject({ kind: 'task_status', task: { taskId: 't1' } });
    expect(hers[0]).not.toHaveProperty(['task', 'resultType']);
    expect(his).toEqual([]);
    stop();
    expect(script.listeners()).toBe(0);
  });

  it('reads nothing while the owner has no stream open, and sends nothing for a task gone', async () => {
    const script = scriptedRuntime([{ run: undefined, delayMs: 0 }]);
    const bus = new OwnerScopedEventBus();
    const his = streamOf(bus, 'mallory');
    publishTaskStatus(script.runtime, bus, silent);
    script.change('t1', 'alice');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(script.gets()).toBe(0);
    const hers = streamOf(bus, 'alice');
    script.change('t1', 'alice');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(script.gets()).toBe(1);
    expect(hers).toEqual([]);
    expect(his).toEqual([]);
  });
});
