import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { lockPathFor, MAX_TODOS, openTodoStore, TASKS_DB_FILE } from '@mcp-workshop/task-store';
import sqlite from 'node-sqlite3-wasm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';

describe('add_task', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'add-task-'));
    store = openTodoStore({
      dataDir: dir,
      logger: createSilentLogger(),
      now: () => new Date('2026-07-28T12:00:00Z'),
    });
    conn = await connectInMemory(testDeps({ todos: store }));
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (args: Record<string, unknown>) => conn.client.callTool({ name: 'add_task', arguments: args });
  const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]?.text ?? '';

  it('adds a task and returns it with its id', async () => {
    const result = await call({ title: 'Buy milk' });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      task: {
        id: 1,
        title: 'Buy milk',
        done: false,
        createdAt: '2026-07-28T12:00:00.000Z',
        completedAt: null,
      },
    });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    expect((result.content as Array<{ text: string }>)[1]?.text).toBe('Added task 1: "Buy milk".');
    expect(await store.list('', 'all')).toHaveLength(1);
  });

  it('trims the title and joins its lines when it spans several', async () => {
    const result = await call({ title: '  Buy\n  milk\tand bread  ' });
    expect(result.structuredContent).toMatchObject({ task: { title: 'Buy milk and bread' } });
  });

  it.each([
    ['SQL injection', "'); DROP TABLE tasks;--"],
    ['a prototype key', '__proto__'],
    ['markup', '<script>alert(1)</script>'],
    ['quotes', `"double" 'single' \`back\``],
    ['emoji', 'Feed the 🐈 ✓'],
  ])('stores %s verbatim and leaves the table intact', async (_label, title) => {
    const result = await call({ title });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.structuredContent).toMatchObject({ task: { id: 1, title } });
    expect((await store.list('', 'all')).map((task) => task.title)).toEqual([title]);
  });

  it.each([
    ['missing', {}],
    ['wrong type', { title: 42 }],
    ['null', { title: null }],
    ['empty', { title: '' }],
    ['blank', { title: ' \n\t ' }],
    ['oversized', { title: 'A'.repeat(10_000) }],
    ['one character too long', { title: 'A'.repeat(201) }],
    ['a null byte', { title: 'Buy\u0000milk' }],
    ['an escape sequence', { title: '\u001b[31mred' }],
    [
      'a prototype key as argument',
      JSON.parse('{"__proto__": {"title": "sneaky"}}') as Record<string, unknown>,
    ],
  ])('rejects %s input with isError and stores nothing', async (_label, args) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
    expect(await store.list('', 'all')).toEqual([]);
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });

  it('explains the limit when the list already holds the maximum', async () => {
    const db = new sqlite.Database(path.join(dir, TASKS_DB_FILE));
    db.run(
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
        "INSERT INTO tasks (title, created_at) SELECT 'task ' || i, '2026-07-28T12:00:00.000Z' FROM n",
      [MAX_TODOS],
    );
    db.close();
    const result = await call({ title: 'one too many' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'The task list is full: it holds at most 10,000 tasks. Delete finished tasks with delete_task, then add this one again.',
    );
    expect(await store.list('', 'all')).toHaveLength(MAX_TODOS);
  });

  it('tells the model to try again later when another process holds the database lock', async () => {
    fs.mkdirSync(lockPathFor(path.join(dir, TASKS_DB_FILE)));
    const result = await call({ title: 'blocked' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/busy.*Try again in a few seconds/);
  });
});
