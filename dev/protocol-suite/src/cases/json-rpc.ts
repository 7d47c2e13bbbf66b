/**
 * @module protocol-suite/cases/json-rpc
 * JSON-RPC framing cases: notifications, unknown methods, parse errors, invalid requests and
 * batches. Checklist §2 and §9 rows 9–15 and 18. Every malformed input ends with a liveness check.
 */
import { expect } from 'vitest';
import type { Reply } from '../client.js';
import { expect4xx, expectRpcError, type ProtocolCase } from '../harness.js';
import { ALL, isModern, LEGACY, legacyFrom, MODERN, type Revision } from '../revisions.js';

/** A refusal of an invalid message: a 4xx status, or an error -32600 — never a result. */
function expectInvalidRequest(reply: Reply): void {
  expect(reply.messages.some((message) => message.result !== undefined)).toBe(false);
  if (reply.status >= 400) expect4xx(reply);
  else expectRpcError(reply, [-32600]);
}

/** The harmless request each era can always send: ping (legacy) or tools/list (modern). */
function harmless(rev: Revision): string {
  return isModern(rev) ? 'tools/list' : 'ping';
}

/** A batch of two pings, as a 2025-03-26 client may send one. */
const PING_BATCH = [
  { jsonrpc: '2.0', id: 'b1', method: 'ping' },
  { jsonrpc: '2.0', id: 'b2', method: 'ping' },
];

