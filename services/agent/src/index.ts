#!/usr/bin/env node
/**
 * @module index
 * The long-running agent (`pnpm start`): the HTTP API on AGENT_HOST:AGENT_PORT (default
 * 127.0.0.1:3001). It waits for the MCP server with retries, since under docker-compose it may
 * start first. The only file here that listens.
 */
import { EnvError, loadAgentEnv } from './env.js';
import { createAgentApp } from './http.js';
import { createInputBroker } from './input-broker.js';
import { createLogger } from './logger.js';
import { startRuntime } from './runtime.js';

async function main(): Promise<void> {
  const env = loadAgentEnv();
  const logger = createLogger(env.LOG_LEVEL === 'warn' ? 'info' : env.LOG_LEVEL);
  // Tools' requests for input go to the open chat page; with no page open they are declined.
  const inputBroker = createInputBroker();
  const runtime = await startRuntime({ env, logger, onInput: inputBroker.handler });
  const app = createAgentApp({
    agent: runtime.agent,
    hub: runtime.hub,
    model: runtime.model.description,
    logger,
    allowedHosts: env.AGENT_ALLOWED_HOSTS,
    allowedOrigins: env.AGENT_ALLOWED_ORIGINS,
    inputBroker,
  });
  const server = app.listen(env.AGENT_PORT, env.AGENT_HOST);
  server.once('listening', () => {
    logger.info(
      { url: `http://${env.AGENT_HOST}:${env.AGENT_PORT}`, model: runtime.model.description.label },
      'agent listening',
    );
  });
  server.once('error', (error: NodeJS.ErrnoException) => {
    const hint = error.code === 'EADDRINUSE' ? ` Port ${env.AGENT_PORT} is in use: set AGENT_PORT.` : '';
    logger.fatal({ err: error }, `could not start the agent.${hint}`);
    process.exit(1);
  });
  const stop = async () => {
    server.close();
    server.closeAllConnections();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
  process.exit(1);
});
