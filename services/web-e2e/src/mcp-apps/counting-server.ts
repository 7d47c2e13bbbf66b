/**
 * @module mcp-apps/counting-server
 * A loopback HTTP server that records every request's path and query, for the hostile view's
 * targets: a test asserts that an attack never reached it, or that an allowed request did. It answers
 * 200 with `Access-Control-Allow-Origin: *`, so only the page's policy can stop a view's fetch.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingServer {
  origin: string;
  /** Every request's path and query, in order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startCountingServer(): Promise<CountingServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('counted');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
