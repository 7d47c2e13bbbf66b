import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { ContentBlockSchema } from '@mcp-workshop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../test-support/server.js';
import { prompts } from './index.js';
import { createPromptFixture, type PromptFixture } from './test-support/fixture.js';

describe('registerPrompts', () => {
  let fixture: PromptFixture;
  let close: (() => Promise<void>) | undefined;
  beforeEach(() => {
    fixture = createPromptFixture();
  });
  afterEach(async () => {
    await close?.();
    fixture.cleanup();
  });

  const connect = async (pageSize?: number) => {
    const connection = await connectInProcess(
      createMcpServer(fixture.deps, pageSize === undefined ? {} : { pageSize }),
    );
    close = connection.close;
    return connection.client;
  };

  it('declares prompts with listChanged false and completions in initialize', async () => {
    const client = await connect();
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.prompts).toEqual({ listChanged: false });
    expect(capabilities?.completions).toEqual({});
  });

  it('lists every prompt with a title, a description and described arguments with required flags', async () => {
    const client = await connect();
    const { prompts: listed, nextCursor } = await client.listPrompts();
    expect(nextCursor).toBeUndefined();
    expect(listed.map((prompt) => prompt.name)).toEqual(prompts.map((prompt) => prompt.name));
    expect(
      listed.map((prompt) => [prompt.name, prompt.arguments?.map(({ name, required }) => [name, required])]),
    ).toEqual([
      [
        'plan_trip',
        [
          ['city', true],
          ['days', false],
        ],
      ],
      [
        'review_tasks',
        [
          ['status', false],
          ['focus', false],
        ],
      ],
      ['explain_task', [['id', true]]],
    ]);
    for (const prompt of listed) {
      expect(prompt.name).toMatch(/^[a-z_]{1,64}$/);
      expect(prompt.title?.length).toBeGreaterThan(0);
      expect(prompt.description?.length).toBeGreaterThan(20);
      for (const argument of prompt.arguments ?? []) expect(argument.description?.length).toBeGreaterThan(10);
    }
  });

  it('returns user messages with valid content blocks from every prompt', async () => {
    const task = await fixture.deps.todos.add('', 'Book flights');
    const client = await connect();
    const args: Record<string, Record<string, string>> = {
      plan_trip: { city: 'Oslo' },
      review_tasks: {},
      explain_task: { id: String(task.id) },
    };
    for (const { name } of prompts) {
      const result = await client.getPrompt({ name, arguments: args[name] ?? {} });
      expect(result.messages.length).toBeGreaterThan(0);
      for (const message of result.messages) {
        expect(['user', 'assistant']).toContain(message.role);
        expect(ContentBlockSchema.safeParse(message.content).success).toBe(true);
      }
    }
  });

  it('answers -32602 for a prompt it does not have', async () => {
    const client = await connect();
    await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: '__proto__' })).rejects.toMatchObject({ code: -32602 });
  });

  // SDK 2.4.0 answered -32603 here (typescript-sdk #2284); our SDK patch fixes it. dev/host-integration's
  // sdk-patch.test.ts tests the patch itself and names the patch file and SDK version when it is missing.
  it('answers -32602 when an argument is not a string', async () => {
    const client = await connect();
    const error: unknown = await client
      .request({
        method: 'prompts/get',
        params: { name: 'plan_trip', arguments: { city: 42 } as unknown as Record<string, string> },
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(
      (error as { code?: unknown } | undefined)?.code,
      'the SDK patch (series 01) is not applied: see patches/README.md',
    ).toBe(-32602);
  });

  it('answers a JSON-RPC error and keeps serving when an argument is not a string', async () => {
    const client = await connect();
    const request = client.request({
      method: 'prompts/get',
      params: { name: 'plan_trip', arguments: { city: 42 } as unknown as Record<string, string> },
    });
    await expect(request).rejects.toMatchObject({ code: expect.any(Number) });
    await expect(client.getPrompt({ name: 'plan_trip', arguments: { city: 'Oslo' } })).resolves.toBeDefined();
  });

  it('answers completion/complete -32602 for an unknown prompt and nothing for an unknown argument', async () => {
    const client = await connect();
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'city', value: 'o' } }),
    ).rejects.toMatchObject({ code: -32602 });
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'nope', value: 'o' },
    });
    expect(completion).toEqual({ values: [], hasMore: false });
  });

  it('answers completion/complete for resource templates through the same handler', async () => {
    const task = await fixture.deps.todos.add('', 'Book flights');
    const client = await connect();
    const { completion } = await client.complete({
      ref: { type: 'ref/resource', uri: 'tasks://{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(completion.values).toEqual([String(task.id)]);
  });

  it('pages prompts/list one at a time through nextCursor, with no duplicates', async () => {
    const client = await connect(1);
    const names: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      // listPrompts() without a cursor walks every page itself, so ask for the first page by hand.
      const page = cursor
        ? await client.listPrompts({ cursor })
        : await client.request({ method: 'prompts/list', params: {} });
      expect(page.prompts).toHaveLength(1);
      names.push(...page.prompts.map((prompt) => prompt.name));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(names).toEqual(prompts.map((prompt) => prompt.name));
  });

  it('answers -32602 for a prompts/list cursor it did not issue', async () => {
    const client = await connect(1);
    await expect(client.listPrompts({ cursor: '%%bad' })).rejects.toMatchObject({ code: -32602 });
  });
});
