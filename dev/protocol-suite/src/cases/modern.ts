/**
 * @module protocol-suite/cases/modern
 * 2026-07-28 request validation: version negotiation without a handshake, the `_meta` envelope,
 * the `Mcp-Method`/`Mcp-Name` headers and removed methods. Addendum §1.2–§1.9 and §4 rows 5–10.
 */
import { expect } from 'vitest';
import { ENVELOPE_KEYS } from '../client.js';
import { expectResultFor, expectRpcError, type ProtocolCase } from '../harness.js';
import { MODERN } from '../revisions.js';

type Obj = Record<string, unknown>;

const WEATHER = { name: 'get_weather', arguments: { location: 'Oslo' } };

export const modernCases: ProtocolCase[] = [
  {
    item: '§1.4',
    source: 'A#5',
    title:
      'protocol version 1900-01-01 (header and envelope) → 400, -32022 with data.supported and data.requested',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'server/discover',
        {},
        {
          envelope: { [ENVELOPE_KEYS.protocolVersion]: '1900-01-01' },
          headers: { 'mcp-protocol-version': '1900-01-01' },
        },
      );
      const error = expectRpcError(reply, [-32022], { status: 400 });
      const data = error.data as Obj | undefined;
      expect(data?.supported).toContain('2026-07-28');
      expect(data?.requested).toBe('1900-01-01');
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'A#6',
    title: 'MCP-Protocol-Version 2025-11-25 with a 2026-07-28 envelope → 400, -32020',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { headers: { 'mcp-protocol-version': '2025-11-25' } },
      );
      expectRpcError(reply, [-32020], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'extra',
    title: 'no MCP-Protocol-Version header with a 2026-07-28 envelope → 400 (-32020)',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('tools/list', {}, { headers: { 'mcp-protocol-version': null } });
      expect(reply.status).toBe(400);
      expect(reply.response?.result).toBeUndefined();
      if (reply.error) expect(reply.error.code).toBe(-32020);
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'A#7',
    title: 'no Mcp-Method header → 400, -32020',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('tools/list', {}, { headers: { 'mcp-method': null } });
      expectRpcError(reply, [-32020], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'extra',
    title: 'Mcp-Method naming another method than the body → 400, -32020',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { headers: { 'mcp-method': 'server/discover' } },
      );
      expectRpcError(reply, [-32020], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'A#8',
    title: 'tools/call with Mcp-Name: other → 400, -32020',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', WEATHER, { headers: { 'mcp-name': 'other' } });
      expectRpcError(reply, [-32020], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'extra',
    title: 'tools/call without the required Mcp-Name → 400, -32020',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('tools/call', WEATHER, { headers: { 'mcp-name': null } });
      expectRpcError(reply, [-32020], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.9',
    source: 'extra',
    title: 'prompts/get and resources/read with a wrong Mcp-Name → 400, -32020',
    revisions: MODERN,
    async run(ctx) {
      const prompt = await ctx.client.request(
        'prompts/get',
        { name: 'review_tasks', arguments: {} },
        { headers: { 'mcp-name': 'other' } },
      );
      expectRpcError(prompt, [-32020], { status: 400 });
      const resource = await ctx.client.request(
        'resources/read',
        { uri: 'tasks://all' },
        { headers: { 'mcp-name': 'x://other' } },
      );
      expectRpcError(resource, [-32020], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.3',
    source: 'A#9',
    title: 'an envelope without clientCapabilities → 400, -32602',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { envelope: { [ENVELOPE_KEYS.clientCapabilities]: undefined } },
      );
      expectRpcError(reply, [-32602], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.3',
    source: 'extra',
    title: 'an envelope without clientInfo (only a SHOULD) → still answered',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { envelope: { [ENVELOPE_KEYS.clientInfo]: undefined } },
      );
      expectResultFor(ctx.rev, reply);
    },
  },
  {
    item: '§1.3',
    source: 'extra',
    title: 'clientCapabilities that is not an object ("all") → 400, -32602',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { envelope: { [ENVELOPE_KEYS.clientCapabilities]: 'all' } },
      );
      expectRpcError(reply, [-32602], { status: 400 });
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.2',
    source: 'A#10',
    title: 'removed methods ping, logging/setLevel, resources/subscribe and unknown foo/bar → 404, -32601',
    revisions: MODERN,
    async run(ctx) {
      const calls: Array<[string, Obj]> = [
        ['ping', {}],
        ['logging/setLevel', { level: 'info' }],
        ['resources/subscribe', { uri: 'tasks://all' }],
        ['foo/bar', {}],
      ];
      for (const [method, params] of calls) {
        const reply = await ctx.client.request(method, params);
        expect(reply.status, method).toBe(404);
        expectRpcError(reply, [-32601]);
      }
      await ctx.expectAlive();
    },
  },
];
