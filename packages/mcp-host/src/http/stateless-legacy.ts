/**
 * @module http/stateless-legacy
 * A 2025-era JSON POST in stateless mode (`MCP_STATELESS=true`), served the way the SDK's own
 * stateless idiom serves it (a transport of its own with no session id, on an instance no other
 * exchange is using), but on the SDK's Node transport, which writes to Node's response as the
 * 2025 sessions do, and on an instance lent from the pool. The SDK's stateless fallback
 * (`createMcpHandler({ legacy: 'stateless' })`) answers the same exchange through a web `Request`,
 * a web-standard transport and two web streams copied into Node's response: 1,160 µs of CPU per
 * call against a 2025 session's 672 in the bench of 2026-11-28 (ADR 011, fourth round).
 *
 * The instance goes back to the pool only after its response finished and the transport let go
 * of it; when the client leaves first, the exchange is torn down and the instance dropped, as the
 * SDK's fallback tears down on its request's abort signal.
 */
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';
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

export function serveStatelessLegacy(onerror: (error: Error) => void) {
  return async (req: Request, res: Response, source: InstanceSource): Promise<void> => {
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
