import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { openTodoStore } from '@mcp-workshop/task-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';

describe('complete_task', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;
  let clock: Date;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'complete-task-'));
    clock = new Date('2026-07-28T12:00:00Z');
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger(), now: () => clock });
    await store.add('', 'Water plants');
    conn = await connectInMemory(testDeps({ todos: store }));
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (args: Record<string, unknown>) =>
    conn.client.callTool({ name: 'complete_task', arguments: args });
  const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]?.text ?? '';

  it('marks the task done and returns it', async () => {
    clock = new Date('2026-07-28T15:30:00Z');
    const result = await call({ id: 1 });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      task: {
        id: 1,
        title: 'Water plants',
        done: true,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: '2026-07-28T15:30:00.000Z',
      },
    });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    expect(await store.list('', 'done')).toHaveLength(1);
  });

  it('returns the same result, keeping the first completion time, when the task is already done', async () => {
    const first = await call({ id: 1 });
    clock = new Date('2026-07-30T09:00:00Z');
    const second = await call({ id: 1 });
    expect(second.isError).toBe(false);
    expect(second.structuredContent).toEqual(first.structuredContent);
  });

  it('tells the model how to find a real id when none matches', async () => {
    const result = await call({ id: 42 });
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect(text(result)).toBe('No task with id 42. Call list_tasks to see the ids.');
  });

  it.each([
    ['missing', {}],
    ['a string', { id: '1' }],
    ['SQL', { id: '1 OR 1=1' }],
    ['null', { id: null }],
    ['zero', { id: 0 }],
    ['negative', { id: -1 }],
    ['a float', { id: 1.5 }],
    ['huge', { id: 1e20 }],
    ['past the safe range', { id: Number.MAX_SAFE_INTEGER + 2 }],
  ])('rejects an id that is %s with isError and changes nothing', async (_label, args) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect((await store.list('', 'open')).map((task) => task.id)).toEqual([1]);
  });
});
