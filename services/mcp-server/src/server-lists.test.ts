/**
 * What a client sees of `createMcpServer` before it calls anything: `tools/list`, `prompts/list`
 * and `resources/templates/list`, byte for byte. `__snapshots__/server-lists.json.snap` was recorded
 * before the schemas were cached (see `tools/cached-schema.ts`), so a caching bug shows up here.
 * After a deliberate change to a tool, prompt or template, rerun with `vitest run -u` and review
 * the diff: it is exactly what every client and model will see. Partner: `server.ts`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './server.js';
import { testDeps } from './test-support/in-memory.js';
import { connectRaw, type RawRpc } from './test-support/raw-rpc.js';

const LIST_METHODS = ['tools/list', 'prompts/list', 'resources/templates/list'] as const;

describe('createMcpServer lists', () => {
  let rpc: RawRpc | undefined;
  afterEach(async () => rpc?.close());

  it('answers tools/list, prompts/list and resources/templates/list exactly as recorded', async () => {
    rpc = await connectRaw(createMcpServer(testDeps()));
    const lists: Record<string, unknown> = {};
    // Twice: the second answer comes from the caches the first one filled.
    for (let round = 0; round < 2; round++) {
      for (const method of LIST_METHODS) lists[method] = await rpc.request(method);
      // Indented for a readable diff; the key order, which is the byte order, is kept.
      await expect(`${JSON.stringify(lists, null, 2)}\n`).toMatchFileSnapshot(
        './__snapshots__/server-lists.json.snap',
      );
    }
  });

  it('answers the same from a second server instance, which shares the first one’s caches', async () => {
    const first = await connectRaw(createMcpServer(testDeps()));
    const expected = await Promise.all(LIST_METHODS.map((method) => first.request(method)));
    await first.close();
    rpc = await connectRaw(createMcpServer(testDeps()));
    const again = await Promise.all(LIST_METHODS.map((method) => rpc?.request(method)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(expected));
  });
});
