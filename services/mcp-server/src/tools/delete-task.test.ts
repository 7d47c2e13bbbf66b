import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateToolResult } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logger.js';
import { openTaskStore } from '../tasks/sqlite-store.js';
import type { TaskStore } from '../tasks/store.js';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';

describe('delete_task', () => {
  let dir: string;
  let store: TaskStore;
  let conn: Connected;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delete-task-'));
    store = openTaskStore({
      dataDir: dir,
      logger: createSilentLogger(),
      now: () => new Date('2026-07-28T12:00:00Z'),
    });
    store.add('Old chore');
    store.add('Keep me');
    conn = await connectInMemory(testDeps({ tasks: store }));
  });
  afterEach(async () => {
    await conn.close();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (args: Record<string, unknown>) =>
    conn.client.callTool({ name: 'delete_task', arguments: args });
  const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]?.text ?? '';

  it('deletes the task and returns it as it was', async () => {
    const result = await call({ id: 1 });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      task: {
        id: 1,
        title: 'Old chore',
        done: false,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: null,
      },
    });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    expect(store.list('all').map((task) => task.title)).toEqual(['Keep me']);
  });

  it('answers "no task" and changes nothing when the same id is deleted twice', async () => {
    await call({ id: 1 });
    const again = await call({ id: 1 });
    expect(again.isError).toBe(true);
    expect(text(again)).toBe('No task with id 1. Call list_tasks to see the ids.');
    expect(store.list('all').map((task) => task.title)).toEqual(['Keep me']);
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
    ['SQL', { id: '1; DROP TABLE tasks;--' }],
    ['null', { id: null }],
    ['zero', { id: 0 }],
    ['negative', { id: -2 }],
    ['a float', { id: 1.5 }],
    ['huge', { id: 1e20 }],
    ['an array', { id: [1, 2] }],
  ])('rejects an id that is %s with isError and deletes nothing', async (_label, args) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect(store.list('all')).toHaveLength(2);
  });
});
