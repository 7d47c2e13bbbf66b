/**
 * The pool behind per-request serving, seen from outside: built instances are reused across
 * requests, never shared by two at once, and never kept when they hold a client's state.
 */

import { MCP_HEADERS, readMessages } from '@mcp-workshop/test-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/http.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'pool-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MODERN_HEADERS = { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };

function modernCall(url: string, id: number, name: string, args: Record<string, unknown>) {
  return fetch(url, {
    method: 'POST',
    headers: { ...MODERN_HEADERS, 'mcp-name': name },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, _meta: MODERN_META },
    }),
  });
}

async function resultOf(response: Response, id: number) {
  return (await readMessages(response)).find((message) => message.id === id)?.result;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('per-request serving from a pool of built servers', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv.close());

  it('builds one instance for a run of 2026-07-28 calls made one after another', async () => {
    const before = srv.app.serversBuilt();
    for (let i = 0; i < 25; i++) {
      expect(
        await resultOf(await modernCall(srv.mcpUrl, i, 'calculate', { expression: `${i} + 1` }), i),
      ).toMatchObject({
        structuredContent: { result: i + 1 },
      });
      await settle();
    }
    expect(srv.app.serversBuilt() - before).toBeLessThanOrEqual(1);
  });

  it('gives concurrent calls, even with the same JSON-RPC id, their own instances and their own answers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        modernCall(srv.mcpUrl, 7, 'calculate', { expression: `${i} * 10` }).then((r) => resultOf(r, 7)),
      ),
    );
    expect(
      answers.map((answer) => (answer?.structuredContent as { result: number } | undefined)?.result),
    ).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
  });

  // CVE-2026-25536 (GHSA-345p-7cg4-v4c7) was a cross-client leak from reusing one server or transport
  // across clients, worst when concurrent clients use the same JSON-RPC id. The pool reuses servers,
  // so many clients call at once, all with id 1, round after round on reused instances, and each
  // must get its own answer. Half of them ask for a slow report, which holds its instance across
  // awaits while the others calculate: exchanges really overlap, as they would on a shared instance.
  // crosstalk.http.test.ts does the same for signed-in users' data.
  it('gives many concurrent clients with one JSON-RPC id their own answers, on reused instances', async () => {
    const CLIENTS = 40;
    const ROUNDS = 4;
    const slow = (client: number) => client % 2 === 0;
    const stepsOf = (client: number) => 1 + (client % 5);
    const before = srv.app.serversBuilt();
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(
        Array.from({ length: CLIENTS }, (_, client) =>
          (slow(client)
            ? modernCall(srv.mcpUrl, 1, 'generate_report', {
                topic: 'cities',
                steps: stepsOf(client),
                delayMs: 5,
              })
            : modernCall(srv.mcpUrl, 1, 'calculate', { expression: `${round} * 1000 + ${client}` })
          ).then((r) => readMessages(r)),
        ),
      );
      answers.forEach((messages, client) => {
        const result = messages.find((m) => m.id === 1)?.result?.structuredContent as
          | { result?: number; topic?: string; sections?: unknown[] }
          | undefined;
        if (slow(client)) {
          expect(result?.topic).toBe('cities');
          expect(result?.sections).toHaveLength(stepsOf(client));
        } else {
          expect(result?.result).toBe(round * 1000 + client);
          // Nothing of a report running beside it: no progress on a quick call's response.
          expect(messages.filter((m) => m.method === 'notifications/progress')).toEqual([]);
        }
      });
      await settle();
    }
    // The later rounds ran on instances the earlier ones gave back: reuse really happened here.
    expect(srv.app.serversBuilt() - before).toBeLessThan(CLIENTS * ROUNDS);
  });

  it('keeps a slow call with progress apart from a quick one running next to it', async () => {
    const [report, sum] = await Promise.all([
      modernCall(srv.mcpUrl, 1, 'generate_report', { topic: 'cities', steps: 3, delayMs: 30 }).then((r) =>
        readMessages(r),
      ),
      modernCall(srv.mcpUrl, 1, 'calculate', { expression: '2 + 2' }).then((r) => readMessages(r)),
    ]);
    // Every message on the quick call's response is about the quick call: no stray progress or logs.
    expect(sum.filter((m) => m.method === 'notifications/progress')).toEqual([]);
    expect(sum.find((m) => m.id === 1)?.result?.structuredContent).toMatchObject({ result: 4 });
    expect(report.find((m) => m.id === 1)?.result?.isError).toBe(false);
  });

  it('does not lend out an instance whose request was aborted before it finished', async () => {
    const before = srv.app.serversBuilt();
    const controller = new AbortController();
    const aborted = modernCall(srv.mcpUrl, 3, 'generate_report', { topic: 'cities', steps: 5, delayMs: 200 });
    void aborted;
    const pending = fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MODERN_HEADERS, 'mcp-name': 'generate_report' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: {
          name: 'generate_report',
          arguments: { topic: 'cities', steps: 5, delayMs: 200 },
          _meta: MODERN_META,
        },
      }),
      signal: controller.signal,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await pending;
    await (await aborted).text();
    await settle();
    // Both needed an instance of their own; the aborted one's is gone, so the pool holds one at most.
    expect(srv.app.serversBuilt() - before).toBeLessThanOrEqual(2);
    expect(
      await resultOf(await modernCall(srv.mcpUrl, 5, 'calculate', { expression: '1+1' }), 5),
    ).toMatchObject({
      structuredContent: { result: 2 },
    });
  });
});

