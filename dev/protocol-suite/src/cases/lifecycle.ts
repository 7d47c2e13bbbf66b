/**
 * @module protocol-suite/cases/lifecycle
 * Lifecycle cases: `initialize` and version negotiation (legacy), `server/discover` (2026-07-28),
 * ping and the first notifications. Checklist §1 and §9 rows 1–8; addendum §4 row 1.
 */

import { expect } from 'vitest';
import { ENVELOPE_KEYS, initialize, type Reply } from '../client.js';
import { type CaseContext, expectResult, expectResultFor, type ProtocolCase } from '../harness.js';
import { ALL, LEGACY, MODERN } from '../revisions.js';

/** `initialize` on a session of its own, which is deleted again so cases never leak sessions. */
async function initializeOnce(
  ctx: CaseContext,
  version: string,
  id: string | number = 'init-1',
): Promise<Reply> {
  const reply = await initialize(ctx.server.mcpUrl, version, {}, id);
  const sessionId = reply.headers.get('mcp-session-id');
  if (sessionId) {
    await fetch(ctx.server.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } }).then(
      (response) => response.body?.cancel(),
    );
  }
  return reply;
}

type Obj = Record<string, unknown>;

export const lifecycleCases: ProtocolCase[] = [
  {
    item: 'L2',
    source: '§9 #1',
    title: 'initialize → 200 (JSON or SSE) with protocolVersion and serverInfo name/version strings',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await initializeOnce(ctx, ctx.rev);
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/application\/json|text\/event-stream/);
      expect(reply.response?.id).toBe('init-1');
      const result = expectResult(reply);
      expect(typeof result.protocolVersion).toBe('string');
      const info = result.serverInfo as Obj;
      expect(typeof info.name).toBe('string');
      expect(typeof info.version).toBe('string');
      if (ctx.rev >= '2025-06-18' && 'title' in info) expect(typeof info.title).toBe('string');
      if ('instructions' in result) expect(typeof result.instructions).toBe('string');
    },
  },
  {
    item: 'L3',
    source: '§9 #2',
    title: 'initialize echoes the requested revision, which the server supports',
    revisions: LEGACY,
    async run(ctx) {
      const result = expectResult(await initializeOnce(ctx, ctx.rev));
      expect(result.protocolVersion).toBe(ctx.rev);
    },
  },
  {
    item: 'L3',
    source: '§9 #3',
    title: 'initialize with "1999-01-01" → a result naming a supported revision (the latest), not an error',
    revisions: LEGACY,
    async run(ctx) {
      const result = expectResult(await initializeOnce(ctx, '1999-01-01'));
      expect(LEGACY).toContain(result.protocolVersion);
      expect(result.protocolVersion).toBe('2025-11-25');
      await ctx.expectAlive();
    },
  },
  {
    item: 'L3',
    source: 'extra',
    title: 'initialize naming 2026-07-28 (an era without initialize) → answered with a legacy revision',
    revisions: MODERN,
    async run(ctx) {
      const result = expectResult(await initializeOnce(ctx, '2026-07-28'));
      expect(LEGACY).toContain(result.protocolVersion);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H10',
    source: '§9 #4',
    title: 'Mcp-Session-Id on the initialize response uses only visible ASCII 0x21–0x7E',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await initializeOnce(ctx, ctx.rev);
      const sessionId = reply.headers.get('mcp-session-id');
      if (sessionId !== null) expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
      expect(ctx.client.sessionId).toMatch(/^[\x21-\x7e]+$/);
    },
  },
  {
    item: 'L2',
    source: '§9 #5',
    title: 'capabilities: every value is an object; listChanged/subscribe are booleans; tools declared',
    revisions: ALL,
    async run(ctx) {
      const capabilities = ctx.client.serverResult.capabilities as Obj;
      expect(capabilities).toBeTypeOf('object');
      for (const [name, value] of Object.entries(capabilities)) {
        expect(value, `capabilities.${name}`).toBeTypeOf('object');
        expect(value).not.toBeNull();
        for (const flag of ['listChanged', 'subscribe']) {
          if (flag in (value as Obj)) expect(typeof (value as Obj)[flag], `${name}.${flag}`).toBe('boolean');
        }
      }
      // L4: a server that offers tools MUST declare them.
      expect(capabilities.tools).toBeTypeOf('object');
    },
  },
  {
    item: 'H4',
    source: '§9 #6',
    title: 'POST notifications/initialized → 202 with an empty body',
    revisions: LEGACY,
    async run(ctx) {
      const init = await initialize(ctx.server.mcpUrl, ctx.rev);
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      };
      if (ctx.rev >= '2025-06-18') headers['mcp-protocol-version'] = ctx.rev;
      const response = await fetch(ctx.server.mcpUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
      await fetch(ctx.server.mcpUrl, { method: 'DELETE', headers }).then((r) => r.body?.cancel());
    },
  },
  {
    item: 'L5',
    source: 'extra',
    title: 'ping sent before notifications/initialized is answered',
    revisions: LEGACY,
    async run(ctx) {
      const init = await initialize(ctx.server.mcpUrl, ctx.rev);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      };
      const response = await fetch(ctx.server.mcpUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 'early', method: 'ping' }),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"early"');
      await fetch(ctx.server.mcpUrl, { method: 'DELETE', headers }).then((r) => r.body?.cancel());
    },
  },
  {
    item: 'L6',
    source: '§9 #7',
    title: 'ping with id 7 → exactly {"result":{}} with id 7',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request('ping', {}, { id: 7 });
      expect(reply.response).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    },
  },
  {
    item: 'J3',
    source: '§9 #8',
    title: 'a string request id ("a-1") comes back unchanged, as a string',
    revisions: ALL,
    async run(ctx) {
      const method = ctx.rev === '2026-07-28' ? 'tools/list' : 'ping';
      const reply = await ctx.client.request(method, {}, { id: 'a-1' });
      expectResultFor(ctx.rev, reply);
      expect(reply.response?.id).toBe('a-1');
      expect(reply.response?.jsonrpc).toBe('2.0');
    },
  },
  {
    item: '§1.1',
    source: 'A#1',
    title:
      'server/discover → supportedVersions ∋ 2026-07-28, resultType, ttlMs, cacheScope, _meta serverInfo',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('server/discover');
      expect(reply.status).toBe(200);
      const result = expectResultFor(ctx.rev, reply);
      expect(result.supportedVersions).toContain('2026-07-28');
      expect(result.resultType).toBe('complete');
      expect(typeof result.ttlMs).toBe('number');
      expect(['public', 'private']).toContain(result.cacheScope);
      expect(result.capabilities).toBeTypeOf('object');
      const info = (result._meta as Obj | undefined)?.[ENVELOPE_KEYS.serverInfo] as Obj | undefined;
      expect(typeof info?.name).toBe('string');
      expect(typeof info?.version).toBe('string');
    },
  },
];
