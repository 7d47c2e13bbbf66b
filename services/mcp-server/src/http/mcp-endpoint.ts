/**
 * @module http/mcp-endpoint
 * The Streamable HTTP endpoint at `/mcp`, for both protocol eras.
 *
 * - Stateful (default): 2025-era clients (`initialize`) get a session of their own, with an SSE
 *   channel for progress, logging and server-to-client requests. 2026-07-28 clients (per-request
 *   `_meta`, no `initialize`) are sent to the SDK's modern handler, which needs no session.
 *   `classifyInboundRequest()` is the SDK's own classifier (the one behind `isLegacyRequest`),
 *   applied to the parsed body and the headers, so the split never disagrees with the SDK.
 * - Stateless (`MCP_STATELESS=true`): every request is served on its own, so replicas behind a
 *   load balancer need no session affinity. The price: no GET stream and no server-to-client
 *   requests for 2025-era clients.
 * Requests served one instance each (modern, and stateless 2025) borrow a built server from a
 * pool (`server-pool.ts`) instead of building one per request.
 */
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  classifyInboundRequest,
  createMcpHandler,
  isInitializeRequest,
  type McpRequestContext,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import { subjectOf } from '../auth/guard.js';
import type { Logger } from '../logger.js';
import { publishTaskChanges } from '../resources/publish.js';
import type { TaskEvents } from '../tasks/events.js';
import { SessionEventStore } from './event-store.js';
import { sendJsonRpcError } from './json-rpc-errors.js';
import { nodeAdapter } from './node-adapter.js';
import { ServerPool } from './server-pool.js';
import type { SessionRegistry } from './sessions.js';

export interface McpEndpointOptions {
  buildServer: () => McpServer;
  logger: Logger;
  /** Absent in stateless mode. */
  sessions?: SessionRegistry;
  /** Same limit as the JSON body parser, for bodies the SDK reads itself. */
  maxBodyBytes: number;
  /** Task writes, published to 2026-07-28 `subscriptions/listen` streams. */
  taskEvents?: TaskEvents;
}

export interface McpEndpoint {
  handle: RequestHandler;
  close(): Promise<void>;
}

/**
 * Batches exist only in 2025-03-26 (and, unspecified, 2024-11-05). A missing version header
 * means 2025-03-26, as the spec says to assume.
 */
const MODERN_VERSION = '2026-07-28';
/** How long a client should wait before reconnecting a dropped SSE stream (sent as `retry:`). */
const SSE_RETRY_MS = 1000;
const BATCH_VERSIONS = new Set(['2025-03-26', '2024-11-05']);
function batchAllowed(protocolVersionHeader: string | undefined): boolean {
  return protocolVersionHeader === undefined || BATCH_VERSIONS.has(protocolVersionHeader);
}

/**
 * 2025 methods that leave per-client state on the instance that served them (capabilities,
 * client info, the log level): such an instance is never lent to another request.
 */
const STATEFUL_LEGACY_METHODS = new Set(['initialize', 'notifications/initialized', 'logging/setLevel']);

function methodOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'method' in body && typeof body.method === 'string'
    ? body.method
    : undefined;
}

/**
 * The SDK's per-request handler, fed from a pool: each request borrows an instance through the
 * factory, and it goes back when the response has finished (`completed`) and the SDK let go of it.
 */
function pooledHandler(
  buildServer: () => McpServer,
  legacy: 'stateless' | 'reject',
  options: { onerror: (error: Error) => void; maxBodyBytes: number },
) {
  const pools = { modern: new ServerPool(buildServer), legacy: new ServerPool(buildServer) };
  const lent = new WeakMap<globalThis.Request, { server: McpServer; era: 'modern' | 'legacy' }>();
  const factory = (ctx: McpRequestContext): McpServer => {
    const server = pools[ctx.era].acquire();
    if (ctx.requestInfo) lent.set(ctx.requestInfo, { server, era: ctx.era });
    return server;
  };
  const handler = createMcpHandler(factory, {
    legacy,
    onerror: options.onerror,
    maxRequestBodySize: options.maxBodyBytes,
  });
  const serve = nodeAdapter(handler.fetch, {
    onerror: options.onerror,
    onFinish: (request, completed) => {
      const loan = lent.get(request);
      if (!loan || !completed) return;
      // The SDK disconnects the instance as the exchange ends; give it that turn before checking.
      setImmediate(() => pools[loan.era].release(loan.server));
    },
  });
  return { handler, pools, serve };
}

