/**
 * @module protocol-suite/cases/prompts
 * Prompt and completion cases: list, get, the -32602 cases, completion values and the
 * capability/method agreement. Checklist §6, §7 U4 and §9 rows 57–60, 63, 64, 67.
 */
import { expect } from 'vitest';
import type { ProtocolClient } from '../client.js';
import {
  expectContentBlock,
  expectResultFor,
  expectRpcError,
  listAll,
  type ProtocolCase,
} from '../harness.js';
import { ALL, isModern } from '../revisions.js';

type Obj = Record<string, unknown>;

/** The spec's cap on completion values per answer. */
const MAX_COMPLETION_VALUES = 100;

function requiredArgs(prompt: Obj): string[] {
  return ((prompt.arguments ?? []) as Obj[])
    .filter((arg) => arg.required === true)
    .map((arg) => String(arg.name));
}

/** The first completion value for a prompt argument, or undefined. */
async function firstCompletion(
  client: ProtocolClient,
  prompt: string,
  argument: string,
): Promise<string | undefined> {
  const reply = await client.request('completion/complete', {
    ref: { type: 'ref/prompt', name: prompt },
    argument: { name: argument, value: '' },
  });
  const values = (reply.response?.result?.completion as Obj | undefined)?.values as string[] | undefined;
  return values?.[0];
}

function expectCompletion(result: Obj, label: string): void {
  const completion = result.completion as Obj;
  expect(Array.isArray(completion?.values), label).toBe(true);
  const values = completion.values as unknown[];
  expect(values.length, label).toBeLessThanOrEqual(MAX_COMPLETION_VALUES);
  for (const value of values) expect(typeof value, label).toBe('string');
  if ('total' in completion) expect(Number.isInteger(completion.total), label).toBe(true);
  if ('hasMore' in completion) expect(typeof completion.hasMore, label).toBe('boolean');
}

export const promptCases: ProtocolCase[] = [
  {
    item: 'P2',
    source: '§9 #57',
    title: 'prompts/list → prompts[] with names; arguments[] with names (2026-07-28: ttlMs, cacheScope)',
    revisions: ALL,
    async run(ctx) {
      const { items } = await listAll(ctx.client, 'prompts/list', 'prompts');
      expect(items.length).toBeGreaterThan(0);
      for (const prompt of items) {
        expect(typeof prompt.name).toBe('string');
        for (const arg of (prompt.arguments ?? []) as Obj[]) {
          expect(typeof arg.name).toBe('string');
          if ('required' in arg) expect(typeof arg.required).toBe('boolean');
        }
      }
      if (isModern(ctx.rev)) {
        const first = expectResultFor(ctx.rev, await ctx.client.request('prompts/list'));
        expect(typeof first.ttlMs).toBe('number');
        expect(['public', 'private']).toContain(first.cacheScope);
      }
    },
  },
  {
    item: 'P3',
    source: '§9 #58',
    title: 'prompts/get with valid arguments → messages[] with role user/assistant and valid content',
    revisions: ALL,
    async run(ctx) {
      let tried = 0;
      for (const prompt of (await listAll(ctx.client, 'prompts/list', 'prompts')).items) {
        const args: Record<string, string> = {};
        for (const name of requiredArgs(prompt)) {
          const value = await firstCompletion(ctx.client, String(prompt.name), name);
          if (value !== undefined) args[name] = value;
        }
        if (Object.keys(args).length < requiredArgs(prompt).length) continue;
        tried += 1;
        const reply = await ctx.client.request('prompts/get', { name: prompt.name, arguments: args });
        const result = expectResultFor(ctx.rev, reply);
        const messages = result.messages as Obj[];
        expect(messages.length, String(prompt.name)).toBeGreaterThan(0);
        for (const message of messages) {
          expect(['user', 'assistant']).toContain(message.role);
          expectContentBlock(ctx.rev, message.content as Obj);
        }
      }
      expect(
        tried,
        'no prompt could be called: none without required arguments, none completable',
      ).toBeGreaterThan(0);
    },
  },
  {
    item: 'P4',
    source: '§9 #59',
    title: 'prompts/get of unknown prompt "nope" → -32602',
    revisions: ALL,
    async run(ctx) {
      expectRpcError(await ctx.client.request('prompts/get', { name: 'nope' }), [-32602]);
      await ctx.expectAlive();
    },
  },
  {
    item: 'P4',
    source: '§9 #60',
    title: 'prompts/get missing a required argument → -32602',
    revisions: ALL,
    async run(ctx) {
      const { items } = await listAll(ctx.client, 'prompts/list', 'prompts');
      const prompt = items.find((item) => requiredArgs(item).length > 0);
      expect(prompt, 'no prompt has a required argument').toBeDefined();
      expectRpcError(
        await ctx.client.request('prompts/get', { name: prompt?.name, arguments: {} }),
        [-32602],
      );
      await ctx.expectAlive();
    },
  },
  {
    item: 'U4',
    source: '§9 #63',
    title: 'completion/complete for every prompt argument and template variable → ≤ 100 string values',
    revisions: ALL,
    async run(ctx) {
      let asked = 0;
      for (const prompt of (await listAll(ctx.client, 'prompts/list', 'prompts')).items) {
        for (const arg of (prompt.arguments ?? []) as Obj[]) {
          const reply = await ctx.client.request('completion/complete', {
            ref: { type: 'ref/prompt', name: prompt.name },
            argument: { name: arg.name, value: '' },
          });
          expectCompletion(expectResultFor(ctx.rev, reply), `${prompt.name}.${arg.name}`);
          asked += 1;
        }
      }
      for (const template of (await listAll(ctx.client, 'resources/templates/list', 'resourceTemplates'))
        .items) {
        const variable = /\{([^}]+)\}/.exec(String(template.uriTemplate))?.[1]?.replace(/^[+#./;?&]/, '');
        if (!variable) continue;
        const reply = await ctx.client.request('completion/complete', {
          ref: { type: 'ref/resource', uri: template.uriTemplate },
          argument: { name: variable, value: '' },
        });
        expectCompletion(expectResultFor(ctx.rev, reply), String(template.uriTemplate));
        asked += 1;
      }
      expect(asked).toBeGreaterThan(0);
    },
  },
  {
    item: 'U4',
    source: '§9 #64',
    title: 'completion/complete is -32601 exactly when the completions capability is absent',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'nope' },
        argument: { name: 'x', value: '' },
      });
      const declared = ctx.client.serverCapabilities.completions !== undefined;
      // Declared: the method exists, so an unknown prompt is invalid params, not an unknown method.
      expectRpcError(reply, declared ? [-32602] : [-32601]);
      await ctx.expectAlive();
    },
  },
  {
    item: 'L4',
    source: '§9 #67',
    title: 'prompts/list is -32601 exactly when the prompts capability is absent',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('prompts/list');
      if (ctx.client.serverCapabilities.prompts !== undefined) expectResultFor(ctx.rev, reply);
      else expectRpcError(reply, [-32601]);
    },
  },
];
