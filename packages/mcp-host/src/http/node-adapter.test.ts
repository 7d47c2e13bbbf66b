/**
 * The adapter between express and the SDK's fetch-shaped handler: a JSON answer goes out whole with
 * its `Content-Length` (no chunked encoding), an SSE answer streams, and a handler that throws gets
 * a JSON-RPC internal error, and the client's going away reaches the handler as `options.signal`;
 * over real `node:http`.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type FetchHandler, nodeAdapter } from './node-adapter.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `handler` through the adapter and POSTs once; the raw status, headers and body. */
async function exchange(handler: FetchHandler) {
  const serve = nodeAdapter(handler, { onerror: () => {} });
  server = createServer((req, res) => void serve(req, res, { jsonrpc: '2.0', id: 1, method: 'ping' }));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/mcp' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end('{}');
    },
  );
}

describe('nodeAdapter', () => {
  it('sends a JSON answer whole, with its Content-Length and no chunked encoding', async () => {
    const answer = { jsonrpc: '2.0', id: 1, result: { text: 'ünïcødé, so bytes ≠ characters' } };
    const { status, headers, body } = await exchange(async () => Response.json(answer));
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual(answer);
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(headers['transfer-encoding']).toBeUndefined();
  });

  it('streams an SSE answer as it comes', async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: message\ndata: {}\n\n'));
        controller.close();
      },
    });
    const { headers, body } = await exchange(
      async () => new Response(stream, { headers: { 'content-type': 'text/event-stream' } }),
    );
    expect(body).toBe('event: message\ndata: {}\n\n');
    expect(headers['transfer-encoding']).toBe('chunked');
  });

  it('answers a handler that throws with a JSON-RPC internal error, never its message', async () => {
    const { status, body } = await exchange(async () => {
      throw new Error('secret detail');
    });
    expect(status).toBe(500);
    expect(JSON.parse(body)).toMatchObject({ error: { code: -32603, message: 'Internal server error' } });
    expect(body).not.toContain('secret');
  });

  it("hands the client's going away to the handler as options.signal; the Request follows no signal", async () => {
    let handed: { request: Request; signal: AbortSignal } | undefined;
    let arrived = () => {};
    const inside = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const serve = nodeAdapter(
      (request, options) => {
        handed = { request, signal: options.signal };
        arrived();
        return new Promise<Response>(() => undefined);
      },
      { onerror: () => {} },
    );
    server = createServer((req, res) => void serve(req, res, {}));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/mcp' });
    req.on('error', () => undefined);
    req.end('{}');
    await inside;
    expect(handed?.signal.aborted).toBe(false);
    const aborted = new Promise<void>((resolve) => handed?.signal.addEventListener('abort', () => resolve()));
    req.destroy();
    await aborted;
    expect(handed?.request.signal.aborted).toBe(false);
  });
});
