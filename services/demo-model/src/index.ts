#!/usr/bin/env node
/**
 * @module index
 * The offline demo model as the process it is in production (`pnpm start`, the docker-compose
 * `demo-model` service, and what `pnpm ask` starts when no model is configured): listens on
 * DEMO_MODEL_HOST:DEMO_MODEL_PORT (default 127.0.0.1:3002; 0 picks a free port) until SIGINT or
 * SIGTERM. The agent reaches it over HTTP through DEMO_MODEL_URL, e.g. http://127.0.0.1:3002/v1.
 */
import pino from 'pino';
import { EnvError, loadDemoModelEnv } from './env.js';
import { startDemoModel, startOptionsFromEnv } from './start.js';

async function main(): Promise<void> {
  const env = loadDemoModelEnv();
  // stderr, like the other services, so a parent process may keep stdout for itself.
  const logger = pino(
    { level: env.LOG_LEVEL, base: { service: 'demo-model' } },
    pino.destination({ fd: 2, sync: true }),
  );
  const demo = await startDemoModel(startOptionsFromEnv(env));
  logger.info(
    { url: demo.url, chunkDelayMs: env.DEMO_MODEL_CHUNK_DELAY_MS },
    'offline demo model listening (a scripted stand-in, not a language model)',
  );
  const stop = async () => {
    await demo.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  const hint =
    error instanceof Error && 'code' in error && error.code === 'EADDRINUSE' ? ' Set DEMO_MODEL_PORT.' : '';
  console.error(`${error instanceof EnvError || error instanceof Error ? error.message : error}${hint}`);
  process.exit(1);
});
