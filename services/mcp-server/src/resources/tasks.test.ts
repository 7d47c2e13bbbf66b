import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import type { TodoStore } from '@mcp-workshop/task-store';
import { announceTodoChanges, createTodoEvents, openTodoStore } from '@mcp-workshop/task-store';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASKS_READ, TASKS_WRITE } from '../deps.js';
import { type Connected, connectInMemory, testDeps, tokenFor } from '../test-support/in-memory.js';
import { DEFAULT_TODO_PAGE_SIZE } from '../tools/todo-pages.js';
import { MAX_TODO_ID, parseTodoId } from './tasks.js';

describe('parseTodoId', () => {
  it('accepts plain positive decimal ids up to MAX_TODO_ID', () => {
    expect(parseTodoId('1')).toBe(1);
    expect(parseTodoId('42')).toBe(42);
    expect(parseTodoId(String(MAX_TODO_ID))).toBe(MAX_TODO_ID);
  });

  it.each([
    '0',
    '-1',
    '+1',
    '01',
    '1.0',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '%31',
    '',
    String(MAX_TODO_ID + 1),
    '99999999999',
  ])('refuses %j', (value) => {
    expect(parseTodoId(value)).toBeUndefined();
  });

  it('refuses a value that is not a string (an exploded template variable)', () => {
    expect(parseTodoId(['1', '2'])).toBeUndefined();
  });
});

describe('task resources', () => {
  let dir: string;
  let store: TodoStore;
  let conn: Connected;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'task-resources-'));
    const todoEvents = createTodoEvents();
    store = announceTodoChanges(openTodoStore({ dataDir: dir, logger: createSilentLogger() }), todoEvents);
    conn = await connectInMemory(testDeps({ todos: store, todoEvents }));
  });
  afterEach(async () => {
    await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const read = async (uri: string) => {
    const { contents } = await conn.client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [item] = contents as Array<{ uri: string; mimeType?: string; text: string }>;
    expect(item?.uri).toBe(uri);
    expect(item?.mimeType).toBe('application/json');
    return JSON.parse(item?.text ?? '');
  };

  it('reads tasks://all as { items, count } in store order', async () => {
    await store.add('', 'first');
    await store.complete('', (await store.add('', 'second')).id);
    const all = await read('tasks://all');
    expect(all.count).toBe(2);
    expect(all.items.map((task: { title: string }) => task.title)).toEqual(['first', 'second']);
    expect(all.items[1]).toMatchObject({ done: true, completedAt: expect.any(String) });
  });

  it('reads tasks://all as an empty list when there are no tasks', async () => {
    expect(await read('tasks://all')).toEqual({ items: [], count: 0 });
  });

  it('reads one task by id', async () => {
    const task = await store.add('', 'Pack an umbrella');
    expect(await read(`tasks://${task.id}`)).toEqual(task);
  });

  it('lists every existing task in resources/list, with name, title, description and mimeType', async () => {
    const a = await store.add('', 'alpha');
    const b = await store.add('', 'beta');
    await store.complete('', b.id);
    const { resources } = await conn.client.listResources();
    const tasks = resources.filter((resource) => /^tasks:\/\/\d+$/.test(resource.uri));
    expect(tasks).toEqual([
      {
        uri: `tasks://${a.id}`,
        name: `task-${a.id}`,
        title: `Task ${a.id}: alpha`,
        description: expect.stringMatching(/^Open since /),
        mimeType: 'application/json',
      },
      {
        uri: `tasks://${b.id}`,
        name: `task-${b.id}`,
        title: `Task ${b.id}: beta`,
        description: expect.stringMatching(/^Done since /),
        mimeType: 'application/json',
      },
    ]);
  });

  it('drops a deleted task from resources/list', async () => {
    const task = await store.add('', 'gone soon');
    await store.delete('', task.id);
    const { resources } = await conn.client.listResources();
    expect(resources.map((resource) => resource.uri)).not.toContain(`tasks://${task.id}`);
  });

  it('completes task ids by prefix', async () => {
    for (let i = 0; i < 12; i += 1) await store.add('', `task ${i}`);
    const { completion } = await conn.client.complete({
      ref: { type: 'ref/resource', uri: 'tasks://{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(completion.values).toEqual(['1', '10', '11', '12']);
  });

  it('returns resource-not-found (-32602 with data.uri) for a task that does not exist', async () => {
    await expect(conn.client.readResource({ uri: 'tasks://999' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'tasks://999' },
      message: expect.stringMatching(/list_tasks/),
    });
  });

  it('reads tasks://all a page at a time, each nextCursor leading to the next page until the last', async () => {
    const total = DEFAULT_TODO_PAGE_SIZE * 2 + 1;
    for (let n = 1; n <= total; n++) await store.add('', `t${n}`);
    const first = await read('tasks://all');
    expect(first.count).toBe(DEFAULT_TODO_PAGE_SIZE);
    await store.add('', 'added between pages');
    const second = await read(`tasks://all?cursor=${first.nextCursor}`);
    expect(second.items[0].title).toBe(`t${DEFAULT_TODO_PAGE_SIZE + 1}`);
    const last = await read(`tasks://all?cursor=${second.nextCursor}`);
    expect(last).toEqual({
      items: [
        expect.objectContaining({ title: `t${total}` }),
        expect.objectContaining({ title: 'added between pages' }),
      ],
      count: 2,
    });
  });

  it.each(['garbage', Buffer.from('o:2').toString('base64url'), 'dDEuMS5h', `${'A'.repeat(70)}`])(
    'refuses tasks://all?cursor=%s with invalid params (-32602) that says where to start',
    async (cursor) => {
      for (const title of ['a', 'b']) await store.add('', title);
      const error = await conn.client
        .readResource({ uri: `tasks://all?cursor=${cursor}` })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32602 });
      expect((error as Error).message).toMatch(
        /Invalid cursor in tasks:\/\/all\?cursor=…: read tasks:\/\/all for the first page/,
      );
    },
  );

  it.each([
    'tasks://0',
    'tasks://-1',
    'tasks://01',
    'tasks://1e3',
    'tasks://%31',
    'tasks://2147483649',
    'tasks://1/../2',
    'tasks://../../etc/passwd',
    'tasks://1;DROP TABLE tasks',
  ])('refuses the malformed task URI %s as not found', async (uri) => {
    await store.add('', 'one');
    await store.add('', 'two');
    const error = await conn.client.readResource({ uri }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, data: { uri: expect.any(String) } });
  });
});

