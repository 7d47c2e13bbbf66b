/**
 * @module mcp-apps/counting-server
 * A loopback HTTP server that records every request's path and query, for the hostile view's
 * targets: a test asserts that an attack never reached it, or that an allowed request did. It answers
 * 200 with `Access-Control-Allow-Origin: *`, so only the page's policy can stop a view's fetch.
 */
import { listenLoopback } from '../loopback.js';

export interface CountingServer {
  origin: string;
  /** Every request's path and query, in order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startCountingServer(): Promise<CountingServer> {
  const hits: string[] = [];
  const { origin, close } = await listenLoopback((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('counted');
  });
  return { origin, hits, close };
}
