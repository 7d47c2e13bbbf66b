import { connectInProcess } from '@mcp-workshop/mcp-host/in-process';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './server.js';
import { testDeps } from './test-support/in-memory.js';
import { tools } from './tools/index.js';

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
});
