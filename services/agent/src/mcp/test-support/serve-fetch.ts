/**
 * @module mcp/test-support/serve-fetch
 * Serves a fetch-shaped handler (`(Request) => Promise<Response>`, as the SDK's `createMcpHandler`
 * and web-standard transports expose) on a real `node:http` socket on 127.0.0.1, streaming the
 * response so SSE progress arrives while a call runs. Test-only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FetchHandler = (request: Request) => Promise<Response>;

export interface ServedFetch {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0: the OS picks one) and forwards every request to `handler`. */
export async function serveFetch(handler: FetchHandler, port = 0): Promise<ServedFetch> {
  const server = createServer((req, res) => void forward(handler, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Still importable from here for older tests; the one copy is shared's, through test-infra. */
export { freePort } from '@mcp-workshop/test-infra';

async function forward(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  try {
    const response = await handler(
      new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
        signal: controller.signal,
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    if (response.body) {
      for await (const chunk of response.body) {
        if (controller.signal.aborted) break;
        res.write(chunk);
      }
    }
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
