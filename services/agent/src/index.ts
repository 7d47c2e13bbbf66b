#!/usr/bin/env node
/**
 * @module index
 * The long-running agent (`pnpm start`): the HTTP API on AGENT_HOST:AGENT_PORT (default
 * 127.0.0.1:3001), and the sandbox proxy tools' views run in on AGENT_VIEW_SANDBOX_PORT (3004). It listens first and then connects to the MCP servers, with retries since under
 * docker-compose they may start later, so a person can open the page and follow the sign-in link
 * while it connects (`startup.ts`). With AGENT_API_TOKEN set it prints a one-time link to the chat
 * page, and a fresh one each time one is used (`api-access.ts`). Off loopback without one (a
 * container's 0.0.0.0), it makes a secret of its own for this run, as a Jupyter server does, and
 * prints the same link; the secret itself is never printed, so API clients set a fixed one (in .env
 * for docker compose). The only file here that listens.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApiAccess } from './api-access.js';
import { EnvError, generatesApiToken, loadAgentEnv } from './env.js';
import { createAgentApp } from './http.js';
import { createInputBroker } from './input-broker.js';
import { createLogger } from './logger.js';
import { type Runtime, startRuntime } from './runtime.js';
import { createAgentStartup } from './startup.js';
import { createViewSandboxApp } from './views/sandbox-server.js';

/**
 * After a failed start the page keeps showing why for this long; then the process exits with 1, so
 * a supervisor (docker's `restart: unless-stopped`) tries again.
 */
export const FAILED_LINGER_MS = 60_000;
/** On SIGTERM while still connecting: how long to let the connections close before exiting anyway. */
const STOP_GRACE_MS = 5_000;

async function main(): Promise<void> {
  const env = loadAgentEnv();
  const logger = createLogger(env.LOG_LEVEL === 'warn' ? 'info' : env.LOG_LEVEL);
  // Tools' requests for input go to the open chat page; with no page open they are declined.
  const inputBroker = createInputBroker();
  const startup = createAgentStartup();
  // Filled in once listening: the first link token is made before the port is known.
  let url = '';
  const linkTokens: string[] = [];
  const printLink = (token: string) => {
    if (!url) return void linkTokens.push(token);
    // Warn, so the default log level shows it; behind docker keep the path and use the published port.
    logger.warn(
      { url: `${url}/?token=${token}` },
      'open the chat page with this one-time link (it works once; a new one is printed when it is used)',
    );
  };
  // Off loopback without AGENT_API_TOKEN: a secret for this run only, 256 random bits, never printed.
  // Browsers get in with the one-time link, which carries a link token of its own (api-access.ts).
  const generated = generatesApiToken(env);
  const token = generated ? randomBytes(32).toString('hex') : env.AGENT_API_TOKEN;
  const access = createApiAccess({ ...(token !== undefined && { token }), onLinkToken: printLink });
  // The sandbox proxy for tools' views listens first, so the page is told its real port.
  const sandbox = await listenOn(
    createViewSandboxApp({
      allowedHosts: env.AGENT_ALLOWED_HOSTS,
      allowedOrigins: env.AGENT_ALLOWED_ORIGINS,
    }),
    env.AGENT_VIEW_SANDBOX_PORT,
    env.AGENT_HOST,
    'AGENT_VIEW_SANDBOX_PORT',
    logger,
  );
  const sandboxPort = (sandbox.address() as AddressInfo).port;
  const app = createAgentApp({
    startup,
    logger,
    allowedHosts: env.AGENT_ALLOWED_HOSTS,
    allowedOrigins: env.AGENT_ALLOWED_ORIGINS,
    access,
    rateLimitPerMinute: env.AGENT_RATE_LIMIT_PER_MINUTE,
    inputBroker,
    traceViewerUrl: env.TRACE_VIEWER_URL,
    viewSandbox: {
      port: sandboxPort,
      ...(env.AGENT_VIEW_SANDBOX_ORIGIN !== undefined && { origin: env.AGENT_VIEW_SANDBOX_ORIGIN }),
    },
    viewCallsPerMinute: env.AGENT_VIEW_CALLS_PER_MINUTE,
    toolTimeoutMs: env.AGENT_TOOL_TIMEOUT_MS,
  });
  const server = await listenOn(app, env.AGENT_PORT, env.AGENT_HOST, 'AGENT_PORT', logger);
  url = pageUrl(env.AGENT_HOST, (server.address() as AddressInfo).port);
  logger.info({ url }, 'page and /api/status up; connecting to the MCP servers');
  if (generated) {
    // Warn, as the link is: the default log level must show both.
    logger.warn(
      `AGENT_HOST=${env.AGENT_HOST} is not loopback and AGENT_API_TOKEN is not set: this run made its own secret, printed nowhere; open the chat page with the one-time link below. For API clients (curl, scripts), set a fixed AGENT_API_TOKEN (in .env for docker compose; make one with \`openssl rand -hex 32\`) and send Authorization: Bearer <it>`,
    );
  }
  for (const linkToken of linkTokens.splice(0)) printLink(linkToken);
  if (!access.secured) {
    logger.info('no AGENT_API_TOKEN: every process on this machine may use the API and the page');
  }

  const stopping = new AbortController();
  let runtime: Runtime | undefined;
  const starting = startRuntime({
    env,
    logger,
    onInput: inputBroker.handler,
    signal: stopping.signal,
    ...startup.hooks,
    // The page shows the link too (`GET /api/status`); the log keeps it for whoever runs it headless.
    onSignIn: (event) => {
      startup.hooks.onSignIn(event);
      logger.warn({ ...event, page: url }, 'sign in to the MCP server: open this link, or the chat page');
    },
  }).then((started) => {
    runtime = started;
    return started;
  });
  void startup.follow(starting).then(() => {
    const { state, model, error } = startup.status();
    // Same words as before the agent listened first: doc/WORKSHOP.md shows this line.
    if (state === 'ready') return void logger.info({ url, model: model?.label }, 'agent listening');
    if (stopping.signal.aborted) return;
    logger.fatal(`could not start the agent: ${error}`);
    setTimeout(() => process.exit(1), FAILED_LINGER_MS).unref();
  });

  const stop = async () => {
    stopping.abort(new Error('The agent is stopping.'));
    for (const listening of [server, sandbox]) {
      listening.close();
      listening.closeAllConnections();
    }
    await Promise.race([
      starting.catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref()),
    ]);
    await runtime?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** Listens, or exits with a line naming the variable to change when the port is taken. */
function listenOn(
  app: Express,
  port: number,
  host: string,
  variable: string,
  logger: ReturnType<typeof createLogger>,
): Promise<Server> {
  return new Promise((resolve) => {
    const listening = app.listen(port, host, () => resolve(listening));
    listening.once('error', (error: NodeJS.ErrnoException) => {
      const hint = error.code === 'EADDRINUSE' ? ` Port ${port} is in use: set ${variable}.` : '';
      logger.fatal({ err: error }, `could not start the agent.${hint}`);
      process.exit(1);
    });
  });
}

/** Where a browser on this machine finds the page: a wildcard address is not one to browse to. */
function pageUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '[::]' ? '[::1]' : host;
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
  process.exit(1);
});
