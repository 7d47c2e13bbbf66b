/**
 * @module http/app
 * `createApp()` builds the express app that hosts any `() => McpServer` factory: `/mcp` (Streamable
 * HTTP, both protocol eras), `/health` (liveness), `/health/ready` (readiness, from the server's own
 * `checkReady`), and the curl path (`/tools`). It binds nothing and does no I/O of its own.
 */

import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/express';
import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpServer,
} from '@modelcontextprotocol/server';
import express, { type Express } from 'express';
import type { IssuerMetadata } from '../auth/issuer.js';
import { createResourceServer } from '../auth/resource-server.js';
import type { ScopePolicy } from '../auth/scopes.js';
import { CLOCK_TOLERANCE_SECONDS } from '../auth/token-verifier.js';
import { createLogger, type Logger } from '../logger.js';
import { installTaskMethods } from '../tasks/methods.js';
import { publishTaskStatus } from '../tasks/notify.js';
import type { TaskRuntime } from '../tasks/runtime.js';
import { bodyErrorHandler, readBody } from './body-errors.js';
import { ClientShares, shareUnder } from './client-shares.js';
import { curlPathGuard } from './curl-path-guard.js';
import { verifyJsonDepth } from './json-depth.js';
import { sendJsonRpcError } from './json-rpc-errors.js';
import { createMcpEndpoint } from './mcp-endpoint.js';
import type { OwnerEventBus } from './owner-bus.js';
import { createRateLimits, type RateLimitOptions } from './rate-limits.js';
import { readMcpRequest, readToolRouteRequest } from './request-reading.js';
import { originForm } from './request-target.js';
import { SessionRegistry } from './sessions.js';
import { createToolRoutes } from './tool-routes.js';

/**
 * A readiness probe answers within this whatever the database does: a load balancer's check
 * times out after a few seconds, and a slow answer means "not ready" anyway.
 */
export const READY_TIMEOUT_MS = 2_000;

/** What a server's readiness check found. */
export interface Readiness {
  ready: boolean;
  /** Shown in the answer as they are, e.g. `{ database: 'ok' }`: names and states, never secrets. */
  checks?: Readonly<Record<string, string>>;
  /** Said when not ready: what fails meanwhile, and what still works. */
  message?: string;
}

/** The answer when the check throws or does not answer in time. */
const CHECK_FAILED: Readiness = {
  ready: false,
  message: `The readiness check failed or took longer than ${READY_TIMEOUT_MS / 1000} s.`,
};

/** Defaults for what a server leaves unset (the workshop's env.ts sets them from MCP_*). */
export const DEFAULT_SESSION_TTL_SECONDS = 1_800;
export const DEFAULT_MAX_SESSIONS = 1_000;
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 50;
export const DEFAULT_MAX_STREAMS = 1_024;
export const DEFAULT_MAX_STREAMS_PER_CLIENT = 16;

/** Largest request body accepted anywhere (MCP messages and curl-path arguments are small). */
export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_BODY_LABEL = '1 MB';

