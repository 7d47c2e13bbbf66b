import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { testDeps } from '../src/test-support/in-memory.js';
import { createMcpServer } from '../src/test-support/server.js';
import { tools } from '../src/tools/index.js';

describe('createMcpServer', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  const connect = async (pageSize?: number) => {
    const connection = await connectInProcess(createMcpServer(testDeps(), { pageSize }));
    close = connection.close;
    return connection.client;
  };

  it('pages tools/list with nextCursor at the configured size, with no duplicates', async () => {
    const client = await connect(3);
    const names: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      // listTools() without a cursor walks every page itself, so ask for the first page by hand.
      const page = cursor
        ? await client.listTools({ cursor })
        : await client.request({ method: 'tools/list', params: {} });
      pageSizes.push(page.tools.length);
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    const expected = Array.from({ length: Math.ceil(tools.length / 3) }, (_, i) =>
      Math.min(3, tools.length - i * 3),
    );
    expect(pageSizes).toEqual(expected);
    expect(names).toEqual(tools.map((tool) => tool.name));
  });

  it('answers a cursor it did not issue with -32602', async () => {
    const client = await connect(3);
    await expect(client.listTools({ cursor: '%%bad' })).rejects.toMatchObject({ code: -32602 });
  });

  it('returns everything on one page, without nextCursor, at the default size', async () => {
    const client = await connect();
    const page = await client.listTools();
    expect(page.tools).toHaveLength(tools.length);
    expect(page.nextCursor).toBeUndefined();
  });

  it("adds extend's items after the catalogue's own, paged with them", async () => {
    const extend = (server: McpServer) =>
      server.registerTool('extra_tool', { description: 'Added through extend.' }, () => ({
        content: [{ type: 'text', text: 'extra' }],
      }));
    const connection = await connectInProcess(createMcpServer(testDeps(), { pageSize: 3, extend }));
    close = connection.close;
    const { tools: listed } = await connection.client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual([...tools.map((tool) => tool.name), 'extra_tool']);
    const result = await connection.client.callTool({ name: 'extra_tool', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'extra' }]);
  });
});
