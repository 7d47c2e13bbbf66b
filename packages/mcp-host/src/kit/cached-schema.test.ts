import { completable, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { connectInProcess } from '../in-process.js';
import { rawConnections } from '../raw-rpc.js';
import { cacheJsonSchema, lazyJsonSchema } from './cached-schema.js';

/** A schema that uses the features whose JSON Schema could drift: defaults, formats, nullables, nesting. */
const richInput = () =>
  z.object({
    name: z.string().min(1).max(40).describe('A name.'),
    count: z.number().int().min(1).max(9).default(3).describe('How many; defaults to 3.'),
    kind: z.enum(['a', 'b']).optional(),
    note: z.string().nullable().optional(),
    code: z.string().regex(/^[a-z]{2}$/),
    nested: z.object({ at: z.iso.datetime(), tags: z.array(z.string()).max(5) }).optional(),
  });

const promptArgs = () =>
  z.object({
    city: completable(z.string().describe('A city.'), (value: string) =>
      ['Oslo', 'Osaka'].filter((city) => city.startsWith(value)),
    ),
    days: z.enum(['1', '2']).optional().describe('Days.'),
  });

const ok = { content: [] };
const noPrompt = () => ({ messages: [] });

function newServer(): McpServer {
  return new McpServer({ name: 'cached-schema-test', version: '0.0.0' });
}

describe('cacheJsonSchema', () => {
  const connections = rawConnections();
  afterEach(async () => {
    await connections.closeAll();
  });
  const raw = connections.connect;

  it('lists byte for byte what the SDK lists for the bare zod schema', async () => {
    const bare = newServer();
    bare.registerTool('t', { inputSchema: richInput() }, () => ok);
    bare.registerPrompt('p', { argsSchema: promptArgs() }, noPrompt);
    const cached = newServer();
    cached.registerTool('t', { inputSchema: cacheJsonSchema(richInput()) }, () => ok);
    cached.registerPrompt('p', { argsSchema: cacheJsonSchema(promptArgs()) }, noPrompt);
    const [a, b] = [await raw(bare), await raw(cached)];
    for (const method of ['tools/list', 'prompts/list']) {
      expect(JSON.stringify(await b.request(method))).toBe(JSON.stringify(await a.request(method)));
    }
  });

  it('converts once, however many servers and lists ask, where the bare schema converts every time', async () => {
    const bareSchema = richInput();
    const bareConversions = vi.spyOn(bareSchema['~standard'].jsonSchema, 'input');
    const zodSchema = richInput();
    const conversions = vi.spyOn(zodSchema['~standard'].jsonSchema, 'input');
    const inputSchema = cacheJsonSchema(zodSchema);
    for (let i = 0; i < 3; i++) {
      const server = newServer();
      server.registerTool('t', { inputSchema }, () => ok);
      server.registerTool('bare', { inputSchema: bareSchema }, () => ok);
      const rpc = await raw(server);
      await rpc.request('tools/list');
      await rpc.request('tools/list');
      // What the 2026-07-28 endpoint asks before every tools/call.
      expect(server.toolInputSchemaJson('t')).toMatchObject({ type: 'object' });
    }
    expect(conversions).toHaveBeenCalledTimes(1);
    expect(bareConversions.mock.calls.length).toBeGreaterThanOrEqual(6);
  });

  it('still validates with zod: applies defaults and rejects bad arguments', async () => {
    const server = newServer();
    const seen: unknown[] = [];
    server.registerTool('t', { inputSchema: cacheJsonSchema(richInput()) }, (args) => {
      seen.push(args);
      return ok;
    });
    const { client, close } = await connectInProcess(server);
    try {
      await client.callTool({ name: 't', arguments: { name: 'x', code: 'ab' } });
      expect(seen).toEqual([{ name: 'x', code: 'ab', count: 3 }]);
      const bad = await client.callTool({ name: 't', arguments: { name: 'x', code: 'ABC' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/Input validation error/);
      expect(seen).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('keeps the shape, so prompt completion still finds completable arguments', async () => {
    const server = newServer();
    server.registerPrompt('p', { argsSchema: cacheJsonSchema(promptArgs()) }, noPrompt);
    const { client, close } = await connectInProcess(server);
    try {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'p' },
        argument: { name: 'city', value: 'Os' },
      });
      expect(completion.values).toEqual(['Oslo', 'Osaka']);
    } finally {
      await close();
    }
  });

  it('converts afresh for a target other than the one the SDK asks for', () => {
    const zodSchema = richInput();
    const conversions = vi.spyOn(zodSchema['~standard'].jsonSchema, 'input');
    const convert = cacheJsonSchema(zodSchema)['~standard'].jsonSchema.input;
    expect(convert({ target: 'draft-07' }).$schema).toBe('http://json-schema.org/draft-07/schema#');
    convert({ target: 'draft-07' });
    expect(conversions).toHaveBeenCalledTimes(2);
    expect(convert({ target: 'draft-2020-12' })).toBe(convert({ target: 'draft-2020-12' }));
    expect(conversions).toHaveBeenCalledTimes(3);
  });

  it('freezes the shared JSON Schema, so no consumer can change what later lists show', () => {
    const json = cacheJsonSchema(richInput())['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    expect(Object.isFrozen(json)).toBe(true);
    expect(Object.isFrozen(json.properties)).toBe(true);
    expect(() => {
      (json.properties as Record<string, unknown>).injected = {};
    }).toThrow(TypeError);
  });
});

describe('lazyJsonSchema', () => {
  const json = {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 0 } },
    required: ['n'],
  } as const;

  it('converts nothing until asked, then once, and hands out the same object', () => {
    const compute = vi.fn(() => ({ ...json }));
    const schema = lazyJsonSchema<{ n: number }>(compute);
    expect(compute).not.toHaveBeenCalled();
    const std = schema['~standard'];
    const first = std.jsonSchema.output({ target: 'draft-2020-12' });
    expect(std.jsonSchema.input({ target: 'draft-2020-12' })).toBe(first);
    std.validate({ n: 1 });
    std.validate({ n: 2 });
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('validates like fromJsonSchema: passes good values through, reports bad ones', () => {
    const { validate } = lazyJsonSchema<{ n: number }>(() => ({ ...json }))['~standard'];
    expect(validate({ n: 1 })).toEqual({ value: { n: 1 } });
    expect(validate({ n: -1 })).toMatchObject({ issues: [{ message: expect.stringMatching(/>= 0/) }] });
    expect(validate({})).toMatchObject({ issues: [{ message: expect.stringMatching(/required/) }] });
  });
});