/** Single-value header, as the SDK reads it (a repeated header counts as its first value). */
function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Would the SDK's `createMcpHandler` route this POST to its 2025 (legacy) side? The same
 * `classifyInboundRequest` the SDK's `isLegacyRequest` uses, on the body express parsed; a body
 * that is missing or not JSON is legacy, as there. No web `Request` is built for it.
 */
function isLegacy(req: Request): boolean {
  if (req.body === undefined) return true;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body: req.body,
  });
  return outcome.kind === 'legacy';
}

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { buildServer, logger, sessions, maxBodyBytes, taskEvents } = options;
  const onerror = (error: Error) => logger.warn({ err: error }, 'MCP handler reported an error');

  if (!sessions) {
    // A 2025 request that sets per-client state gets its own instance, never a pooled one; so
    // does a batch (2025-03-26), which may carry such a request among others.
    const fresh = (body: unknown) => Array.isArray(body) || STATEFUL_LEGACY_METHODS.has(methodOf(body) ?? '');
    const stateless = pooledHandler(buildServer, 'stateless', { onerror, maxBodyBytes });
    const stopPublishing = taskEvents ? publishTaskChanges(taskEvents, stateless.handler.notify) : () => {};
    const unpooled = nodeAdapter(
      createMcpHandler(() => buildServer(), {
        legacy: 'stateless',
        onerror,
        maxRequestBodySize: maxBodyBytes,
      }).fetch,
      { onerror },
    );
    return {
      handle: (req, res) => void (fresh(req.body) ? unpooled : stateless.serve)(req, res, req.body),
      close: () => {
        stopPublishing();
        return stateless.handler.close();
      },
    };
  }

  const modern = pooledHandler(buildServer, 'reject', { onerror, maxBodyBytes });
  const stopPublishing = taskEvents ? publishTaskChanges(taskEvents, modern.handler.notify) : () => {};

  const serveLegacy = async (req: Request, res: Response): Promise<void> => {
    const sessionId = req.header('mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJsonRpcError(
          res,
          404,
          -32001,
          'Session not found. It expired or was closed: send initialize again.',
        );
        return;
      }
      if (session.subject !== subjectOf(req.auth)) {
        // 403, not 404: the id is real, and it is the token that is wrong for it. Whose it is stays unsaid.
        sendJsonRpcError(
          res,
          403,
          -32001,
          'This session belongs to another user: open your own with initialize.',
        );
        return;
      }
      res.on('close', sessions.track(session));
      await session.transport.handleRequest(req, res, req.body);
      return;
    }
    if (req.method === 'POST' && isInitializeRequest(req.body)) {
      if (!(await sessions.hasRoom())) {
        res.setHeader('Retry-After', '30');
        sendJsonRpcError(
          res,
          503,
          -32000,
          'Too many open sessions. Close unused ones with DELETE /mcp, or retry later.',
        );
        return;
      }
      const server = buildServer();
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // Numbered events, the priming event of 2025-11-25, and Last-Event-ID replay after a drop.
        eventStore: new SessionEventStore(),
        retryInterval: SSE_RETRY_MS,
        onsessioninitialized: (id) => {
          sessions.add(transport, server, id, subjectOf(req.auth));
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.remove(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
      return;
    }
    sendJsonRpcError(res, 400, -32000, 'Bad Request: missing Mcp-Session-Id header. Send initialize first.');
  };

  const handle: RequestHandler = async (req, res) => {
    try {
      if (Array.isArray(req.body) && !batchAllowed(req.header('mcp-protocol-version'))) {
        sendJsonRpcError(
          res,
          400,
          -32600,
          'JSON-RPC batches were removed in protocol 2025-06-18: send one message per POST.',
        );
        return;
      }
      if (req.method === 'POST' && !isLegacy(req)) {
        await modern.serve(req, res, req.body);
        return;
      }
      // 2026-07-28 has no GET stream and no sessions to DELETE; only sessions (2025 era) use those verbs.
      if (req.method !== 'POST' && req.header('mcp-protocol-version') === MODERN_VERSION) {
        res.setHeader('Allow', 'POST');
        sendJsonRpcError(res, 405, -32000, `Method not allowed: protocol ${MODERN_VERSION} uses POST only.`);
        return;
      }
      await serveLegacy(req, res);
    } catch (error) {
      logger.error({ err: error }, 'unexpected error on /mcp');
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
    }
  };

  return {
    handle,
    async close() {
      stopPublishing();
      await sessions.closeAll();
      await modern.handler.close();
    },
  };
}
