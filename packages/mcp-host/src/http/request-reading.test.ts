import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { normalizeResourceUri, readingOf, readMcpRequest, readMessage, schemeOf } from './request-reading.js';

/** Just what the reader looks at: method, headers, body, the verified token and the address. */
function request(body: unknown, headers: Record<string, string> = {}, auth?: Request['auth']): Request {
  return {
    method: 'POST',
    body,
    headers,
    auth,
    ip: '127.0.0.1',
    socket: { remoteAddress: '127.0.0.1' },
    originalUrl: '/mcp',
  } as unknown as Request;
}

describe('normalizeResourceUri', () => {
  it.each([
    ['tasks://all', 'tasks://all'],
    ['TASKS://all', 'tasks://all'],
    ['ta\tsks://all', 'tasks://all'],
    ['task\ns://1', 'tasks://1'],
    ['tas\rks://all', 'tasks://all'],
    ['\u0001tasks://1', 'tasks://1'],
    ['\u0000tasks://all', 'tasks://all'],
    [' tasks://all ', 'tasks://all'],
    ['tasks:/\t/all', 'tasks://all'],
  ])('reads %j as the SDK will match it: %j', (raw, normalized) => {
    expect(normalizeResourceUri(raw)).toBe(normalized);
    // The same as the WHATWG parser the SDK uses.
    expect(new URL(raw).href).toBe(normalized);
  });

  it('keeps a URI the parser refuses in a form whose scheme is still plain to see', () => {
    expect(() => new URL('ta sks://all')).toThrow();
    expect(schemeOf(normalizeResourceUri('ta sks://all'))).toBe('tasks');
    expect(schemeOf(normalizeResourceUri('Ta\u00a0sks://all'))).toBe('tasks');
    expect(schemeOf(normalizeResourceUri('\u200btasks://all'))).toBe('tasks');
    expect(schemeOf(normalizeResourceUri('no scheme at all'))).toBe('');
  });
});

describe('readMessage', () => {
  it('names the tool, the prompt and every URI a message targets', () => {
    expect(readMessage({ method: 'tools/call', params: { name: 'list_tasks' } })).toMatchObject({
      name: 'list_tasks',
    });
    expect(readMessage({ method: 'prompts/get', params: { name: 'review_tasks' } })).toMatchObject({
      name: 'review_tasks',
    });
    expect(readMessage({ method: 'resources/read', params: { uri: 'ta\tsks://all' } }).uris).toEqual([
      'tasks://all',
    ]);
    expect(
      readMessage({
        method: 'subscriptions/listen',
        params: { notifications: { resourceSubscriptions: ['cities://all', '\u0000tasks://1', 42] } },
      }).uris,
    ).toEqual(['cities://all', 'tasks://1']);
    expect(
      readMessage({
        method: 'completion/complete',
        params: { ref: { type: 'ref/resource', uri: 'tasks://{id}' } },
      }).uris,
    ).toEqual(['tasks://{id}']);
    expect(
      readMessage({
        method: 'completion/complete',
        params: { ref: { type: 'ref/prompt', name: 'explain_task' } },
      }),
    ).toMatchObject({ name: 'explain_task', uris: [] });
  });

  it.each([
    null,
    'text',
    42,
    [],
    { method: 7 },
    { method: 'tools/call', params: 'x' },
    { method: 'tools/call', params: { name: 5 } },
  ])('names nothing in the hostile shape %j', (message) => {
    const reading = readMessage(message);
    expect(reading.name).toBeUndefined();
    expect(reading.uris).toEqual([]);
  });
});

describe('readMessage ids', () => {
  it("keeps a request's string or numeric id, never a notification's, a response's or a junk one", () => {
    expect(readMessage({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'a' } }).id).toBe(7);
    expect(readMessage({ jsonrpc: '2.0', id: 'x', method: 'ping' }).id).toBe('x');
    expect(readMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }).id).toBeUndefined();
    expect(readMessage({ jsonrpc: '2.0', id: 3, result: {} }).id).toBeUndefined();
    expect(readMessage({ jsonrpc: '2.0', id: { nested: 1 }, method: 'ping' }).id).toBeUndefined();
  });
});

describe('readMcpRequest', () => {
  it('reads a request once: era, batch, tool calls and who it counts against', () => {
    const req = request(
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'b' } },
      ],
      {},
      { token: 't', clientId: 'c', scopes: [], extra: { sub: 'alice' } },
    );
    const reading = readMcpRequest(req);
    expect(reading).toMatchObject({
      era: 'legacy',
      batch: true,
      toolCalls: 2,
      owner: 'sub:alice',
      clientId: 'c',
      clientKey: '["sub:alice","c"]',
    });
    expect(readingOf(req)).toBe(reading);
  });

  it('takes the era from the SDK’s own classifier', () => {
    const modern = request(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    );
    expect(readMcpRequest(modern).era).toBe('modern');
    const legacy = request(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(readMcpRequest(legacy).era).toBe('legacy');
  });

  it('counts an unsigned request against its address', () => {
    expect(readMcpRequest(request({})).clientKey).toBe('ip:127.0.0.1');
  });

  it('refuses to be asked before the request was read, rather than read the body another way', () => {
    expect(() => readingOf(request({}))).toThrow(/readRequest must run first/);
  });
});
