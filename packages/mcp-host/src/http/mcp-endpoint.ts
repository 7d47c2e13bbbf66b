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
 *   requests for 2025-era clients. 2026-07-28 requests take the SDK's modern handler, as in
 *   stateful mode; every 2025 request takes `stateless-legacy.ts`.
 * Requests served one instance each (modern, and stateless 2025) borrow a built server from a
 * pool (`server-pool.ts`) instead of building one per request.
 */
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  type McpRequestContext,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import { ownerOf } from '../auth/caller.js';
import { refuseForScope } from '../auth/guard.js';
import { missingScopes, type ScopePolicy, scopesForReading } from '../auth/scopes.js';
import type { Logger } from '../logger.js';
import type { ClientShares, ShareRefusal } from './client-shares.js';
import { SessionEventStore } from './event-store.js';
import { requestIdOf, sendJsonRpcError } from './json-rpc-errors.js';
import { nodeAdapter } from './node-adapter.js';
import { type OwnerEventBus, OwnerScopedEventBus } from './owner-bus.js';
import { type RequestReading, readingOf } from './request-reading.js';
import { ServerPool } from './server-pool.js';
import { SessionRecord, swapSessionServer } from './session-swap.js';
import type { Session, SessionRegistry } from './sessions.js';
import { fromPool, serveStatelessLegacy } from './stateless-legacy.js';
import { endWithToken, type TokenClock } from './token-lifetime.js';
import { type WaitingCalls, watchWaitingCalls } from './waiting-calls.js';

export interface McpEndpointOptions {
  buildServer: () => McpServer;
  logger: Logger;
  /** Absent in stateless mode. */
  sessions?: SessionRegistry;
  /** Same limit as the JSON body parser, for bodies the SDK reads itself. */
  maxBodyBytes: number;
  /** Connects the server's change feed to 2026-07-28 `subscriptions/listen` streams (`AppOptions`). */
  publishEvents?: (bus: OwnerEventBus) => () => void;
  /** Long-lived streams (2025 GET streams, 2026-07-28 listen streams): per client and in all. */
  streams: ClientShares;
  /**
   * Whether `reload` may be called (`AppOptions.reloadable`): then each session also keeps what a
   * new server instance must hear again (`session-swap.ts`). Off, that costs nothing.
   */
  reloadable?: boolean;
  /** With sign-in on: the scope policy and the token clock, for replays and stream lifetimes. */
  auth?: EndpointAuth;
}

export interface EndpointAuth {
  policy: ScopePolicy;
  resourceMetadataUrl: string;
  clock: TokenClock;
}

