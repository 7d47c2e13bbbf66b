/**
 * The host's task runtime (`@mcp-workshop/mcp-host/tasks`) over the task store's real SQLite runs
 * and in-process queue, put together as the catalogue puts them (`deps.ts`): the host and the store
 * may not import each other, so the two meet here. Completion, resume after a stop without redoing
 * a recorded step, slices, cancel (here and from another process), questions, failures, owners.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import {
  CANCEL_CHECK_MS,
  createTaskRuntime,
  type TaskRuntime,
  type TaskWork,
} from '@mcp-workshop/mcp-host/tasks';
import type { TaskRecord } from '@mcp-workshop/shared/tasks-port';
import { createInProcessRunQueue, openSqliteRunStore, type RunStore } from '@mcp-workshop/task-store';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';

const logger = createSilentLogger();
const OWNER = 'sub:alice';
const WAIT_MS = 5_000;

interface Opened {
  runtime: TaskRuntime;
  store: RunStore;
  close(): Promise<void>;
}

let dataDir: string;
const open: Opened[] = [];

/** Adds `tool`'s work to what `runtime` runs, as a catalogue's tool list hands it over (`setWorks`). */
const worksOf = new WeakMap<TaskRuntime, Map<string, TaskWork>>();
function define(runtime: TaskRuntime, tool: string, work: TaskWork): void {
  const works = worksOf.get(runtime) ?? new Map<string, TaskWork>();
  works.set(tool, work);
  worksOf.set(runtime, works);
  runtime.setWorks(works);
}