export interface AppOptions {
  buildServer: () => McpServer;
  /** Shown on `/health`, in the protected-resource metadata and on the sign-in page. */
  info: { name: string; version: string };
  /** Where the host logs; JSON lines on stderr by default (`createLogger`), named after `info.name`. */
  logger?: Logger;
  /** No 2025 sessions: every request is served on its own (default false). */
  stateless?: boolean;
  /** An idle 2025 session is closed after this (default {@link DEFAULT_SESSION_TTL_SECONDS}). */
  sessionTtlSeconds?: number;
  /** Live 2025 sessions in all: past it, 503 (default {@link DEFAULT_MAX_SESSIONS}). */
  maxSessions?: number;
  /**
   * Live 2025 sessions one client (subject, else address) may hold: past it, 429. At most
   * `maxSessions` (a RangeError otherwise); unset, {@link DEFAULT_MAX_SESSIONS_PER_CLIENT} or half
   * of `maxSessions`, whichever is lower.
   */
  maxSessionsPerClient?: number;
  /** Open long-lived streams (2025 GET streams, 2026-07-28 listen streams) in all: past it, 503. */
  maxStreams?: number;
  /**
   * Open long-lived streams one client may hold: past it, 429. At most `maxStreams`; unset,
   * {@link DEFAULT_MAX_STREAMS_PER_CLIENT} or half of `maxStreams`, whichever is lower.
   */
  maxStreamsPerClient?: number;
  /** Extra `Host` names to accept besides localhost (needed when bound to 0.0.0.0, e.g. in Docker). */
  allowedHosts?: string[];
  /** Extra `Origin` hostnames to accept besides localhost. */
  allowedOrigins?: string[];
  /**
   * Connects the server's own change feed to 2026-07-28 `subscriptions/listen` streams, whose
   * instances live for one request and cannot hold listeners: called once with a bus that delivers
   * each event only to its owner's streams (`ownerOf`); returns the function that stops it.
   */
  publishEvents?: (bus: OwnerEventBus) => () => void;
  /** OAuth 2.1 sign-in (`MCP_AUTH_ISSUER`): off when absent, and then nothing below changes. */
  auth?: AppAuthOptions;
  /** Per-client rate limits (`MCP_RATE_LIMIT_PER_MINUTE`, `MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE`); none when absent. */
  rateLimits?: RateLimitOptions;
  /**
   * Lets `HostApp.reload` swap the catalogue while serving (`pnpm dev`): each 2025 session then
   * also keeps what a new instance must hear again. Off (the default), a reload throws.
   */
  reloadable?: boolean;
  /**
   * More fields for `GET /health`, read at each request: `pnpm dev` adds its `dev` block (reloads,
   * type check) there. They cannot replace the host's own fields.
   */
  healthDetails?: () => Record<string, unknown>;
  /** Whether what the server needs (a database, say) answers, for `GET /health/ready`; always ready when absent. */
  checkReady?: () => Promise<Readiness>;
  /**
   * `MCP_TRUST_PROXY`, as express's `trust proxy`: behind a load balancer every request comes from
   * its address, so without this all clients would share one rate-limit bucket.
   */
  trustProxy?: string;
  /**
   * MCP Tasks (`io.modelcontextprotocol/tasks`): every server instance declares the extension and
   * serves `tasks/get`, `tasks/update` and `tasks/cancel` from this runtime. Its owner starts and
   * stops it. Absent, no instance mentions tasks.
   */
  tasks?: TaskRuntime;
}

export interface AppAuthOptions {
  /** The discovered issuer (`discoverIssuer` in auth/issuer.ts). */
  issuer: IssuerMetadata;
  /** `MCP_RESOURCE_URL`. */
  resource: string;
  /** Which tool, prompt and resource needs which scope (`createScopePolicy`). */
  policy: ScopePolicy;
  /** For tests: the clock tokens are checked against. */
  now?: () => Date;
}

export interface HostApp {
  app: Express;
  /** Live 2025-era sessions; undefined in stateless mode. */
  sessions: SessionRegistry | undefined;
  /** Closes every session and stops timers. */
  close(): Promise<void>;
  /** How many `McpServer` instances were built so far: sessions, pooled per-request ones, the curl path. */
  serversBuilt(): number;
  /**
   * Serves a new catalogue from now on, without a restart (only with `reloadable`): `buildServer`
   * is tried once first, so one that throws changes nothing; then pooled instances are retired,
   * live 2025 sessions move onto new instances (same id, same streams) and hear list_changed, and
   * so does every 2026-07-28 listen stream. Calls already running finish on the old instances.
   * With sign-in on, `policy` (when given) is what the HTTP scope check judges every request by from
   * then on, so a save that changes a tool's scopes is checked as the file now says.
   */
  reload(
    buildServer: () => McpServer,
    options?: { policy?: ScopePolicy },
  ): Promise<{ sessions: number; failed: number }>;
}

