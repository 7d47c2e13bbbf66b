import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import { openTodoStore, type TodoStore } from '@mcp-workshop/task-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASKS_READ, TASKS_WRITE } from '../deps.js';
import { connectAs, testDeps, tokenFor } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { DEFAULT_TODO_PAGE_SIZE } from './todo-pages.js';

describe('task_board_refresh', () => {
  let dir: string;
  let store: TodoStore;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'task-board-refresh-'));
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger() });
    // Alice has two open tasks and one done; Bob has one open task of his own (owners as ownerOf names them).
    await store.add('sub:alice', 'one');
    const two = await store.add('sub:alice', 'two');
    await store.add('sub:alice', 'three');
    await store.complete('sub:alice', two.id);
    await store.add('sub:bob', 'bob only');
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Calls the tool as `sub` with `scopes`, over a real server with sign-in on. */
  const call = async (sub: string, scopes: readonly string[], args: Record<string, unknown>) => {
    const conn = await connectAs(createMcpServer(testDeps({ todos: store })), tokenFor(sub, scopes));
    closers.push(conn.close);
    return conn.client.callTool({ name: 'task_board_refresh', arguments: args });
  };
  const titles = (result: { structuredContent?: unknown }) =>
    (result.structuredContent as { items: Array<{ title: string }> }).items.map((task) => task.title);

  it('returns the filtered tasks with the totals across all of them', async () => {
    const result = await call('alice', [TASKS_READ], { status: 'open' });
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ status: 'open', count: 2, openCount: 2, doneCount: 1 });
    expect(titles(result)).toEqual(['one', 'three']);
    expect((result.content as Array<{ text: string }>)[1]?.text).toBe('2 open, 1 done.');
  });

  it('shows every task by default and only done ones for "done"', async () => {
    expect(titles(await call('alice', [TASKS_READ], {}))).toEqual(['one', 'two', 'three']);
    expect(titles(await call('alice', [TASKS_READ], { status: 'done' }))).toEqual(['two']);
  });

  it("never shows or counts another user's tasks", async () => {
    const result = await call('bob', [TASKS_READ], {});
    expect(titles(result)).toEqual(['bob only']);
    expect(result.structuredContent).toMatchObject({ openCount: 1, doneCount: 0 });
    const stranger = await call('carol', [TASKS_READ], {});
    expect(stranger.structuredContent).toMatchObject({ items: [], count: 0, openCount: 0, doneCount: 0 });
  });

  it('refuses a token without tasks:read, like list_tasks, and reads nothing', async () => {
    const result = await call('alice', [TASKS_WRITE], {});
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain('needs the OAuth scope tasks:read');
    expect(JSON.stringify(result.content)).not.toContain('one');
  });

  it.each([
    ['an unknown status', { status: 'archived' }],
    ['a number', { status: 3 }],
  ])('rejects %s with isError', async (_label, args) => {
    const result = await call('alice', [TASKS_READ], args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });

  it('answers the first page only, with the totals of all and a cursor list_tasks takes for the rest', async () => {
    for (let n = 1; n <= DEFAULT_TODO_PAGE_SIZE; n++) await store.add('sub:alice', `more ${n}`);
    const result = await call('alice', [TASKS_READ], {});
    expect(validateToolResult(result).ok).toBe(true);
    const board = result.structuredContent as { count: number; openCount: number; nextCursor?: string };
    expect(board).toMatchObject({ count: DEFAULT_TODO_PAGE_SIZE, openCount: DEFAULT_TODO_PAGE_SIZE + 2 });
    const conn = await connectAs(
      createMcpServer(testDeps({ todos: store })),
      tokenFor('alice', [TASKS_READ]),
    );
    closers.push(conn.close);
    const rest = await conn.client.callTool({ name: 'list_tasks', arguments: { cursor: board.nextCursor } });
    expect(titles(rest)).toEqual([
      `more ${DEFAULT_TODO_PAGE_SIZE - 2}`,
      `more ${DEFAULT_TODO_PAGE_SIZE - 1}`,
      `more ${DEFAULT_TODO_PAGE_SIZE}`,
    ]);
  });
});
