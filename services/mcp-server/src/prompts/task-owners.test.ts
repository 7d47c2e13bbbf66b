/**
 * The task prompts with sign-in on: `review_tasks` embeds, and `explain_task` finds and completes,
 * only the caller's own tasks, and both refuse a token without `tasks:read` themselves, before any
 * task is read. Each user is a real in-process client whose requests carry that user's token.
 * Partners: `review-tasks.ts`, `explain-task.ts`, `define-prompt.ts` (`promptCaller`).
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASKS_READ, TASKS_WRITE } from '../deps.js';
import { type Connected, connectInMemory, tokenFor } from '../test-support/in-memory.js';
import { createPromptFixture, type PromptFixture } from './test-support/fixture.js';

const ALICE = 'sub:alice';

describe('task prompts, per owner and scope', () => {
  let fixture: PromptFixture;
  const open: Connected[] = [];
  beforeEach(() => {
    fixture = createPromptFixture();
  });
  afterEach(async () => {
    for (const conn of open.splice(0)) await conn.close();
    fixture.cleanup();
  });

  const as = async (authInfo: AuthInfo) => {
    const conn = await connectInMemory(fixture.deps, { authInfo });
    open.push(conn);
    return conn.client;
  };
  const bob = () => as(tokenFor('bob', [TASKS_READ]));

  it("embeds only the caller's tasks in review_tasks", async () => {
    await fixture.deps.todos.add(ALICE, 'her secret plan');
    const his = await fixture.deps.todos.add('sub:bob', 'his errand');
    const result = await (await bob()).getPrompt({ name: 'review_tasks', arguments: {} });
    const all = JSON.stringify(result);
    expect(all).toContain('his errand');
    expect(all).not.toContain('her secret plan');
    expect(result.description).toBe('Review of 1 task(s).');
    expect(all).toContain(`\\"id\\": ${his.id}`);
  });

  it("answers explain_task for another user's task exactly like a missing one", async () => {
    const hers = await fixture.deps.todos.add(ALICE, 'her secret plan');
    const client = await bob();
    const error = await client
      .getPrompt({ name: 'explain_task', arguments: { id: String(hers.id) } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toMatch(new RegExp(`No task with id ${hers.id}\\.`));
    expect(JSON.stringify(error)).not.toContain('secret');
  });

  it("completes explain_task ids from the caller's tasks only", async () => {
    await fixture.deps.todos.add(ALICE, 'hers');
    const his = await fixture.deps.todos.add('sub:bob', 'his');
    const { completion } = await (await bob()).complete({
      ref: { type: 'ref/prompt', name: 'explain_task' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.values).toEqual([String(his.id)]);
  });

  it.each(['review_tasks', 'explain_task'])(
    'refuses %s to a token without tasks:read with a JSON-RPC error naming the scope',
    async (name) => {
      const hers = await fixture.deps.todos.add(ALICE, 'her secret plan');
      const writer = await as(tokenFor('alice', [TASKS_WRITE]));
      const error = await writer
        .getPrompt({ name, arguments: name === 'explain_task' ? { id: String(hers.id) } : {} })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32600 });
      expect((error as Error).message).toBe(
        `Prompt ${name} needs the OAuth scope tasks:read, which this sign-in did not grant. Sign in again and grant tasks:read.`,
      );
      expect(JSON.stringify(error)).not.toContain('secret');
    },
  );

  it('completes no explain_task ids without tasks:read', async () => {
    await fixture.deps.todos.add(ALICE, 'hers');
    const writer = await as(tokenFor('alice', [TASKS_WRITE]));
    const { completion } = await writer.complete({
      ref: { type: 'ref/prompt', name: 'explain_task' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.values).toEqual([]);
  });

  it("still completes review_tasks' status, which reads no tasks, without tasks:read", async () => {
    const writer = await as(tokenFor('alice', [TASKS_WRITE]));
    const { completion } = await writer.complete({
      ref: { type: 'ref/prompt', name: 'review_tasks' },
      argument: { name: 'status', value: 'o' },
    });
    expect(completion.values).toEqual(['open']);
  });
});