export function createApp(options: AppOptions): HostApp {
  const logger = options.logger ?? createLogger('info', { service: options.info.name });
  // The server's own change feed, and with Tasks, each task's status for the listen streams that name it.
  const publishEvents = withTaskStatus(options.publishEvents, options.tasks, logger);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  let built = 0;
  // One indirection, so a reload changes what every path (sessions, pools, the curl path) builds.
  let currentFactory = options.buildServer;
  /** When the catalogue being served was handed over: `/health` says it, so a tool can tell a server older than its source. */
  let catalogueLoadedAt = new Date();
  const buildServer = () => {
    built++;
    const server = currentFactory();
    if (options.tasks) installTaskMethods(server, options.tasks);
    return server;
  };
  const sessions = options.stateless
    ? undefined
    : new SessionRegistry({
        ttlMs: (options.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS) * 1000,
        maxSessions,
        maxSessionsPerClient: shareUnder(
          { name: 'maxSessionsPerClient', value: options.maxSessionsPerClient },
          DEFAULT_MAX_SESSIONS_PER_CLIENT,
          { name: 'maxSessions', value: maxSessions },
          logger,
        ),
        logger,
      });
  const maxStreams = options.maxStreams ?? DEFAULT_MAX_STREAMS;
  const streams = new ClientShares(
    shareUnder(
      { name: 'maxStreamsPerClient', value: options.maxStreamsPerClient },
      DEFAULT_MAX_STREAMS_PER_CLIENT,
      { name: 'maxStreams', value: maxStreams },
      logger,
    ),
    maxStreams,
  );
  const limits = options.rateLimits && createRateLimits(options.rateLimits);
  const resourceServer =
    options.auth &&
    createResourceServer({
      ...options.auth,
      name: options.info.name,
      logger,
      failures: limits?.authFailures,
    });
  const endpoint = createMcpEndpoint({
    buildServer,
    logger,
    sessions,
    maxBodyBytes: MAX_BODY_BYTES,
    ...(publishEvents && { publishEvents }),
    streams,
    ...(options.reloadable && { reloadable: true }),
    ...(resourceServer && {
      auth: {
        // Read at each request, so a reload that hands over a new policy (`reload`) is followed.
        get policy() {
          return resourceServer.policy;
        },
        resourceMetadataUrl: resourceServer.resourceMetadataUrl,
        clock: {
          now: options.auth?.now ?? (() => new Date()),
          toleranceSeconds: CLOCK_TOLERANCE_SECONDS,
        },
      },
    }),
  });

  // DNS-rebinding and cross-site protection: a foreign Host or Origin gets 403 before anything else runs.
  const checkHost = hostHeaderValidation([...localhostAllowedHostnames(), ...(options.allowedHosts ?? [])]);
  const checkOrigin = originValidation([...localhostAllowedOrigins(), ...(options.allowedOrigins ?? [])]);
  // Parse every POST body as JSON, whatever its Content-Type says, so the 1 MB limit covers all of them;
  // the MCP transport still answers a wrong Content-Type with 415. `strict: false` lets `"Oslo"` or `42`
  // through as the valid JSON they are, so the route can say what is wrong instead of "parse error".
  // `verify` refuses JSON nested too deep from the raw bytes, before it is parsed.
  // A body that cannot be read is answered by `bodyErrorHandler` below, as the client's mistake.
  const parseJson = readBody(
    express.json({
      limit: MAX_BODY_BYTES,
      type: () => true,
      strict: false,
      verify: verifyJsonDepth,
    }),
  );
  // The one reading of each request (ADR 015): limits, scopes and the endpoint all decide from it.
  const readMcp: express.RequestHandler = (req, _res, next) => {
    readMcpRequest(req);
    next();
  };

  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy) app.set('trust proxy', trustProxySetting(options.trustProxy));
  // `POST http://host/mcp` as `POST /mcp` with that host, before any check or route looks (RFC 9112 §3.2.2).
  app.use(originForm(checkHost));
  // The `/mcp` chain, built once and mounted once, as the app's first route: a request for `/mcp`
  // (any spelling express accepts: `/MCP`, `/mcp/`, a query) runs these, in this order, and is
  // answered by the endpoint without walking past the app's other layers (ADR 022). A check on `/mcp`
  // goes in this list, or `/mcp` never sees it. The protected-resource metadata, between the Host and
  // Origin checks below, serves only its own GET paths, so it has nothing to do here.
  const mcpChain: express.RequestHandler[] = [
    checkHost,
    checkOrigin,
    // Before the body is parsed: a request without a valid token costs no more than a header check
    // and a signature verification. Only failures spend the address's budget (429 past it).
    ...(resourceServer ? [resourceServer.authenticate] : []),
    parseJson,
    readMcp,
    // After sign-in, so a signed-in client is counted as who it is, not where it comes from.
    ...(limits ? [limits.mcp] : []),
    ...(resourceServer ? [resourceServer.scopes] : []),
    endpoint.handle,
  ];
  app.all('/mcp', ...mcpChain);

  app.use(checkHost);
  // Public on purpose, and before the Origin check: any client, browser-based ones included, reads
  // the metadata to learn how to get a token. /health stays open too.
  if (resourceServer) app.use(resourceServer.metadata);
  app.use(checkOrigin);
  // The curl path is for curl: same-origin browsers at most, and JSON bodies only (before sign-in,
  // so a cross-site page learns nothing, not even whether a token would have been needed).
  app.post('/tools/:name', curlPathGuard);
  // Before the body is parsed, as on `/mcp`.
  if (resourceServer) app.use('/tools', resourceServer.authenticate);
  app.use(parseJson);

  app.get('/tools', (req, _res, next) => {
    readToolRouteRequest(req, undefined);
    next();
  });
  app.post('/tools/:name', (req, _res, next) => {
    readToolRouteRequest(req, req.params.name);
    next();
  });

  if (limits) {
    // After sign-in, as on `/mcp`.
    app.use('/health', limits.handshake);
    app.get('/tools', limits.handshake);
    app.post('/tools/:name', limits.toolCall);
  }

  app.get('/health', (_req, res) => {
    res.json({
      ...options.healthDetails?.(),
      status: 'ok',
      name: options.info.name,
      version: options.info.version,
      mode: sessions ? 'stateful' : 'stateless',
      sessions: sessions?.size ?? 0,
      uptimeSeconds: Math.round(process.uptime()),
      catalogueLoadedAt: catalogueLoadedAt.toISOString(),
    });
  });

  // Readiness, apart from liveness: a replica whose database is away stays alive (restarting it
  // would not help) but leaves the load balancer's rotation until the database is back.
  // Behind the same handshake limit as /health, which app.use('/health') also covers.
  const checkReady = options.checkReady ?? (async (): Promise<Readiness> => ({ ready: true }));
  app.get('/health/ready', async (_req, res) => {
    const { ready, checks, message } = await withinReadyTimeout(checkReady);
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({
        status: ready ? 'ready' : 'not_ready',
        ...checks,
        ...(!ready && message !== undefined && { message }),
      });
  });

  if (resourceServer) app.post('/tools/:name', resourceServer.scopes);
  app.use(createToolRoutes(buildServer, logger, options.info.version));

  // A bad body spends its sender's budget like any request (parsed after sign-in, so a signed-in
  // sender is counted as who it is): a flood of them gets 429.
  app.use(bodyErrorHandler({ limitLabel: MAX_BODY_LABEL, logger, count: limits?.handshake }));
  app.use(((error, _req, res, _next) => {
    logger.error({ err: error }, 'unhandled error');
    if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
  }) satisfies express.ErrorRequestHandler);

  const reload = async (next: () => McpServer, reloaded: { policy?: ScopePolicy } = {}) => {
    if (!options.reloadable) throw new Error('This host was not started with reloadable: true.');
    // Built once before anything changes: a catalogue that throws while registering keeps the old one serving.
    const probe = next();
    await probe.close();
    currentFactory = next;
    if (reloaded.policy) resourceServer?.usePolicy(reloaded.policy);
    catalogueLoadedAt = new Date();
    return endpoint.reload();
  };
  return { app, sessions, close: () => endpoint.close(), serversBuilt: () => built, reload };
}

/** The check's answer, or not ready when it throws or takes longer than {@link READY_TIMEOUT_MS}. */
async function withinReadyTimeout(check: () => Promise<Readiness>): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve(CHECK_FAILED), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch(() => CHECK_FAILED), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A hop count stays a number for express; anything else is its list of addresses and presets. */
function trustProxySetting(value: string): number | string[] {
  return /^\d+$/.test(value)
    ? Number(value)
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

/** `publishEvents` plus, when the host serves Tasks, their status notifications. */
function withTaskStatus(
  publishEvents: AppOptions['publishEvents'],
  tasks: TaskRuntime | undefined,
  logger: Logger,
): AppOptions['publishEvents'] {
  if (!tasks) return publishEvents;
  return (bus) => {
    const stopOwn = publishEvents?.(bus);
    const stopTasks = publishTaskStatus(tasks, bus, logger);
    return () => {
      stopOwn?.();
      stopTasks();
    };
  };
}