export interface McpEndpoint {
  handle: RequestHandler;
  /**
   * After the factory changed (`HostApp.reload`): pooled instances are retired, every live 2025
   * session moves onto a new instance, and every client hears list_changed. Resolves to the number
   * of sessions moved; a session whose move failed keeps its old instance and is counted out.
   */
  reload(): Promise<{ sessions: number; failed: number }>;
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

/**
 * The SDK's handler for 2026-07-28 requests, fed from a pool: each request borrows an instance
 * through the factory, and it goes back when the response has finished (`completed`) and the SDK
 * let go of it. It serves no 2025 request (`legacy: 'reject'`): the endpoint sends those elsewhere.
 */
function modernHandler(
  buildServer: () => McpServer,
  options: { onerror: (error: Error) => void; maxBodyBytes: number; bus: OwnerScopedEventBus },
) {
  const pool = new ServerPool(buildServer);
  const lent = new WeakMap<globalThis.Request, McpServer>();
  const factory = (ctx: McpRequestContext): McpServer => {
    const server = pool.acquire();
    if (ctx.requestInfo) lent.set(ctx.requestInfo, server);
    return server;
  };
  const handler = createMcpHandler(factory, {
    legacy: 'reject',
    onerror: options.onerror,
    maxRequestBodySize: options.maxBodyBytes,
    bus: options.bus,
    // JSON answers come back with their text and no body: `nodeAdapter` writes the text (series patch 12).
    jsonText: true,
  });
  const serve = nodeAdapter(handler.fetch, {
    onerror: options.onerror,
    onFinish: (request, completed) => {
      const server = lent.get(request);
      if (!server || !completed) return;
      // The SDK disconnects the instance as the exchange ends; give it that turn before checking.
      setImmediate(() => pool.release(server));
    },
  });
  return { handler, pool, serve };
}

/** How long a client over its share of sessions or streams should wait before trying again. */
const SHARE_RETRY_AFTER_SECONDS = 30;

/**
 * A client over its own share gets 429 (it can close what it holds); a server that is full for
 * everyone gets 503. Both say what to do.
 */
function refuseShare(res: Response, refusal: ShareRefusal, what: string, limit: number, body: unknown): void {
  res.setHeader('Retry-After', String(SHARE_RETRY_AFTER_SECONDS));
  const message =
    refusal === 'client'
      ? `Too many open ${what} for this client: at most ${limit}. Close unused ones, or retry in ${SHARE_RETRY_AFTER_SECONDS} s.`
      : `Too many open ${what} on this server. Retry in ${SHARE_RETRY_AFTER_SECONDS} s.`;
  sendJsonRpcError(res, refusal === 'client' ? 429 : 503, -32000, message, requestIdOf(body));
}

/** A 2025 request that leaves per-client state on its instance, or a batch that may carry one. */
function needsFreshInstance(reading: RequestReading): boolean {
  return (
    reading.batch || reading.messages.some((message) => STATEFUL_LEGACY_METHODS.has(message.method ?? ''))
  );
}

/** Tells every 2026-07-28 listen stream that the tools, prompts and resources may have changed. */
function announceListChanges(bus: OwnerScopedEventBus): void {
  for (const kind of ['tools_list_changed', 'prompts_list_changed', 'resources_list_changed'] as const) {
    bus.publish({ kind });
  }
}

/**
 * Tells a 2025 session's client, through its new instance, that the lists may have changed. An
 * instance that does not offer a kind of list refuses that notification, and it is skipped.
 */
async function announceOnSession(server: McpServer): Promise<void> {
  const low = server.server;
  for (const send of [
    () => low.sendToolListChanged(),
    () => low.sendPromptListChanged(),
    () => low.sendResourceListChanged(),
  ]) {
    await Promise.resolve()
      .then(send)
      .catch(() => undefined);
  }
}

/** The ids of the requests a POST carries (one message, or a 2025-03-26 batch), from its one reading. */
function requestIdsOf(reading: RequestReading): Array<string | number> {
  const ids: Array<string | number> = [];
  for (const message of reading.messages) if (message.id !== undefined) ids.push(message.id);
  return ids;
}

function isListen(reading: RequestReading): boolean {
  return reading.era === 'modern' && reading.messages[0]?.method === 'subscriptions/listen';
}

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { buildServer, logger, sessions, maxBodyBytes, publishEvents, streams, auth, reloadable } = options;
  const onerror = (error: Error) => logger.warn({ err: error }, 'MCP handler reported an error');
  // listen streams hear only their own owner's changes: the bus files each stream under the owner
  // of the request that opened it, which `runAs` below makes known while it is served.
  const bus = new OwnerScopedEventBus(onerror);
  const stopPublishing = publishEvents ? publishEvents(bus) : () => {};

  /**
   * Holds one of the client's stream shares for as long as `res` is open, and ends `res` when
   * its token expires. Returns false (having answered) when the client is over its share.
   */
  const openStream = (req: Request, res: Response, reading: RequestReading): boolean => {
    const taken = streams.take(reading.clientKey);
    if (typeof taken !== 'function') {
      refuseShare(res, taken, 'streams', taken === 'client' ? streams.perClient : streams.total, req.body);
      return false;
    }
    res.once('close', taken);
    if (auth) endWithToken(res, req.auth, auth.clock);
    return true;
  };

  /** Serves a POST one instance answers (modern, or stateless 2025), minding listen streams. */
  const servePerRequest = async (
    req: Request,
    res: Response,
    reading: RequestReading,
    serve: (req: Request, res: Response, body: unknown) => Promise<void>,
  ): Promise<void> => {
    if (isListen(reading) && !openStream(req, res, reading)) return;
    await bus.runAs(ownerOf(req.auth), () => serve(req, res, req.body));
  };

  const modern = modernHandler(buildServer, { onerror, maxBodyBytes, bus });

  if (!sessions) {
    const legacyPool = new ServerPool(buildServer);
    const serveLegacy = serveStatelessLegacy(onerror);
    const pooledLegacy = fromPool(legacyPool);
    // A 2025 request that sets per-client state gets its own instance, never a pooled one; so
    // does a batch (2025-03-26), which may carry such a request among others.
    const ownInstance = { take: buildServer };
    return {
      handle: async (req, res) => {
        const reading = readingOf(req);
        if (reading.era === 'modern') {
          await servePerRequest(req, res, reading, modern.serve);
          return;
        }
        const source = needsFreshInstance(reading) ? ownInstance : pooledLegacy;
        await servePerRequest(req, res, reading, () => serveLegacy(req, res, source));
      },
      reload: async () => {
        modern.pool.retire();
        legacyPool.retire();
        announceListChanges(bus);
        return { sessions: 0, failed: 0 };
      },
      close: () => {
        stopPublishing();
        return modern.handler.close();
      },
    };
  }

  /** Each session's calls that may wait on their client (`waiting-calls.ts`). */
  const waitingCalls = new WeakMap<NodeStreamableHTTPServerTransport, WaitingCalls>();
  /** With reloads on: what each session's instance must hear again, and its close handler. */
  const records = new WeakMap<
    NodeStreamableHTTPServerTransport,
    { record: SessionRecord; onclose: () => void }
  >();

