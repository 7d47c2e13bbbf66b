/**
 * `defineTool`'s schemas: what `tools/list` shows, that it is computed once per process, and that
 * every check still runs on every call. Partner: `define-tool.ts` (logging: `logging.test.ts`).
 */

import { connectInProcess, rawConnections } from '@mcp-workshop/mcp-host/in-process';
import { portableJsonSchema, REQUIRED_SCOPES_META_KEY } from '@mcp-workshop/mcp-host/kit';
import { ok } from '@mcp-workshop/shared';
import { fromJsonSchema, type JsonSchemaType, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../deps.js';
import { connectAs, registerContext, testDeps, tokenFor } from '../test-support/in-memory.js';
import { createMcpServer } from '../test-support/server.js';
import { tools } from './index.js';

const input = z.object({
  text: z.string().min(1).max(20).describe('Some text.'),
  times: z.number().int().min(1).max(5).default(2).describe('How often; defaults to 2.'),
  mode: z.enum(['plain', 'loud']).optional().describe('How.'),
});
const output = z.object({
  echoed: z.string().describe('The text, repeated.'),
  length: z.number().int().min(0).describe('Its length; never negative.'),
  note: z.string().nullable().describe('Null unless loud.'),
});
const spec = {
  name: 'echo',
  title: 'Echo',
  description: 'Repeats text.',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

const seen: unknown[] = [];
const echo = defineTool({
  ...spec,
  input,
  output,
  async run(args) {
    seen.push(args);
    const echoed = args.text.repeat(args.times);
    // A negative length is the bug the output schema exists to catch.
    return ok({ echoed, length: args.text === 'bug' ? -1 : echoed.length, note: null });
  },
});

function server(): McpServer {
  return new McpServer({ name: 'define-tool-test', version: '0.0.0' });
}

describe('defineTool', () => {
  const connections = rawConnections();
  afterEach(async () => {
    await connections.closeAll();
    seen.length = 0;
  });
  const raw = connections.connect;

  it('lists a tool byte for byte as the SDK lists its bare zod input and JSON output schema', async () => {
    // What defineTool registered before its schemas were cached.
    const reference = server();
    reference.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: input,
        outputSchema: fromJsonSchema(
          portableJsonSchema(z.toJSONSchema(output, { io: 'output' })) as JsonSchemaType,
        ),
        annotations: { title: spec.title, ...spec.annotations },
        // The scopes a call needs when sign-in is on (none here), as defineTool publishes them.
        _meta: { [REQUIRED_SCOPES_META_KEY]: [] },
      },
      () => ok({ echoed: '', length: 0, note: null }),
    );
    const defined = server();
    echo.register(defined, registerContext(testDeps()));
    const expected = JSON.stringify(await (await raw(reference)).request('tools/list'));
    expect(JSON.stringify(await (await raw(defined)).request('tools/list'))).toBe(expected);
  });

  it("shares every tool's JSON Schemas across server instances: converted once per process", async () => {
    const [a, b] = [createMcpServer(testDeps()), createMcpServer(testDeps())];
    type Listed = { name: string; inputSchema: { properties: unknown }; outputSchema: unknown };
    const listA = (await (await raw(a)).request('tools/list')).tools as Listed[];
    const listB = (await (await raw(b)).request('tools/list')).tools as Listed[];
    expect(listA.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    listA.forEach((tool, i) => {
      const other = listB[i];
      // A fresh conversion builds fresh objects, so the same object means no conversion happened.
      expect(other?.inputSchema.properties, tool.name).toBe(tool.inputSchema.properties);
      expect(other?.outputSchema, tool.name).toBe(tool.outputSchema);
      // The 2026-07-28 endpoint asks for the input schema before every tools/call.
      expect(a.toolInputSchemaJson(tool.name)?.properties, tool.name).toBe(tool.inputSchema.properties);
    });
  });

  it('applies zod defaults to the arguments, and rejects invalid ones before run', async () => {
    const target = server();
    echo.register(target, registerContext(testDeps()));
    const { client, close } = await connectInProcess(target);
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'ab' } });
      expect(result.structuredContent).toEqual({ echoed: 'abab', length: 4, note: null });
      expect(seen).toEqual([{ text: 'ab', times: 2 }]);
      const invalid = await client.callTool({ name: 'echo', arguments: { text: 'ab', times: 9 } });
      expect(invalid.isError).toBe(true);
      expect(seen).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('still checks every structuredContent against the output schema', async () => {
    const target = server();
    echo.register(target, registerContext(testDeps()));
    const rpc = await raw(target);
    const result = await rpc.request('tools/call', { name: 'echo', arguments: { text: 'bug' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/Output validation error.*length/);
  });

  it('refuses a call whose token lacks a declared scope, naming it, without running the tool', async () => {
    const guarded = defineTool({
      ...spec,
      name: 'guarded_echo',
      scopes: ['echo:use', 'echo:loud'],
      input,
      output,
      async run(args) {
        seen.push(args);
        return ok({ echoed: args.text, length: args.text.length, note: null });
      },
    });
    const call = async (scopes: string[] | undefined) => {
      const target = server();
      guarded.register(target, registerContext(testDeps()));
      const conn = scopes
        ? await connectAs(target, tokenFor('tester', scopes))
        : await connectInProcess(target);
      try {
        return await conn.client.callTool({ name: 'guarded_echo', arguments: { text: 'hi' } });
      } finally {
        await conn.close();
      }
    };
    const refused = await call(['echo:use']);
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      {
        type: 'text',
        text: 'guarded_echo needs the OAuth scope echo:loud, which this sign-in did not grant. Sign in again and grant echo:loud to use it.',
      },
    ]);
    expect(seen).toEqual([]);
    expect((await call(['echo:loud', 'echo:use'])).isError).toBe(false);
    // No auth info: sign-in is off, and the HTTP layer would not let a call through without a token.
    expect((await call(undefined)).isError).toBe(false);
    expect(seen).toHaveLength(2);
  });
});
