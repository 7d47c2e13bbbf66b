/**
 * @module http/mcp-endpoint
 * The Streamable HTTP endpoint at `/mcp`, for both protocol eras.
 *
 * - Stateful (default): 2025-era clients (`initialize`) get a session of their own, with an SSE
 *   channel for progress, logging and server-to-client requests. 2026-07-28 clients (per-request
 *   `_meta`, no `initialize`) are sent to the SDK's modern handler, which needs no session.
 *   `isLegacyRequest()` is the SDK's own classifier, so the split never disagrees with it.
 * - Stateless (`MCP_STATELESS=true`): every request gets a fresh server instance, so replicas
 *   behind a load balancer need no session affinity. The price: no GET stream and no
 *   server-to-client requests for 2025-era clients.
 */
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import { publishTaskChanges } from '../resources/publish.js';
import type { TaskEvents } from '../tasks/events.js';
import { SessionEventStore } from './event-store.js';
import { sendJsonRpcError } from './json-rpc-errors.js';
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

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { buildServer, logger, sessions, maxBodyBytes, taskEvents } = options;
  const onerror = (error: Error) => logger.warn({ err: error }, 'MCP handler reported an error');

  if (!sessions) {
    const stateless = createMcpHandler(() => buildServer(), {
      legacy: 'stateless',
      onerror,
      maxRequestBodySize: maxBodyBytes,
    });
    const node = toNodeHandler(stateless, { onerror, maxRequestBodySize: maxBodyBytes });
    const stopPublishing = taskEvents ? publishTaskChanges(taskEvents, stateless.notify) : () => {};
    return {
      handle: (req, res) => void node(req, res, req.body),
      close: () => {
        stopPublishing();
        return stateless.close();
      },
    };
  }

  const modern = createMcpHandler(() => buildServer(), {
    legacy: 'reject',
    onerror,
    maxRequestBodySize: maxBodyBytes,
  });
  const modernNode = toNodeHandler(modern, { onerror, maxRequestBodySize: maxBodyBytes });
  const stopPublishing = taskEvents ? publishTaskChanges(taskEvents, modern.notify) : () => {};

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
          sessions.add(transport, server, id);
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
      if (req.method === 'POST' && !(await isLegacyRequest(await toWebRequest(req, req.body), req.body))) {
        await modernNode(req, res, req.body);
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
      await modern.close();
    },
  };
}
