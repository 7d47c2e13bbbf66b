#!/usr/bin/env node
/**
 * @module demo-model/main
 * The offline demo model as a process of its own, for the docker-compose `demo-model` service:
 * listens on DEMO_MODEL_HOST:DEMO_MODEL_PORT (0 picks a free port) until SIGINT or SIGTERM.
 * The agent reaches it through DEMO_MODEL_URL, e.g. http://demo-model:3002/v1.
 */
import { EnvError, loadAgentEnv } from '../env.js';
import { createLogger } from '../logger.js';
import { startDemoModel } from './start.js';

async function main(): Promise<void> {
  const env = loadAgentEnv();
  const logger = createLogger(env.LOG_LEVEL === 'warn' ? 'info' : env.LOG_LEVEL).child({
    component: 'demo-model',
  });
  const demo = await startDemoModel({ host: env.DEMO_MODEL_HOST, port: env.DEMO_MODEL_PORT });
  logger.info({ url: demo.url }, 'offline demo model listening (a scripted stand-in, not a language model)');
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
