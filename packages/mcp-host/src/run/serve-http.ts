/**
 * @module run/serve-http
 * Serves a prepared catalogue over Streamable HTTP from the host's settings: sign-in when
 * MCP_AUTH_ISSUER is set (the issuer is found first, waiting for it within a bound), the limits and
 * shares from MCP_*, and its services opened once serving. It installs no signal handlers and never
 * exits the process: the entry (`runCatalogue`) does, and `pnpm dev` and tests call this directly.
 */
import { EnvError } from '@mcp-workshop/shared';
import type { HttpHost } from '../http/start.js';
import type { Logger } from '../logger.js';
import type { HostEnv } from './env.js';
import type { PreparedCatalogue } from './prepare.js';

export interface ServeHttpOptions {
  env: HostEnv;
  logger: Logger;
  prepared: PreparedCatalogue;
  /** Lets `reload` swap the catalogue while serving (`pnpm dev`). */
  reloadable?: boolean;
  /** More `GET /health` fields, read per request (`pnpm dev`'s `dev` block). */
  healthDetails?: () => Record<string, unknown>;
}

/** Listens on HOST:PORT and resolves once serving; a port in use rejects with an `EnvError` that says what to do. */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpHost> {
  const { env, logger, prepared } = options;
  // The narrow entry: the package's main one also exports the in-process client, which a cold start never needs.
  const { startHttpHost } = await import('../http/start.js');
  const auth = await discoverAuth(options);
  // Before the first server is built: each one serves what was loaded by then (the skills).
  await prepared.services.load?.();
  let host: HttpHost;
  try {
    host = await startHttpHost({
      ...prepared.hostOptions(),
      logger,
      port: env.PORT,
      hostname: env.HOST,
      stateless: env.MCP_STATELESS,
      sessionTtlSeconds: env.MCP_SESSION_TTL_SECONDS,
      ...(env.MCP_STALLED_RESPONSE_SECONDS && { stalledResponseMs: env.MCP_STALLED_RESPONSE_SECONDS * 1000 }),
      maxSessions: env.MCP_MAX_SESSIONS,
      maxSessionsPerClient: env.MCP_MAX_SESSIONS_PER_CLIENT,
      maxStreams: env.MCP_MAX_STREAMS,
      maxStreamsPerClient: env.MCP_MAX_STREAMS_PER_CLIENT,
      allowedHosts: env.MCP_ALLOWED_HOSTS,
      allowedOrigins: env.MCP_ALLOWED_ORIGINS,
      ...(env.MCP_TRUST_PROXY && { trustProxy: env.MCP_TRUST_PROXY }),
      ...(auth && { auth }),
      ...(options.reloadable && { reloadable: true }),
      ...(options.healthDetails && { healthDetails: options.healthDetails }),
      rateLimits: {
        callsPerMinute: env.MCP_RATE_LIMIT_PER_MINUTE,
        handshakesPerMinute: env.MCP_HANDSHAKE_RATE_LIMIT_PER_MINUTE,
        authFailuresPerMinute: env.MCP_AUTH_FAILURE_LIMIT_PER_MINUTE,
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new EnvError(
        `Port ${env.PORT} on ${env.HOST} is already in use. Stop the other process or set PORT=<free port>.`,
      );
    }
    throw error;
  }
  logger.info(
    {
      url: `http://${env.HOST}:${host.port}/mcp`,
      mode: env.MCP_STATELESS ? 'stateless' : 'stateful',
      ...prepared.services.describe?.(),
    },
    'MCP server listening',
  );
  return host;
}

/** With MCP_AUTH_ISSUER set, finds the issuer's metadata before serving; an issuer that can't be found stops start-up. */
async function discoverAuth({ env, logger, prepared }: ServeHttpOptions) {
  if (!env.MCP_AUTH_ISSUER || !env.MCP_RESOURCE_URL) return undefined;
  const { discoverIssuer } = await import('../auth/issuer.js');
  // Started together with the issuer (`pnpm start:secure`, compose, or one pasted block), the
  // server waits for it, within the host's bound, instead of dying on the first refused connection.
  const issuer = await discoverIssuer(env.MCP_AUTH_ISSUER, {
    onWait: ({ issuerUrl, attempt, delayMs, reason }) =>
      logger.warn(
        { issuer: issuerUrl, attempt, retryInMs: delayMs, reason },
        'the authorization server does not answer yet; waiting for it',
      ),
  });
  logger.info({ issuer: issuer.issuer, resource: env.MCP_RESOURCE_URL }, 'OAuth sign-in is on');
  return { issuer, resource: env.MCP_RESOURCE_URL, policy: prepared.policy() };
}
