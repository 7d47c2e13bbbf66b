#!/usr/bin/env node
/**
 * @module index
 * The development authorization server as a process (`pnpm start:secure`, the compose `auth`
 * profile, and the auth tests): listens on AUTH_HOST:AUTH_PORT (default 127.0.0.1:3003) until
 * SIGINT or SIGTERM. For the workshop only: its default secrets are public (refused off loopback,
 * see env.ts) and it keeps everything in memory.
 */
import pino from 'pino';
import { loadAuthServerEnv } from './env.js';
import { startAuthServer } from './lib.js';

async function main(): Promise<void> {
  const env = loadAuthServerEnv();
  const logger = pino(
    { level: env.LOG_LEVEL, base: { service: 'auth-server' } },
    pino.destination({ fd: 2, sync: true }),
  );
  const server = await startAuthServer({
    host: env.AUTH_HOST,
    port: env.AUTH_PORT,
    issuer: env.AUTH_ISSUER,
    resources: env.MCP_RESOURCE_URL,
    accessTokenTtlSeconds: env.AUTH_ACCESS_TOKEN_TTL_SECONDS,
    agentSecret: env.AUTH_AGENT_CLIENT_SECRET,
    readerSecret: env.AUTH_READER_CLIENT_SECRET,
    demoPassword: env.AUTH_DEMO_PASSWORD,
    guestPassword: env.AUTH_GUEST_PASSWORD,
    loginAttemptsPerMinute: env.AUTH_LOGIN_ATTEMPTS_PER_MINUTE,
    onError: (error) => logger.error({ err: error }, 'authorization server error'),
  });
  logger.warn(
    { issuer: server.issuer, resources: env.MCP_RESOURCE_URL },
    'development authorization server listening: public secrets, in-memory state, never for production',
  );
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  const hint =
    error instanceof Error && 'code' in error && error.code === 'EADDRINUSE' ? ' Set AUTH_PORT.' : '';
  console.error(`${error instanceof Error ? error.message : error}${hint}`);
  process.exit(1);
});
