/**
 * @module http/stateless-legacy
 * Every 2025-era request in stateless mode (`MCP_STATELESS=true`). A POST is served the way the
 * SDK's own stateless idiom serves it (a transport of its own with no session id, on an instance no
 * other exchange is using), on the SDK's Node transport, which writes to Node's response as the 2025
 * sessions do, and on an instance lent from the pool when the request leaves no client state on it.
 * What the SDK's stateless fallback (`createMcpHandler({ legacy: 'stateless' })`) refuses before it
 * builds anything is refused here first, with its bytes: another verb gets 405, a `Content-Type`
 * that is not JSON gets 415. Why not the SDK's fallback itself: ADR 011, fourth round.
 *
 * The instance goes back to the pool only after its response finished and the transport let go
 * of it; when the client leaves first, the exchange is torn down and the instance dropped, as the
 * SDK's fallback tears down on its request's abort signal.
 */
import type { ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isJsonContentType, type McpServer } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { requestIdOf, sendJsonRpcError } from './json-rpc-errors.js';
import type { ServerPool } from './server-pool.js';

/** Where the instance of one exchange comes from, and whether it may go back afterwards. */
export interface InstanceSource {
  take(): McpServer;
  /** Absent for an instance built for this exchange alone (one that keeps client state). */
  giveBack?(server: McpServer): void;
}

export function fromPool(pool: ServerPool): InstanceSource {
  return { take: () => pool.acquire(), giveBack: (server) => pool.release(server) };
}

/** The SDK's wording for what its stateless fallback refuses (`createMcpHandler`, 2.4.0). */
export const METHOD_NOT_ALLOWED = 'Method not allowed.';
export const NOT_JSON = 'Unsupported Media Type: Content-Type must be application/json';

/**
 * A JSON-RPC error as the SDK's `Response.json` sends it: `application/json` without a charset,
 * a `Content-Length`, and none of express's extras (no ETag).
 */
function sendAsTheSdk(res: ServerResponse, status: number, message: string, allow?: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, {
    ...(allow !== undefined && { allow }),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/**
 * Answers what stateless 2025 serving refuses before an instance is taken; true when it answered.
 * The 415 is reported to `onerror`, as the SDK reports it.
 */
export function refuseStatelessLegacy(req: Request, res: Response, onerror: (error: Error) => void): boolean {
  if (req.method !== 'POST') {
    // Stateless means no session: no GET stream to open, no session to DELETE.
    sendAsTheSdk(res, 405, METHOD_NOT_ALLOWED, 'POST');
    return true;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    onerror(new Error(NOT_JSON));
    sendAsTheSdk(res, 415, NOT_JSON);
    return true;
  }
  return false;
}

export function serveStatelessLegacy(onerror: (error: Error) => void) {
  return async (req: Request, res: Response, source: InstanceSource): Promise<void> => {
    if (refuseStatelessLegacy(req, res, onerror)) return;
    const server = source.take();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    let finished = false;
    res.once('finish', () => {
      finished = true;
    });
    res.once('close', () => {
      // Answered or not, the exchange is over: the transport lets go of the instance, which goes
      // back only when its response was sent whole (nothing of a cut-off call lingers on it).
      void transport.close().then(
        () => {
          if (finished && source.giveBack) source.giveBack(server);
        },
        (error: unknown) => onerror(error instanceof Error ? error : new Error(String(error))),
      );
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent)
        sendJsonRpcError(res, 500, -32603, 'Internal server error', requestIdOf(req.body));
      else res.end();
    }
  };
}