function openRuntime(
  options: {
    sliceMs?: number;
    messages?: string[];
    concurrency?: number;
    works?: Map<string, TaskWork>;
  } = {},
): Opened {
  const sqlite = openSqliteRunStore({ dataDir, logger });
  // Records every status message written, for the test that a resumed run does not go back.
  const store: RunStore = options.messages
    ? new Proxy(sqlite, {
        get(target, property) {
          if (property === 'update') {
            return (id: string, update: Parameters<RunStore['update']>[1]) => {
              if (update.statusMessage) options.messages?.push(update.statusMessage);
              return target.update(id, update);
            };
          }
          const value = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      })
    : sqlite;
  const queue = createInProcessRunQueue({
    store,
    logger,
    ...(options.concurrency && { concurrency: options.concurrency }),
  });
  const runtime = createTaskRuntime({
    runs: store,
    queue,
    logger,
    ...(options.sliceMs && { sliceMs: options.sliceMs }),
    ...(options.works && { works: options.works }),
  });
  const opened = {
    runtime,
    store,
    async close() {
      await runtime.stop();
      await store.close();
    },
  };
  open.push(opened);
  return opened;
}

afterEach(async () => {
  for (const opened of open.splice(0)) await opened.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function freshDir(): void {
  dataDir = mkdtempSync(join(tmpdir(), 'mcp-host-tasks-'));
}

async function until(
  runtime: TaskRuntime,
  id: string,
  done: (run: TaskRecord) => boolean,
): Promise<TaskRecord> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const run = await runtime.get(OWNER, id);
    if (run && done(run)) return run;
    if (Date.now() > deadline) throw new Error(`task ${id} never got there; last: ${JSON.stringify(run)}`);
    await sleep(20);
  }
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** Counts pieces of work; each piece is one recorded step that takes `pieceMs`. */
function countingWork(pieces: number, pieceMs: number, done: string[]): TaskWork {
  return async (_args, run) => {
    for (let piece = 1; piece <= pieces; piece++) {
      await run.step(`piece-${piece}`, async () => {
        await sleep(pieceMs, undefined, { signal: run.signal });
        done.push(`piece-${piece}`);
        return piece;
      });
      await run.setStatusMessage(`piece ${piece} of ${pieces}`);
    }
    return text(`${pieces} pieces`);
  };
}

describe('the task runtime, over a real SQLite run store', () => {
  it('runs a task to completion and keeps the exact result for tasks/get', async () => {
    freshDir();
    const { runtime } = openRuntime();
    const done: string[] = [];
    define(runtime, 'count', countingWork(3, 10, done));
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} });
    expect(run.status).toBe('working');
    const finished = await until(runtime, run.id, (r) => r.status === 'completed');
    expect(finished.result).toEqual(text('3 pieces'));
    expect(done).toEqual(['piece-1', 'piece-2', 'piece-3']);
  });

  it('resumes after a restart from the last recorded step, without doing a finished step again', async () => {
    freshDir();
    const first = openRuntime();
    const before: string[] = [];
    define(first.runtime, 'count', countingWork(6, 60, before));
    await first.runtime.start();
    const run = await first.runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} });
    await until(first.runtime, run.id, () => before.length >= 2);
    // The process stops mid-task: the run stays `working` in the database.
    await first.close();
    open.splice(open.indexOf(first), 1);
    const recorded = (await openSqliteRunStore({ dataDir, logger }).steps(run.id)).map((step) => step.key);
    expect(recorded.length).toBeGreaterThanOrEqual(2);

    const messages: string[] = [];
    const second = openRuntime({ messages });
    const after: string[] = [];
    define(second.runtime, 'count', countingWork(6, 10, after));
    await second.runtime.start();
    const finished = await until(second.runtime, run.id, (r) => r.status === 'completed');
    expect(finished.result).toEqual(text('6 pieces'));
    // Nothing recorded before the stop ran again; everything else ran exactly once.
    for (const key of recorded) expect(after).not.toContain(key);
    // Its status never went back to a piece finished before the stop (replayed pieces say nothing).
    expect(messages[0]).toBe(`piece ${recorded.length} of 6`);
    expect([...recorded, ...after].sort()).toEqual([
      'piece-1',
      'piece-2',
      'piece-3',
      'piece-4',
      'piece-5',
      'piece-6',
    ]);
  });

  it('works in slices: a run past its slice goes back to the queue and continues from its steps', async () => {
    freshDir();
    const { runtime } = openRuntime({ sliceMs: 30 });
    const done: string[] = [];
    define(runtime, 'count', countingWork(5, 20, done));
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} });
    const finished = await until(runtime, run.id, (r) => r.status === 'completed');
    expect(finished.result).toEqual(text('5 pieces'));
    expect(done).toEqual(['piece-1', 'piece-2', 'piece-3', 'piece-4', 'piece-5']);
  });

  it("yields its slot at the next step when another owner's task waits, and goes on from its steps", async () => {
    freshDir();
    // Two slots: alice's two tasks take both, more than her share of one while bob waits.
    const { runtime } = openRuntime({ concurrency: 2 });
    const done: string[] = [];
    define(runtime, 'count', countingWork(40, 25, done));
    define(runtime, 'short', async () => text('short'));
    await runtime.start();
    const hers = [
      await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} }),
      await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} }),
    ];
    await until(runtime, hers[1]?.id as string, () => done.length >= 2);
    const his = await runtime.create({ owner: 'sub:bob', tool: 'short', arguments: {}, caller: {} });
    const deadline = Date.now() + WAIT_MS;
    let finished: TaskRecord | undefined;
    while (!finished && Date.now() < deadline) {
      const run = await runtime.get('sub:bob', his.id);
      if (run?.status === 'completed') finished = run;
      else await sleep(10);
    }
    expect(finished?.result).toEqual(text('short'));
    // Bob's task was done while both of alice's were still at work: one of them gave its slot back.
    for (const run of hers) expect((await runtime.get(OWNER, run.id))?.status).toBe('working');
    for (const run of hers) await until(runtime, run.id, (r) => r.status === 'completed');
    // Each piece of each task ran once: the yield lost no recorded step.
    expect(done).toHaveLength(80);
  });

  /** A piece longer than the wait after a cancel: only an aborted signal keeps it from finishing. */
  const LONG_PIECE_MS = 2_500;

  it('stops cancelled work at once, in the middle of a piece, records no step after it, and keeps it cancelled', async () => {
    freshDir();
    const { runtime, store } = openRuntime();
    const done: string[] = [];
    define(runtime, 'count', countingWork(3, LONG_PIECE_MS, done));
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} });
    await sleep(200);
    const cancelled = await runtime.cancel(OWNER, run.id);
    expect(cancelled?.status).toBe('cancelled');
    await sleep(LONG_PIECE_MS + 500);
    // The first piece was aborted where it was: it never finished, and nothing was recorded.
    expect(done).toEqual([]);
    expect(await store.steps(run.id)).toEqual([]);
    expect((await runtime.get(OWNER, run.id))?.status).toBe('cancelled');
  });

  it('stops work cancelled in another process (the row says so) within a cancel check, mid-piece', async () => {
    freshDir();
    const { runtime, store } = openRuntime();
    const done: string[] = [];
    define(runtime, 'count', countingWork(3, LONG_PIECE_MS, done));
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} });
    await sleep(200);
    // Straight to the store, as another replica's tasks/cancel would: only the row tells this process.
    await store.cancel(OWNER, run.id);
    await sleep(LONG_PIECE_MS + 500);
    expect(CANCEL_CHECK_MS * 2).toBeLessThan(LONG_PIECE_MS);
    expect(done).toEqual([]);
  });

  it('parks a run on questions asked together, answers them one at a time, then completes', async () => {
    freshDir();
    const { runtime } = openRuntime();
    define(runtime, 'ask', async (_args, run) => {
      const [a, b] = await Promise.all([
        run.input('a', { method: 'elicitation/create', params: { message: 'A?' } }),
        run.input('b', { method: 'elicitation/create', params: { message: 'B?' } }),
      ]);
      return text(`${JSON.stringify(a)} ${JSON.stringify(b)}`);
    });
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'ask', arguments: {}, caller: {} });
    const parked = await until(runtime, run.id, (r) => r.status === 'input_required');
    expect(Object.keys(parked.inputRequests ?? {}).sort()).toEqual(['a', 'b']);

    const partly = await runtime.answer(OWNER, run.id, { a: { action: 'accept' }, unknown: { x: 1 } });
    expect(partly?.status).toBe('input_required');
    expect(Object.keys(partly?.inputRequests ?? {})).toEqual(['b']);

    await runtime.answer(OWNER, run.id, { b: { action: 'decline' } });
    const finished = await until(runtime, run.id, (r) => r.status === 'completed');
    expect(finished.result).toEqual(text('{"action":"accept"} {"action":"decline"}'));
  });

  it('fails a task with the JSON-RPC error its work threw, and hides an unexpected error behind -32603', async () => {
    freshDir();
    const { runtime } = openRuntime();
    define(runtime, 'protocol', async () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'bad input, said the tool');
    });
    define(runtime, 'bug', async () => {
      throw new Error('secret stack detail');
    });
    await runtime.start();
    const protocol = await runtime.create({ owner: OWNER, tool: 'protocol', arguments: {}, caller: {} });
    const bug = await runtime.create({ owner: OWNER, tool: 'bug', arguments: {}, caller: {} });
    expect((await until(runtime, protocol.id, (r) => r.status === 'failed')).error).toEqual({
      code: -32602,
      message: 'bad input, said the tool',
    });
    const failed = await until(runtime, bug.id, (r) => r.status === 'failed');
    expect(failed.error?.code).toBe(-32603);
    expect(JSON.stringify(failed.error)).not.toContain('secret');
  });

  it("answers another owner's id, an unknown id and hostile ids exactly alike: no task", async () => {
    freshDir();
    const { runtime } = openRuntime();
    define(runtime, 'count', countingWork(1, 1, []));
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'count', arguments: {}, caller: {} });
    expect(await runtime.get('sub:mallory', run.id)).toBeUndefined();
    expect(await runtime.cancel('sub:mallory', run.id)).toBeUndefined();
    expect(await runtime.answer('sub:mallory', run.id, { a: 1 })).toBeUndefined();
    for (const id of [
      '',
      'x'.repeat(5000),
      "' OR 1=1 --",
      '../../etc/passwd',
      'ünïcødé',
      run.id.toUpperCase(),
    ]) {
      expect(await runtime.get(OWNER, id)).toBeUndefined();
    }
    expect((await runtime.get(OWNER, run.id))?.id).toBe(run.id);
  });

  it('fails a task whose tool is not in the catalogue at once, saying so', async () => {
    freshDir();
    const { runtime } = openRuntime({ works: new Map() });
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'gone', arguments: {}, caller: {} });
    const failed = await until(runtime, run.id, (r) => r.status === 'failed');
    expect(failed.error?.message).toBe('The tool gone is no longer served.');
  });
});