  const serveSession = async (req: Request, res: Response, reading: RequestReading, sessionId: string) => {
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
    if (session.owner !== reading.owner || session.clientId !== reading.clientId) {
      // 403, not 404: the id is real, and it is the token that is wrong for it. Whose it is stays unsaid.
      sendJsonRpcError(
        res,
        403,
        -32001,
        'This session belongs to another user: open your own with initialize.',
      );
      return;
    }
    if (auth) {
      const needed = scopesForReading(reading, auth.policy);
      for (const scope of needed) session.scopesUsed.add(scope);
      // A replay hands back answers to earlier requests (list_tasks results among them): the token
      // asking for them must hold every scope those requests needed, not just the one it has now.
      if (req.method === 'GET' && req.header('last-event-id') !== undefined) {
        const used = [...session.scopesUsed].sort();
        const missing = missingScopes(used, req.auth?.scopes ?? []);
        if (missing.length > 0) {
          logger.info({ clientId: req.auth?.clientId, missing }, 'refused a replay for scope');
          refuseForScope(res, auth, used, missing);
          return;
        }
      }
    }
    const stream = req.method === 'GET';
    if (stream && !openStream(req, res, reading)) return;
    res.on('close', sessions.track(session, stream ? 'stream' : 'post'));
    if (req.method === 'POST') records.get(session.transport)?.record.note(req.body, req.auth);
    if (req.method === 'POST')
      waitingCalls.get(session.transport)?.track(requestIdsOf(reading), res, req.auth);
    await session.transport.handleRequest(req, res, req.body);
  };

  const openSession = async (req: Request, res: Response, reading: RequestReading) => {
    const refusal = await sessions.refusal(reading.clientKey);
    if (refusal) {
      const limit = refusal === 'client' ? sessions.maxPerClient : sessions.maxSessions;
      refuseShare(res, refusal, 'sessions (close unused ones with DELETE /mcp)', limit, req.body);
      return;
    }
    const server = buildServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Numbered events, the priming event of 2025-11-25, and Last-Event-ID replay after a drop.
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        const session = sessions.add(transport, server, id, reading);
        if (auth) for (const scope of scopesForReading(reading, auth.policy)) session.scopesUsed.add(scope);
      },
    });
    const onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    transport.onclose = onclose;
    if (reloadable) {
      const record = new SessionRecord();
      record.note(req.body, req.auth);
      records.set(transport, { record, onclose });
    }
    waitingCalls.set(
      transport,
      watchWaitingCalls(transport, { streams, clientKey: reading.clientKey, clock: auth?.clock }),
    );
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  const serveLegacy = async (req: Request, res: Response, reading: RequestReading): Promise<void> => {
    const sessionId = req.header('mcp-session-id');
    if (sessionId !== undefined) return serveSession(req, res, reading, sessionId);
    if (req.method === 'POST' && isInitializeRequest(req.body)) return openSession(req, res, reading);
    sendJsonRpcError(res, 400, -32000, 'Bad Request: missing Mcp-Session-Id header. Send initialize first.');
  };

  const handle: RequestHandler = async (req, res) => {
    try {
      const reading = readingOf(req);
      if (reading.batch && !batchAllowed(req.header('mcp-protocol-version'))) {
        sendJsonRpcError(
          res,
          400,
          -32600,
          'JSON-RPC batches were removed in protocol 2025-06-18: send one message per POST.',
        );
        return;
      }
      if (reading.era === 'modern') {
        await servePerRequest(req, res, reading, modern.serve);
        return;
      }
      // 2026-07-28 has no GET stream and no sessions to DELETE; only sessions (2025 era) use those verbs.
      if (req.method !== 'POST' && req.header('mcp-protocol-version') === MODERN_VERSION) {
        res.setHeader('Allow', 'POST');
        sendJsonRpcError(res, 405, -32000, `Method not allowed: protocol ${MODERN_VERSION} uses POST only.`);
        return;
      }
      await serveLegacy(req, res, reading);
    } catch (error) {
      logger.error({ err: error }, 'unexpected error on /mcp');
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
    }
  };

  /** Moves one session onto an instance of the current catalogue; false when that failed. */
  const moveSession = async (session: Session): Promise<boolean> => {
    const kept = records.get(session.transport);
    if (!kept) return false;
    try {
      const next = buildServer();
      await swapSessionServer(session.transport, next, kept.record, kept.onclose);
      session.server = next;
      await announceOnSession(next);
      return true;
    } catch (error) {
      logger.warn({ err: error, sessionId: session.id }, 'a session stays on the old catalogue');
      return false;
    }
  };

  return {
    handle,
    async reload() {
      modern.pool.retire();
      const moved = await Promise.all(sessions.live().map(moveSession));
      announceListChanges(bus);
      const failed = moved.filter((ok) => !ok).length;
      return { sessions: moved.length - failed, failed };
    },
    async close() {
      stopPublishing();
      await sessions.closeAll();
      await modern.handler.close();
    },
  };
}
