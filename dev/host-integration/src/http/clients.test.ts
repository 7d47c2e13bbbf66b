/**
 * The official SDK clients of both majors against the real app over HTTP. Both clients check
 * `structuredContent` against each tool's `outputSchema` once they have listed the tools, so
 * every call here is also an output-schema check made by code we did not write.
 */

import { SHARED_OWNER } from '@mcp-workshop/mcp-host/caller';
import { validateToolResult } from '@mcp-workshop/shared';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';

/** One call per tool, with arguments that succeed on a fresh database. */
const SAMPLE_CALLS: Array<{ name: string; arguments: Record<string, unknown> }> = [
  { name: 'get_weather', arguments: { location: 'Oslo', days: 3 } },
  { name: 'list_cities', arguments: { country: 'Norway' } },
  { name: 'calculate', arguments: { expression: '(2 + 3) * 4 ^ 2 % 7' } },
  { name: 'get_time', arguments: { timezone: 'Asia/Tokyo' } },
  { name: 'add_task', arguments: { title: 'Pack an umbrella' } },
  { name: 'list_tasks', arguments: {} },
  { name: 'complete_task', arguments: { id: 1 } },
  { name: 'delete_task', arguments: { id: 1 } },
  { name: 'generate_report', arguments: { topic: 'cities', steps: 2, delayMs: 0 } },
];

type AnyResult = { content: unknown; structuredContent?: unknown; isError?: boolean };

function expectStructured(result: AnyResult) {
  expect(validateToolResult(result).ok).toBe(true);
  expect(result.isError).toBe(false);
  const [first] = result.content as Array<{ type: string; text: string }>;
  expect(first?.type).toBe('text');
  expect(JSON.parse(first?.text ?? '')).toEqual(result.structuredContent);
  expect(Array.isArray(result.structuredContent)).toBe(false);
  expect(typeof result.structuredContent).toBe('object');
}

describe('official v2 client (@modelcontextprotocol/client)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  it.each(['legacy', 'auto'] as const)(
    'calls every tool and validates outputs (negotiation: %s)',
    async (mode) => {
      const client = new Client({ name: 'v2-test', version: '0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
      try {
        expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
        const { tools } = await client.listTools();
        // Every sampled tool is listed (a newly scaffolded tool may be listed without a sample).
        expect(tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(SAMPLE_CALLS.map((call) => call.name)),
        );
        // Sign-in is off here, so every client shares the one list (SHARED_OWNER).
        for (const task of await srv.deps.todos.list(SHARED_OWNER, 'all'))
          await srv.deps.todos.delete(SHARED_OWNER, task.id);
        for (const call of SAMPLE_CALLS) {
          const task =
            call.name.endsWith('_task') && call.name !== 'add_task'
              ? (await srv.deps.todos.list(SHARED_OWNER, 'all'))[0]
              : undefined;
          const args = task ? { id: task.id } : call.arguments;
          expectStructured((await client.callTool({ name: call.name, arguments: args })) as AnyResult);
        }
      } finally {
        await client.close();
      }
    },
  );

  it('gets an isError result with a suggestion for an unknown place', async () => {
    const client = new Client({ name: 'v2-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    try {
      await client.listTools();
      const result = (await client.callTool({
        name: 'get_weather',
        arguments: { location: 'Osloo' },
      })) as AnyResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result.content)).toMatch(/Oslo/);
    } finally {
      await client.close();
    }
  });

  it('gets a list wrapped in an object, never a bare array', async () => {
    const client = new Client({ name: 'v2-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    try {
      const result = (await client.callTool({ name: 'list_cities', arguments: {} })) as AnyResult;
      const data = result.structuredContent as { items: unknown[]; count: number };
      expect(Array.isArray(data.items)).toBe(true);
      expect(data.count).toBe(data.items.length);
      expect(data.count).toBeGreaterThanOrEqual(40);
    } finally {
      await client.close();
    }
  });

  it('rejects an unknown tool with the JSON-RPC error -32602', async () => {
    const client = new Client({ name: 'v2-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.mcpUrl)));
    try {
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });
});

describe('official v1 client (@modelcontextprotocol/sdk 1.x)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  it('calls every tool and passes its outputSchema validation', async () => {
    const client = new V1Client({ name: 'v1-test', version: '0' });
    await client.connect(new V1Transport(new URL(srv.mcpUrl)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_weather');
      for (const call of SAMPLE_CALLS) {
        expectStructured((await client.callTool(call)) as AnyResult);
      }
      const failed = (await client.callTool({ name: 'complete_task', arguments: { id: 999 } })) as AnyResult;
      expect(failed.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