describe("a task runs the tool list's work, from the start and after a reload", () => {
  it('runs work handed over when the runtime is built, with no request ever made', async () => {
    freshDir();
    const { runtime } = openRuntime({
      works: new Map([['early', async () => text('there from the start')]]),
    });
    await runtime.start();
    const run = await runtime.create({ owner: OWNER, tool: 'early', arguments: {}, caller: {} });
    const finished = await until(runtime, run.id, (r) => r.status === 'completed');
    expect(finished.result).toEqual(text('there from the start'));
  });

  it('runs the new work after setWorks, and fails a tool the reload removed', async () => {
    freshDir();
    const { runtime } = openRuntime();
    runtime.setWorks(new Map([['greet', async () => text('old')]]));
    await runtime.start();
    runtime.setWorks(new Map([['greet', async () => text('new')]]));
    const run = await runtime.create({ owner: OWNER, tool: 'greet', arguments: {}, caller: {} });
    expect((await until(runtime, run.id, (r) => r.status === 'completed')).result).toEqual(text('new'));
    runtime.setWorks(new Map());
    expect(runtime.canRun('greet')).toBe(false);
    const gone = await runtime.create({ owner: OWNER, tool: 'greet', arguments: {}, caller: {} });
    const failed = await until(runtime, gone.id, (r) => r.status === 'failed');
    expect(failed.error?.message).toBe('The tool greet is no longer served.');
  });
});
