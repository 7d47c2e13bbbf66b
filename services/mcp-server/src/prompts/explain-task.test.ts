import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory } from '../test-support/in-memory.js';
import { createPromptFixture, type PromptFixture } from './test-support/fixture.js';

describe('explain_task', () => {
  let fixture: PromptFixture;
  let conn: Connected;
  beforeEach(() => {
    fixture = createPromptFixture();
  });
  afterEach(async () => {
    await conn?.close();
    fixture.cleanup();
  });

  const connect = async (deps = fixture.deps) => {
    conn = await connectInMemory(deps);
    return conn.client;
  };
  const get = async (id: string) => (await connect()).getPrompt({ name: 'explain_task', arguments: { id } });
  const complete = async (value: string, deps = fixture.deps) =>
    (
      await (
        await connect(deps)
      ).complete({
        ref: { type: 'ref/prompt', name: 'explain_task' },
        argument: { name: 'id', value },
      })
    ).completion;

  it('embeds an open task as a tasks://<id> resource and offers complete_task', async () => {
    await fixture.deps.todos.add('', 'Book flights');
    const task = await fixture.deps.todos.add('', 'Renew passport');
    const result = await get(String(task.id));
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'user']);
    const [embedded, ask] = result.messages.map((message) => message.content);
    expect(embedded).toMatchObject({
      type: 'resource',
      resource: { uri: `tasks://${task.id}`, mimeType: 'application/json' },
    });
    const text = embedded?.type === 'resource' && 'text' in embedded.resource ? embedded.resource.text : '';
    expect(JSON.parse(text)).toEqual(task);
    expect(ask?.type === 'text' ? ask.text : '').toMatch(
      new RegExp(`^Explain task ${task.id} above: .*still open.*complete_task`),
    );
  });

  it('embeds exactly what resources/read answers for the same tasks://<id>', async () => {
    const task = await fixture.deps.todos.add('', 'Renew passport');
    const client = await connect();
    const prompt = await client.getPrompt({ name: 'explain_task', arguments: { id: String(task.id) } });
    const { contents } = await client.readResource({ uri: `tasks://${task.id}` });
    expect(prompt.messages[0]?.content).toEqual({ type: 'resource', resource: contents[0] });
  });

  it('asks about follow-ups instead when the task is done', async () => {
    const task = await fixture.deps.todos.add('', 'Renew passport');
    const done = await fixture.deps.todos.complete('', task.id);
    const result = await get(String(task.id));
    const ask = result.messages[1]?.content;
    expect(ask?.type === 'text' ? ask.text : '').toContain(`It was completed at ${done?.completedAt}`);
  });

  it('answers -32602 pointing at completion when no task has the id', async () => {
    await expect(get('999')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('No task with id 999. Complete the id argument'),
    });
  });

  it.each([
    ['zero', '0'],
    ['negative', '-1'],
    ['a fraction', '1.5'],
    ['a word', 'three'],
    ['empty', ''],
    ['padded', ' 1'],
    ['beyond a safe integer', '9'.repeat(16)],
    ['oversized', '1'.repeat(10_000)],
    ['a null byte', '1\u0000'],
    ['a prototype key', '__proto__'],
  ])('answers -32602 when the id is %s', async (_label, id) => {
    await fixture.deps.todos.add('', 'Book flights');
    await expect(get(id)).rejects.toMatchObject({ code: -32602 });
  });

  it('answers -32602 when the id argument is missing', async () => {
    const client = await connect();
    await expect(client.getPrompt({ name: 'explain_task', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('completes ids that start with the typed digits, oldest first', async () => {
    for (let i = 1; i <= 12; i++) await fixture.deps.todos.add('', `task ${i}`);
    expect(await complete('1')).toEqual({ values: ['1', '10', '11', '12'], total: 4, hasMore: false });
    expect((await complete('7')).values).toEqual(['7']);
    expect((await complete('x')).values).toEqual([]);
  });

  it('returns the first 100 ids with hasMore when there are more', async () => {
    for (let i = 1; i <= 150; i++) await fixture.deps.todos.add('', `task ${i}`);
    const completion = await complete('');
    expect(completion.values).toHaveLength(100);
    expect(completion.values[0]).toBe('1');
    expect(completion.values.every((value) => typeof value === 'string')).toBe(true);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it('returns no ids instead of an error when the store fails', async () => {
    const failing = {
      ...fixture.deps,
      tasks: {
        ...fixture.deps.todos,
        list: () => {
          throw new Error('database is locked');
        },
      },
    };
    expect(await complete('', failing)).toEqual({ values: [], total: 0, hasMore: false });
  });
});
