import type { Todo } from '@mcp-workshop/task-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Connected, connectInMemory } from '../test-support/in-memory.js';
import { MAX_REVIEW_TODOS } from './review-tasks.js';
import { createPromptFixture, type PromptFixture } from './test-support/fixture.js';

interface Snapshot {
  status: string;
  total: number;
  shown: number;
  tasks: Todo[];
}

describe('review_tasks', () => {
  let fixture: PromptFixture;
  let conn: Connected;
  beforeEach(async () => {
    fixture = createPromptFixture();
    conn = await connectInMemory(fixture.deps);
  });
  afterEach(async () => {
    await conn.close();
    fixture.cleanup();
  });

  const get = async (args: Record<string, string> = {}) => {
    const result = await conn.client.getPrompt({ name: 'review_tasks', arguments: args });
    const texts = result.messages.map((message) =>
      message.content.type === 'text' ? message.content.text : '',
    );
    const json = /```json\n([\s\S]*)\n```/.exec(texts[0] ?? '')?.[1] ?? '';
    return { result, snapshot: JSON.parse(json) as Snapshot, ask: texts[1] ?? '' };
  };
  const addTasks = async (...titles: string[]) => {
    const tasks = [];
    for (const title of titles) tasks.push(await fixture.deps.todos.add('', title));
    return tasks;
  };

  it('embeds every task as JSON and asks which to complete when no status is given', async () => {
    const [first, second] = await addTasks('Book flights', 'Pack bags');
    await fixture.deps.todos.complete('', second?.id ?? 0);
    const { result, snapshot, ask } = await get();
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'user']);
    expect(snapshot).toMatchObject({ status: 'all', total: 2, shown: 2 });
    expect(snapshot.tasks).toEqual(await fixture.deps.todos.list('', 'all'));
    expect(snapshot.tasks[0]).toMatchObject({ id: first?.id, title: 'Book flights', done: false });
    expect(ask).toMatch(/to do next/);
    expect(ask).toMatch(/complete_task/);
  });

  it('embeds only open tasks when status is "open"', async () => {
    const [, done] = await addTasks('Book flights', 'Pack bags');
    await fixture.deps.todos.complete('', done?.id ?? 0);
    const { snapshot } = await get({ status: 'open' });
    expect(snapshot.tasks.map((task) => task.title)).toEqual(['Book flights']);
  });

  it('asks for a retrospective instead of completions when status is "done"', async () => {
    const [task] = await addTasks('Book flights');
    await fixture.deps.todos.complete('', task?.id ?? 0);
    const { snapshot, ask } = await get({ status: 'done' });
    expect(snapshot.total).toBe(1);
    expect(ask).toMatch(/finished tasks/);
    expect(ask).not.toMatch(/complete_task/);
  });

  it('suggests add_task when there are no tasks', async () => {
    const { snapshot, ask } = await get({ status: 'open' });
    expect(snapshot).toMatchObject({ total: 0, tasks: [] });
    expect(ask).toMatch(/^The list has no open tasks\..*add_task/);
  });

  it('adds the focus to the request, line breaks included', async () => {
    await addTasks('Book flights');
    const { ask } = await get({ focus: '  the trip to Oslo\nand packing ' });
    expect(ask).toMatch(/Focus on this: the trip to Oslo\nand packing$/);
  });

  it('embeds at most MAX_REVIEW_TODOS tasks and says how many were left out', async () => {
    await addTasks(...Array.from({ length: MAX_REVIEW_TODOS + 5 }, (_, i) => `task ${i + 1}`));
    const { result, snapshot } = await get();
    expect(snapshot).toMatchObject({ total: MAX_REVIEW_TODOS + 5, shown: MAX_REVIEW_TODOS });
    expect(snapshot.tasks).toHaveLength(MAX_REVIEW_TODOS);
    const first = result.messages[0]?.content;
    expect(first?.type === 'text' ? first.text : '').toMatch(
      new RegExp(
        `Only the first ${MAX_REVIEW_TODOS} of ${MAX_REVIEW_TODOS + 5} tasks are shown; call list_tasks`,
      ),
    );
  });

  it.each([
    ['status is not a choice', { status: 'bogus' }],
    ['status is in upper case', { status: 'OPEN' }],
    ['status is a prototype key', { status: '__proto__' }],
    ['focus is oversized', { focus: 'x'.repeat(10_000) }],
    ['focus has a null byte', { focus: 'trip\u0000' }],
  ])('answers -32602 when %s', async (_label, args) => {
    await expect(conn.client.getPrompt({ name: 'review_tasks', arguments: args })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('completes status from its three values', async () => {
    const complete = async (value: string) =>
      (
        await conn.client.complete({
          ref: { type: 'ref/prompt', name: 'review_tasks' },
          argument: { name: 'status', value },
        })
      ).completion.values;
    expect(await complete('')).toEqual(['all', 'open', 'done']);
    expect(await complete('o')).toEqual(['open']);
    expect(await complete('D')).toEqual(['done']);
    expect(await complete('x')).toEqual([]);
  });

  it('offers no completions for the free-text focus', async () => {
    const { completion } = await conn.client.complete({
      ref: { type: 'ref/prompt', name: 'review_tasks' },
      argument: { name: 'focus', value: 'tr' },
    });
    expect(completion).toEqual({ values: [], hasMore: false });
  });
});
