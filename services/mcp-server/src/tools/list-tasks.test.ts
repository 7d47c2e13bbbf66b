import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { validateToolResult } from '@mcp-workshop/shared';
import type { TaskStore } from '@mcp-workshop/task-store';
import { openTaskStore } from '@mcp-workshop/task-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory, testDeps } from '../test-support/in-memory.js';

describe('list_tasks', () => {
  let dir: string;
  let store: TaskStore;
  let conn: Connected;
  const open = () => openTaskStore({ dataDir: dir, logger: createSilentLogger() });

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'list-tasks-'));
    store = open();
    conn = await connectInMemory(testDeps({ tasks: store }));
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
    conn = await connectInMemory(testDeps({ tasks: store }));
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
});
