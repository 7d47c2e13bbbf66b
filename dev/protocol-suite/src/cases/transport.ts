/**
 * @module protocol-suite/cases/transport
 * Streamable HTTP cases: Accept/Content-Type, sessions, the version header, Origin/Host checks,
 * the GET stream, SSE framing and resumability. Checklist §3 and §9 rows 16–33; addendum §4 row 15.
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { ACCEPT_BOTH } from '../client.js';
import { expect4xx, expectResult, expectResultFor, type ProtocolCase } from '../harness.js';
import { ALL, isModern, LEGACY, legacyFrom, MODERN } from '../revisions.js';
import { LiveStream, messagesOf, QUIET_PERIOD_MS, REQUEST_TIMEOUT_MS } from '../sse.js';

/** POSTs with a forged Host header, which fetch() will not send; returns the status. */
function postWithHost(
  url: string,
  host: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, host }, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const transportCases: ProtocolCase[] = [
  {
    item: 'H3',
    source: '§9 #16',
    title: 'Accept: application/json only → 4xx (SDK: 406), informational',
    revisions: LEGACY,
    async run(ctx) {
      expect4xx(await ctx.client.request('ping', {}, { headers: { accept: 'application/json' } }));
      await ctx.expectAlive();
    },
  },
  {
    item: 'H3',
    source: '§9 #16',
    title: 'Accept: text/html → 406, or an application/json answer the client can still read',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request('tools/list', {}, { headers: { accept: 'text/html' } });
      if (reply.status === 200) expect(reply.contentType).toContain('application/json');
      else expect(reply.status).toBe(406);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H3',
    source: '§9 #17',
    title: 'Content-Type: text/plain → 4xx (SDK: 415)',
    revisions: ALL,
    async run(ctx) {
      const method = isModern(ctx.rev) ? 'tools/list' : 'ping';
      expect4xx(await ctx.client.request(method, {}, { headers: { 'content-type': 'text/plain' } }));
      await ctx.expectAlive();
    },
  },
  {
    item: 'H10',
    source: '§9 #19',
    title: 'a request without Mcp-Session-Id after sessions were issued → 400',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request('tools/list', {}, { headers: { 'mcp-session-id': null } });
      expect(reply.status).toBe(400);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H10',
    source: '§9 #20',
    title: 'an unknown Mcp-Session-Id → 404',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request(
        'ping',
        {},
        { headers: { 'mcp-session-id': 'no-such-session' } },
      );
      expect(reply.status).toBe(404);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H10',
    source: 'extra',
    title: 'a malformed Mcp-Session-Id (spaces, not a server id) → 400 or 404',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request('ping', {}, { headers: { 'mcp-session-id': 'bad session id' } });
      expect([400, 404]).toContain(reply.status);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H10',
    source: '§9 #21',
    title: 'DELETE with the session id → 2xx or 405',
    revisions: LEGACY,
    async run(ctx) {
      const other = await ctx.connect();
      const reply = await other.send(undefined, { httpMethod: 'DELETE' });
      expect(reply.status === 405 || (reply.status >= 200 && reply.status < 300)).toBe(true);
    },
  },
  {
    item: 'H10',
    source: '§9 #22',
    title: 'a request on a session ended by DELETE → 404',
    revisions: LEGACY,
    async run(ctx) {
      const other = await ctx.connect();
      const deleted = await other.send(undefined, { httpMethod: 'DELETE' });
      const after = await other.request('ping');
      if (deleted.status === 405) expectResult(after);
      else expect(after.status).toBe(404);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H11',
    source: '§9 #23',
    title: 'MCP-Protocol-Version: 1999-01-01 → 400',
    revisions: LEGACY,
    async run(ctx) {
      const reply = await ctx.client.request(
        'ping',
        {},
        { headers: { 'mcp-protocol-version': '1999-01-01' } },
      );
      expect(reply.status).toBe(400);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H11',
    source: '§9 #24',
    title: 'no MCP-Protocol-Version header (the server assumes 2025-03-26) → accepted',
    revisions: LEGACY,
    async run(ctx) {
      expectResult(await ctx.client.request('tools/list', {}, { headers: { 'mcp-protocol-version': null } }));
    },
  },
  {
    item: 'H11',
    source: '§9 #24',
    title: 'MCP-Protocol-Version: <revision> sent by an old client anyway → accepted',
    revisions: LEGACY.filter((rev) => rev < '2025-06-18'),
    async run(ctx) {
      expectResult(
        await ctx.client.request('tools/list', {}, { headers: { 'mcp-protocol-version': ctx.rev } }),
      );
    },
  },
  {
    item: 'H2',
    source: '§9 #25',
    title: 'Origin: http://evil.example → 403',
    revisions: ALL,
    async run(ctx) {
      const method = isModern(ctx.rev) ? 'tools/list' : 'ping';
      const reply = await ctx.client.request(method, {}, { headers: { origin: 'http://evil.example' } });
      expect(reply.status).toBe(403);
      expect(reply.messages.some((message) => message.result !== undefined)).toBe(false);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H2',
    source: 'extra',
    title: 'Host: evil.example (DNS rebinding) → 403',
    revisions: ALL,
    async run(ctx) {
      const method = isModern(ctx.rev) ? 'tools/list' : 'ping';
      const body = JSON.stringify(ctx.client.message(method, {}, 1, {}));
      const status = await postWithHost(
        ctx.server.mcpUrl,
        'evil.example',
        ctx.client.headersFor(method),
        body,
      );
      expect(status).toBe(403);
      await ctx.expectAlive();
    },
  },
  {
    item: 'H2',
    source: '§9 #26',
    title: 'no Origin, or the server’s own localhost Origin → accepted',
    revisions: ALL,
    async run(ctx) {
      const method = isModern(ctx.rev) ? 'tools/list' : 'ping';
      expectResultFor(ctx.rev, await ctx.client.request(method, {}, { headers: { origin: null } }));
      expectResultFor(
        ctx.rev,
        await ctx.client.request(method, {}, { headers: { origin: ctx.server.baseUrl } }),
      );
    },
  },
  {
    item: 'H7',
    source: '§9 #27',
    title: 'GET with Accept: text/event-stream → 200 text/event-stream, or 405',
    revisions: LEGACY,
    async run(ctx) {
      // A session of its own: a session allows one GET stream, and a closed one takes a moment to go.
      const get = await (await ctx.connect()).openGet();
      try {
        if (get.status !== 405) {
          expect(get.status).toBe(200);
          expect(get.headers.get('content-type')).toContain('text/event-stream');
        }
      } finally {
        await get.live.close();
      }
    },
  },
  {
    item: 'H7',
    source: '§9 #28',
    title: 'the GET stream carries no JSON-RPC responses, even while requests are answered',
    revisions: LEGACY,
    async run(ctx) {
      const session = await ctx.connect();
      const get = await session.openGet();
      try {
        if (get.status === 405) return;
        expect(get.status).toBe(200);
        expectResult(await session.request('ping', {}, { id: 'while-get-open' }));
        const events = await get.live.drain(QUIET_PERIOD_MS);
        for (const message of messagesOf(events)) {
          expect(message.result, 'a response on the GET stream').toBeUndefined();
          expect(message.error, 'a response on the GET stream').toBeUndefined();
        }
      } finally {
        await get.live.close();
      }
    },
  },
  {
    item: 'H6',
    source: '§9 #29',
    title: 'an SSE answer to a POST starts with a priming event: an id and empty data (SHOULD)',
    revisions: ['2025-11-25'],
    async run(ctx) {
      const reply = await ctx.client.request('tools/list');
      if (!reply.contentType.includes('text/event-stream')) return;
      const first = reply.events[0];
      expect(first?.id, 'first SSE event has no id').toBeTruthy();
      expect(first?.data).toBe('');
    },
  },
  {
    item: 'H6',
    source: '§9 #30',
    title: 'an SSE answer to a POST carries the response with the matching id, then ends',
    revisions: ALL,
    async run(ctx) {
      const reply = await ctx.client.request('tools/list', {}, { id: 'sse-30' });
      expect(reply.complete, 'the server did not end the stream after the response').toBe(true);
      const responses = reply.messages.filter((message) => 'result' in message || 'error' in message);
      expect(responses.map((message) => message.id)).toEqual(['sse-30']);
      expect(reply.messages.at(-1)?.id).toBe('sse-30');
      if (isModern(ctx.rev) && reply.contentType.includes('text/event-stream')) {
        expect(reply.headers.get('x-accel-buffering')).toBe('no');
      }
    },
  },
  {
    item: 'H9',
    source: '§9 #31',
    title: 'GET with the Last-Event-ID of stream A replays only stream A, or nothing',
    revisions: legacyFrom('2025-03-26'),
    async run(ctx) {
      const session = await ctx.connect();
      const a = await session.request('ping', {}, { id: 'stream-a' });
      await session.request('ping', {}, { id: 'stream-b' });
      const lastEventId = a.events.find((event) => event.id)?.id ?? 'unknown-event-id';
      const get = await session.openGet({ 'last-event-id': lastEventId });
      try {
        if (get.status >= 400) return expect4xx(get);
        const replayed = messagesOf(await get.live.drain(QUIET_PERIOD_MS));
        for (const message of replayed) expect(message.id).not.toBe('stream-b');
      } finally {
        await get.live.close();
      }
      await ctx.expectAlive();
    },
  },
  {
    item: 'H9',
    source: '§9 #32',
    title: 'SSE event ids, where present, are unique across all streams of the session',
    revisions: legacyFrom('2025-03-26'),
    async run(ctx) {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const reply = await ctx.client.request('tools/list');
        ids.push(...reply.events.flatMap((event) => (event.id ? [event.id] : [])));
      }
      expect(new Set(ids).size).toBe(ids.length);
    },
  },
  {
    item: 'H1',
    source: '§9 #33',
    title: 'PUT /mcp → 4xx (SDK: 405), informational',
    revisions: ALL,
    async run(ctx) {
      expect4xx(await ctx.client.send({}, { httpMethod: 'PUT', mcpMethod: 'tools/list' }));
      await ctx.expectAlive();
    },
  },
  {
    item: 'H12',
    source: 'extra',
    title: 'the 2024-11-05 HTTP+SSE endpoint GET /sse is absent (404/405) or opens with an endpoint event',
    revisions: ['2024-11-05'],
    async run(ctx) {
      const response = await fetch(`${ctx.server.baseUrl}/sse`, {
        headers: { accept: 'text/event-stream' },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return expect([404, 405]).toContain(response.status);
      }
      const live = new LiveStream(response);
      try {
        expect((await live.next(REQUEST_TIMEOUT_MS))?.event).toBe('endpoint');
      } finally {
        await live.close();
      }
    },
  },
  {
    item: '§1.2',
    source: 'A#15',
    title: 'GET and DELETE /mcp with MCP-Protocol-Version: 2026-07-28 → 405 with Allow: POST',
    revisions: MODERN,
    async run(ctx) {
      for (const httpMethod of ['GET', 'DELETE']) {
        const reply = await ctx.client.send(undefined, {
          httpMethod,
          headers: { accept: httpMethod === 'GET' ? 'text/event-stream' : ACCEPT_BOTH, 'content-type': null },
        });
        expect(reply.status, `${httpMethod} /mcp`).toBe(405);
        expect(reply.headers.get('allow') ?? '').toContain('POST');
      }
      await ctx.expectAlive();
    },
  },
  {
    item: '§1.2',
    source: 'A#15',
    title: 'Mcp-Session-Id on a modern POST is ignored: answered normally, none echoed',
    revisions: MODERN,
    async run(ctx) {
      const reply = await ctx.client.request(
        'tools/list',
        {},
        { headers: { 'mcp-session-id': 'ignored-session' } },
      );
      expectResultFor(ctx.rev, reply);
      expect(reply.headers.get('mcp-session-id')).toBeNull();
    },
  },
];