export const jsonRpcCases: ProtocolCase[] = [
  {
    item: 'J4',
    source: '§9 #9',
    title: 'an unknown notification → 202 with an empty body, no response',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.notify('notifications/unknown', {});
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      await ctx.expectAlive();
    },
  },
  {
    item: 'J5',
    source: '§9 #10',
    title: 'unknown method foo/bar with id 10 → -32601 with id 10 (2026-07-28: HTTP 404)',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('foo/bar', {}, { id: 10 });
      expectRpcError(reply, [-32601], isModern(ctx.rev) ? { id: 10, status: 404 } : { id: 10 });
      await ctx.expectAlive();
    },
  },
  {
    item: 'J5',
    source: '§9 #11',
    title: 'malformed JSON body `{bad` → 400 and -32700 with id null or absent',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.send('{bad', { mcpMethod: harmless(ctx.rev) });
      expect(reply.status).toBe(400);
      const error = expectRpcError(reply, [-32700]);
      expect(error).toBeDefined();
      const id = reply.messages[0]?.id;
      expect(id === null || id === undefined).toBe(true);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J2',
    source: '§9 #12',
    title: 'a request with "id": null → 4xx or -32600, never a result',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request(harmless(ctx.rev), {}, { id: null });
      expectInvalidRequest(reply);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J1',
    source: '§9 #13',
    title: 'a message without "jsonrpc" → 4xx or -32600',
    revisions: ALL,
    async run(ctx) {
      const body = ctx.client.message(harmless(ctx.rev), {}, 13, {});
      delete body.jsonrpc;
      expectInvalidRequest(await ctx.client.send(body, { mcpMethod: harmless(ctx.rev) }, 13));
      await ctx.expectAlive();
    },
  },
  {
    item: 'J1',
    source: 'extra',
    title: 'a message with "jsonrpc": "1.0" → 4xx or -32600',
    revisions: ALL,
    async run(ctx) {
      const body = { ...ctx.client.message(harmless(ctx.rev), {}, 14, {}), jsonrpc: '1.0' };
      expectInvalidRequest(await ctx.client.send(body, { mcpMethod: harmless(ctx.rev) }, 14));
      await ctx.expectAlive();
    },
  },
  {
    item: 'J1',
    source: 'extra',
    title: 'a request without "method" → 4xx or -32600',
    revisions: ALL,
    async run(ctx) {
      const body = ctx.client.message(harmless(ctx.rev), {}, 15, {});
      delete body.method;
      expectInvalidRequest(await ctx.client.send(body, { mcpMethod: harmless(ctx.rev) }, 15));
      await ctx.expectAlive();
    },
  },
  {
    item: 'J5',
    source: 'extra',
    title: 'params of the wrong type (tools/call with name: 42) → -32602',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/call',
        { name: 42, arguments: {} },
        { headers: { 'mcp-name': '42' } },
      );
      // 2026-07-28 may refuse earlier, at the header/body comparison (-32020): also a protocol error.
      expectRpcError(reply, isModern(ctx.rev) ? [-32602, -32020] : [-32602]);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J5',
    source: 'extra',
    title: 'wrongly typed params of list/read/get/complete/setLevel → -32602 (not -32603)',
    revisions: ALL,
    async run(ctx) {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['tools/list', { cursor: 42 }],
        ['resources/read', { uri: 42 }],
        ['prompts/get', { name: 42 }],
        ['completion/complete', { ref: 'x', argument: { name: 'a', value: '' } }],
      ];
      if (!isModern(ctx.rev)) calls.push(['logging/setLevel', { level: 42 }]);
      const codes: Record<string, number | undefined> = {};
      for (const [method, params] of calls) {
        const reply = await ctx.client.request(method, params, { headers: { 'mcp-name': '42' } });
        expect(reply.response?.result, method).toBeUndefined();
        codes[method] = reply.error?.code;
      }
      expect(codes).toEqual(Object.fromEntries(calls.map(([method]) => [method, -32602])));
      await ctx.expectAlive();
    },
  },
  {
    item: 'J5',
    source: 'extra',
    title: 'params that are not an object ("params": "x") → 4xx, -32600 or -32602',
    revisions: ALL,
    async run(ctx) {
      const body = { ...ctx.client.message(harmless(ctx.rev), {}, 16, {}), params: 'x' };
      const reply = await ctx.client.send(body, { mcpMethod: harmless(ctx.rev) }, 16);
      expect(reply.messages.some((message) => message.result !== undefined)).toBe(false);
      if (reply.status < 400) expectRpcError(reply, [-32600, -32602]);
      else expect4xx(reply);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J6',
    source: '§9 #14',
    title: 'a JSON-RPC batch, removed in 2025-06-18 → 4xx or -32600',
    revisions: [...legacyFrom('2025-06-18'), ...MODERN],
    async run(ctx) {
      const batch = isModern(ctx.rev)
        ? [ctx.client.message('tools/list', {}, 'b1', {}), ctx.client.message('tools/list', {}, 'b2', {})]
        : PING_BATCH;
      const reply = await ctx.client.send(batch, { mcpMethod: harmless(ctx.rev) });
      expectInvalidRequest(reply);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J6',
    source: '§9 #15',
    title: 'a batch of two pings without MCP-Protocol-Version (as old clients send it) → two responses',
    revisions: LEGACY.filter((rev) => rev < '2025-06-18'),
    async run(ctx) {
      const reply = await ctx.client.send(PING_BATCH, { headers: { 'mcp-protocol-version': null } });
      expect(reply.status).toBe(200);
      expect(reply.messages.map((message) => message.id).sort()).toEqual(['b1', 'b2']);
      await ctx.expectAlive();
    },
  },
  {
    item: 'J6',
    source: '§9 #15',
    title: 'a batch of two pings with MCP-Protocol-Version: <revision> → two responses',
    revisions: LEGACY.filter((rev) => rev < '2025-06-18'),
    async run(ctx) {
      const reply = await ctx.client.send(PING_BATCH, { headers: { 'mcp-protocol-version': ctx.rev } });
      expect(reply.status).toBe(200);
      expect(reply.messages.map((message) => message.id).sort()).toEqual(['b1', 'b2']);
      await ctx.expectAlive();
    },
  },
  {
    item: 'L7',
    source: 'extra',
    title: 'initialize inside a batch (forbidden by 2025-03-26) → refused: 4xx or an error, no session',
    revisions: LEGACY.filter((rev) => rev < '2025-06-18'),
    async run(ctx) {
      const init = {
        jsonrpc: '2.0',
        id: 'batched-init',
        method: 'initialize',
        params: { protocolVersion: ctx.rev, capabilities: {}, clientInfo: { name: 'batch', version: '0' } },
      };
      const reply = await ctx.client.send([init, { jsonrpc: '2.0', method: 'notifications/initialized' }], {
        headers: { 'mcp-session-id': null },
      });
      expect(reply.headers.get('mcp-session-id')).toBeNull();
      expect(reply.messages.some((message) => message.result !== undefined)).toBe(false);
      if (reply.status < 400) expect(reply.messages.some((message) => message.error)).toBe(true);
      else expect4xx(reply);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H4',
    source: '§9 #18',
    title: 'POSTing a JSON-RPC response object → 202 with an empty body (or a 4xx refusal)',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.send({ jsonrpc: '2.0', id: 'never-asked', result: {} });
      if (reply.status === 202) expect(reply.text).toBe('');
      else expect4xx(reply);
      await ctx.expectAlive();
    },
  },
];
