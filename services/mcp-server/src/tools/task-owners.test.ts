/**
 * The task tools with sign-in on: two users on one store, each through a real in-process client
 * whose every request carries that user's verified token (`ctx.http.authInfo`). Each sees, changes
 * and counts only their own tasks; another user's id is "no such task", never "forbidden". And the
 * tools check their declared scopes themselves, whatever the route in front of them checked.
 * Partners: `define-tool.ts` (owner and scope check), `tasks/store.ts` (owners).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHARED_OWNER } from '@mcp-workshop/mcp-host/caller';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import type { CallToolResult } from '@mcp-workshop/shared';
import type { TodoStore } from '@mcp-workshop/task-store';
import { openTodoStore } from '@mcp-workshop/task-store';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASKS_READ, TASKS_WRITE } from '../deps.js';
import { type Connected, connectInMemory, testDeps, tokenFor } from '../test-support/in-memory.js';
import { noSuchTodo } from './todo-schema.js';

const BOTH = [TASKS_READ, TASKS_WRITE];
const ALICE = tokenFor('alice', BOTH);
const BOB = tokenFor('bob', BOTH);

describe('task tools, per owner', () => {
  let dir: string;
  let store: TodoStore;
  const open: Connected[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'task-owners-'));
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger(), maxTodos: 2 });
  });
  afterEach(async () => {
    for (const conn of open.splice(0)) await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const as = async (authInfo: AuthInfo | undefined) => {
    const conn = await connectInMemory(testDeps({ todos: store }), authInfo ? { authInfo } : {});
    open.push(conn);
    return (name: string, args: Record<string, unknown> = {}) =>
      conn.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  };
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
  const items = (result: CallToolResult) =>
    (result.structuredContent as { items: Array<{ id: number; title: string }> }).items;

  it("lists only the caller's tasks", async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB);
    await alice('add_task', { title: 'hers' });
    await bob('add_task', { title: 'his' });
    expect(items(await alice('list_tasks')).map((task) => task.title)).toEqual(['hers']);
    expect(items(await bob('list_tasks')).map((task) => task.title)).toEqual(['his']);
    // Stored under the owner ownerOf makes of each token's subject.
    expect(await store.list('sub:alice', 'all')).toHaveLength(1);
    expect(await store.list(SHARED_OWNER, 'all')).toEqual([]);
  });

  it("answers complete_task and delete_task on someone else's task as no such task, and changes nothing", async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB);
    const added = (await alice('add_task', { title: 'hers' })).structuredContent as { task: { id: number } };
    const id = added.task.id;
    for (const name of ['complete_task', 'delete_task']) {
      const result = await bob(name, { id });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(noSuchTodo(id));
    }
    expect(items(await alice('list_tasks'))).toMatchObject([{ id, title: 'hers', done: false }]);
    // Her own calls still work on it.
    expect((await alice('complete_task', { id })).isError).toBe(false);
    expect((await alice('delete_task', { id })).isError).toBe(false);
  });

  it('caps each owner on their own: a full list stops only its owner', async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB);
    await alice('add_task', { title: 'a1' });
    await alice('add_task', { title: 'a2' });
    const refused = await alice('add_task', { title: 'a3' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^The task list is full: it holds at most 2 tasks\./);
    expect((await bob('add_task', { title: 'b1' })).isError).toBe(false);
  });

  it("reports counts of the caller's tasks only in generate_report topic tasks", async () => {
    const alice = await as(ALICE);
    const bob = await as(BOB);
    await alice('add_task', { title: 'hers' });
    await alice('add_task', { title: 'hers too' });
    const report = await bob('generate_report', { topic: 'tasks', steps: 1, delayMs: 0 });
    expect(report.isError).toBe(false);
    expect((report.structuredContent as { summary: string }).summary).toMatch(/^0 task\(s\) on the list/);
    const hers = await alice('generate_report', { topic: 'tasks', steps: 1, delayMs: 0 });
    expect((hers.structuredContent as { summary: string }).summary).toMatch(/^2 task\(s\) on the list/);
  });

  it('refuses a tool whose declared scope the token lacks, naming it, before touching a task', async () => {
    await store.add('sub:reader', 'already there');
    const reader = await as(tokenFor('reader', [TASKS_READ]));
    const refused = await reader('add_task', { title: 'sneaked in' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'add_task needs the OAuth scope tasks:write, which this sign-in did not grant. Sign in again and grant tasks:write to use it.',
    );
    for (const [name, args] of [
      ['complete_task', { id: 1 }],
      ['delete_task', { id: 1 }],
    ] as const) {
      expect(text(await reader(name, args))).toMatch(
        new RegExp(`^${name} needs the OAuth scope tasks:write,`),
      );
    }
    expect(await store.list('sub:reader', 'all')).toMatchObject([{ title: 'already there', done: false }]);
    // What it was granted still works.
    expect(items(await reader('list_tasks')).map((task) => task.title)).toEqual(['already there']);
  });

  it('refuses list_tasks and generate_report topic tasks to a token without tasks:read, and no task data leaks', async () => {
    await store.add('sub:writer', 'secret title');
    const writer = await as(tokenFor('writer', [TASKS_WRITE]));
    const listed = await writer('list_tasks');
    expect(listed.isError).toBe(true);
    expect(text(listed)).toMatch(/^list_tasks needs the OAuth scope tasks:read,/);
    const report = await writer('generate_report', { topic: 'tasks', steps: 1, delayMs: 0 });
    expect(report.isError).toBe(true);
    expect(text(report)).toBe(
      'generate_report with topic "tasks" needs the OAuth scope tasks:read, which this sign-in did not grant. Sign in again and grant tasks:read to use it.',
    );
    expect(JSON.stringify(report)).not.toMatch(/secret|added/);
    // The topics that are not the user's data need no scope.
    expect((await writer('generate_report', { topic: 'cities', steps: 1, delayMs: 0 })).isError).toBe(false);
  });

  it('keeps one shared list when sign-in is off (no auth info), as before owners', async () => {
    const one = await as(undefined);
    const other = await as(undefined);
    await one('add_task', { title: 'shared' });
    expect(items(await other('list_tasks')).map((task) => task.title)).toEqual(['shared']);
    expect(await store.list(SHARED_OWNER, 'all')).toHaveLength(1);
  });

  it('keeps a client-credentials token without a subject to its client id, apart from subjects', async () => {
    const machine: AuthInfo = { token: 't', clientId: 'alice', scopes: BOTH };
    const client = await as(machine);
    const alice = await as(ALICE);
    await client('add_task', { title: 'robot' });
    expect(items(await alice('list_tasks'))).toEqual([]);
    expect(await store.list('client:alice', 'all')).toHaveLength(1);
  });
});