describe('task resources, per owner and scope (sign-in on)', () => {
  let dir: string;
  let store: TodoStore;
  const open: Connected[] = [];
  const ALICE = 'sub:alice';

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'task-resources-owners-'));
    store = openTodoStore({ dataDir: dir, logger: createSilentLogger() });
  });
  afterEach(async () => {
    for (const conn of open.splice(0)) await conn.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const as = async (authInfo: AuthInfo) => {
    const conn = await connectInMemory(testDeps({ todos: store }), { authInfo });
    open.push(conn);
    return conn.client;
  };
  const bob = () => as(tokenFor('bob', [TASKS_READ]));
  const text = (contents: unknown[]) => (contents[0] as { text: string }).text;

  it("reads tasks://all as the caller's tasks only", async () => {
    await store.add(ALICE, 'hers');
    const mine = await store.add('sub:bob', 'his');
    const { contents } = await (await bob()).readResource({ uri: 'tasks://all' });
    expect(JSON.parse(text(contents))).toEqual({ items: [mine], count: 1 });
  });

  it("refuses another user's tasks://all cursor exactly as garbage, with nothing of theirs", async () => {
    for (let n = 1; n <= DEFAULT_TODO_PAGE_SIZE + 1; n++) await store.add(ALICE, `hers ${n}`);
    for (let n = 1; n <= DEFAULT_TODO_PAGE_SIZE + 1; n++) await store.add('sub:bob', `his ${n}`);
    const alice = await as(tokenFor('alice', [TASKS_READ]));
    const hers = JSON.parse(text((await alice.readResource({ uri: 'tasks://all' })).contents)).nextCursor;
    const client = await bob();
    const theirs = await client
      .readResource({ uri: `tasks://all?cursor=${hers}` })
      .catch((error: unknown) => error);
    const garbage = await client
      .readResource({ uri: 'tasks://all?cursor=garbage' })
      .catch((error: unknown) => error);
    expect(theirs).toMatchObject({ code: -32602 });
    expect((theirs as Error).message).toBe((garbage as Error).message);
    expect(JSON.stringify(theirs)).not.toContain('hers');
  });

  it("answers another user's tasks://<id> exactly like one that does not exist", async () => {
    const hers = await store.add(ALICE, 'hers');
    const client = await bob();
    const theirs = await client.readResource({ uri: `tasks://${hers.id}` }).catch((error: unknown) => error);
    const missing = await client.readResource({ uri: 'tasks://999' }).catch((error: unknown) => error);
    expect(theirs).toMatchObject({ code: -32602, data: { uri: `tasks://${hers.id}` } });
    expect((theirs as Error).message).toBe((missing as Error).message.replaceAll('999', String(hers.id)));
    expect(JSON.stringify(theirs)).not.toContain('hers');
  });

  it("lists and completes only the caller's tasks", async () => {
    // Ids count per owner, so Alice's second task has an id Bob's list does not.
    await store.add(ALICE, 'hers first');
    const hers = await store.add(ALICE, 'hers');
    const his = await store.add('sub:bob', 'his');
    const client = await bob();
    const { resources } = await client.listResources();
    expect(resources.filter((resource) => /^tasks:\/\/\d+$/.test(resource.uri)).map((r) => r.uri)).toEqual([
      `tasks://${his.id}`,
    ]);
    const { completion } = await client.complete({
      ref: { type: 'ref/resource', uri: 'tasks://{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.values).toEqual([String(his.id)]);
    expect(completion.values).not.toContain(String(hers.id));
  });

  it('refuses to read a task resource without tasks:read, naming the scope and no task data', async () => {
    const hers = await store.add(ALICE, 'secret title');
    const writer = await as(tokenFor('alice', [TASKS_WRITE]));
    for (const uri of ['tasks://all', `tasks://${hers.id}`, 'tasks://999']) {
      const error = await writer.readResource({ uri }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32600 });
      expect((error as Error).message).toMatch(/needs the OAuth scope tasks:read/);
      expect(JSON.stringify(error)).not.toContain('secret');
    }
  });

  it('lists and completes no tasks without tasks:read, but still lists the other resources', async () => {
    await store.add(ALICE, 'secret title');
    const writer = await as(tokenFor('alice', [TASKS_WRITE]));
    const { resources } = await writer.listResources();
    expect(resources.some((resource) => /^tasks:\/\/\d+$/.test(resource.uri))).toBe(false);
    expect(resources.map((resource) => resource.uri)).toContain('tasks://all');
    const { completion } = await writer.complete({
      ref: { type: 'ref/resource', uri: 'tasks://{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.values).toEqual([]);
  });
});
