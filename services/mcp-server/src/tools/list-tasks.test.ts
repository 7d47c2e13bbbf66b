import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { openTodoStore } from '@mcp-workshop/task-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASKS_READ, TASKS_WRITE } from '../deps.js';
import { type Connected, connectInMemory, testDeps, tokenFor } from '../test-support/in-memory.js';
import { DEFAULT_TODO_PAGE_SIZE, MAX_TODO_PAGE_SIZE } from './todo-pages.js';

describe('list_tasks', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;
  const open = () => openTodoStore({ dataDir: dir, logger: createSilentLogger() });

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'list-tasks-'));
    store = open();
    conn = await connectInMemory(testDeps({ todos: store }));
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown>) =>
    conn.client.callTool({ name, arguments: args });
  const titles = (result: { structuredContent?: unknown }) =>
    (result.structuredContent as { items: Array<{ title: string }> }).items.map((task) => task.title);

  it('lists every task oldest first, with count and status, when no status is given', async () => {
    await call('add_task', { title: 'first' });
    await call('add_task', { title: 'second' });
    const result = await call('list_tasks', {});
    expect(validateToolResult(result).ok).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({ status: 'all', count: 2 });
    expect(titles(result)).toEqual(['first', 'second']);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(
      result.structuredContent,
    );
  });

  it('returns an empty list, not an error, when there are no tasks', async () => {
    const result = await call('list_tasks', { status: 'open' });
    expect(result.structuredContent).toEqual({ items: [], count: 0, status: 'open' });
    expect((result.content as Array<{ text: string }>)[1]?.text).toBe('0 open tasks.');
  });

  it('filters open and done tasks', async () => {
    for (const title of ['a', 'b', 'c']) await store.add('', title);
    await store.complete('', 2);
    expect(titles(await call('list_tasks', { status: 'open' }))).toEqual(['a', 'c']);
    expect(titles(await call('list_tasks', { status: 'done' }))).toEqual(['b']);
    expect(titles(await call('list_tasks', { status: 'all' }))).toEqual(['a', 'b', 'c']);
  });

  it('still lists the tasks after the server restarts on the same data directory', async () => {
    await call('add_task', { title: 'remember me' });
    await conn.close();
    await store.close();
    store = open();
    conn = await connectInMemory(testDeps({ todos: store }));
    expect(titles(await call('list_tasks', {}))).toEqual(['remember me']);
  });

  it.each([
    ['an unknown status', { status: 'pending' }],
    ['a wrong type', { status: 1 }],
    ['SQL in the status', { status: "all' OR 1=1 --" }],
  ])('rejects %s with isError and no crash', async (_label, args) => {
    const result = await call('list_tasks', args);
    expect(result.isError).toBe(true);
    expect(validateToolResult(result).ok).toBe(true);
  });

  describe('pages', () => {
    type Listed = { items: Array<{ id: number; title: string }>; count: number; nextCursor?: string };
    const listed = (result: { structuredContent?: unknown }) => result.structuredContent as Listed;
    const text = (result: { content?: unknown }) =>
      (result.content as Array<{ text: string }>)[0]?.text ?? '';

    it('answers a long list a page at a time, with a nextCursor until the last page', async () => {
      for (let n = 1; n <= DEFAULT_TODO_PAGE_SIZE + 1; n++) await store.add('', `t${n}`);
      const first = await call('list_tasks', {});
      expect(validateToolResult(first).ok).toBe(true);
      expect(listed(first).count).toBe(DEFAULT_TODO_PAGE_SIZE);
      expect(listed(first).nextCursor).toEqual(expect.any(String));
      expect((first.content as Array<{ text: string }>)[1]?.text).toBe(
        `${DEFAULT_TODO_PAGE_SIZE} tasks on this page. More follow: call list_tasks again with this nextCursor.`,
      );
      const last = await call('list_tasks', { cursor: listed(first).nextCursor });
      expect(titles(last)).toEqual([`t${DEFAULT_TODO_PAGE_SIZE + 1}`]);
      expect(last.structuredContent).not.toHaveProperty('nextCursor');
    });

    it('walks every task exactly once with a small page, under a filter, while tasks are added between pages', async () => {
      for (const title of ['a', 'b', 'c', 'd', 'e']) await store.add('', title);
      await store.complete('', 4);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const result = await call('list_tasks', { status: 'open', limit: 2, ...(cursor && { cursor }) });
        expect(result.isError).toBe(false);
        seen.push(...titles(result));
        cursor = listed(result).nextCursor;
        if (seen.length === 2) await store.add('', 'f');
      } while (cursor);
      expect(seen).toEqual(['a', 'b', 'c', 'e', 'f']);
    });

    it.each([
      ['garbage', 'not-a-cursor'],
      ['an offset cursor of the server lists', Buffer.from('o:2').toString('base64url')],
      ['a cursor for id 0', Buffer.from('t1.0.aaaaaaaaaaaaaaaaaaaaaa').toString('base64url')],
      ['characters outside base64url', 'dDEuMi4=/+'],
    ])('answers %s as a cursor with isError saying what to do, not with a page', async (_label, cursor) => {
      for (const title of ['a', 'b', 'c']) await store.add('', title);
      const result = await call('list_tasks', { cursor });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(text(result)).toMatch(
        /^That cursor is not one list_tasks gave you .* leave cursor out to start from the first page\.$/,
      );
    });

    it('refuses a cursor that was changed by one character', async () => {
      for (const title of ['a', 'b', 'c']) await store.add('', title);
      const cursor = listed(await call('list_tasks', { limit: 1 })).nextCursor ?? '';
      const changed = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
      expect((await call('list_tasks', { cursor: changed })).isError).toBe(true);
    });

    it.each([0, MAX_TODO_PAGE_SIZE + 1, 1.5])('refuses a page size of %s with isError', async (limit) => {
      const result = await call('list_tasks', { limit });
      expect(result.isError).toBe(true);
      expect(validateToolResult(result).ok).toBe(true);
    });

    it("refuses another user's cursor exactly as garbage, and shows nothing of theirs", async () => {
      const both = [TASKS_READ, TASKS_WRITE];
      const alice = await connectInMemory(testDeps({ todos: store }), { authInfo: tokenFor('alice', both) });
      const bob = await connectInMemory(testDeps({ todos: store }), { authInfo: tokenFor('bob', both) });
      try {
        for (const title of ['a1', 'a2', 'a3']) await store.add('sub:alice', title);
        for (const title of ['b1', 'b2', 'b3']) await store.add('sub:bob', title);
        const list = (conn: Connected, args: Record<string, unknown>) =>
          conn.client.callTool({ name: 'list_tasks', arguments: args });
        const hers = listed(await list(alice, { limit: 1 })).nextCursor;
        const refused = await list(bob, { cursor: hers });
        expect(refused.isError).toBe(true);
        expect(text(refused)).toBe(text(await list(bob, { cursor: 'not-a-cursor' })));
        // Her cursor still works for her, and his own pages are his.
        expect(titles(await list(alice, { cursor: hers }))).toEqual(['a2', 'a3']);
        expect(titles(await list(bob, { limit: 1 }))).toEqual(['b1']);
      } finally {
        await alice.close();
        await bob.close();
      }
    });
  });
});