describe('stateless mode and the pool', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ stateless: true });
  });
  afterAll(async () => srv.close());

  const legacyCall = (id: number, body: Record<string, unknown>) =>
    fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, ...body }),
    });

  it('reuses one instance for 2025 tools/call requests made one after another', async () => {
    const before = srv.app.serversBuilt();
    for (let i = 0; i < 10; i++) {
      const response = await legacyCall(i, {
        method: 'tools/call',
        params: { name: 'calculate', arguments: { expression: '3*3' } },
      });
      expect(await resultOf(response, i)).toMatchObject({ structuredContent: { result: 9 } });
      await settle();
    }
    expect(srv.app.serversBuilt() - before).toBeLessThanOrEqual(1);
  });

  it('never pools an instance that served a batch, which may hold an initialize', async () => {
    const before = srv.app.serversBuilt();
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify([
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-03-26',
            capabilities: {},
            clientInfo: { name: 'b', version: '0' },
          },
        },
      ]),
    });
    await response.text();
    await settle();
    const next = await legacyCall(2, {
      method: 'tools/call',
      params: { name: 'calculate', arguments: { expression: '1' } },
    });
    await next.text();
    await settle();
    // The batch got a fresh instance of its own (one build); the call after it used a pooled one.
    expect(srv.app.serversBuilt() - before).toBe(1);
  });

  it("streams a 2025 call's progress and logs before its result, on the Node transport", async () => {
    const response = await legacyCall(40, {
      method: 'tools/call',
      params: {
        name: 'generate_report',
        arguments: { topic: 'cities', steps: 3, delayMs: 10 },
        _meta: { progressToken: 'p-40' },
      },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const messages = await readMessages(response);
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((m) => (m.params as { progressToken?: unknown }).progressToken === 'p-40')).toBe(
      true,
    );
    // The result comes last, after everything the call sent on its way.
    expect(messages.at(-1)?.id).toBe(40);
    expect(messages.at(-1)?.result?.isError).toBe(false);
  });

  it('answers a 2025 POST with a wrong Content-Type with 415, as the SDK does', async () => {
    const response = await fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'content-type': 'text/plain', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 70, method: 'tools/list' }),
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32000);
  });

  it('never pools an instance that served initialize or logging/setLevel', async () => {
    const before = srv.app.serversBuilt();
    for (let i = 0; i < 3; i++) {
      const response = await legacyCall(100 + i, {
        method: 'logging/setLevel',
        params: { level: 'error' },
      });
      await response.text();
      await settle();
    }
    expect(srv.app.serversBuilt() - before).toBe(3);
  });
});

describe('stateless mode: a 2025 call whose client left', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ stateless: true });
  });
  afterAll(async () => srv.close());

  const call = (id: number, name: string, args: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(srv.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
      ...(signal && { signal }),
    });

  it('is torn down, and its instance is never lent out again', async () => {
    const before = srv.app.serversBuilt();
    // One call leaves one idle instance in the (fresh) pool.
    await (await call(1, 'calculate', { expression: '1+1' })).text();
    await settle();
    expect(srv.app.serversBuilt() - before).toBe(1);
    // A slow call borrows it, and its client leaves midway.
    const controller = new AbortController();
    const leaving = call(
      2,
      'generate_report',
      { topic: 'cities', steps: 5, delayMs: 200 },
      controller.signal,
    ).then(
      (r) => r.text(),
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await leaving.catch(() => undefined);
    await settle();
    // Had that instance gone back, the next call would reuse it; it was dropped, so one is built.
    expect(await resultOf(await call(3, 'calculate', { expression: '2+2' }), 3)).toMatchObject({
      structuredContent: { result: 4 },
    });
    expect(srv.app.serversBuilt() - before).toBe(2);
  });
});
