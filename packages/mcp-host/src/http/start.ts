/**
 * @module http/start
 * `startHttpHost()`: `createApp()` listening on a port, 127.0.0.1 and a port the OS picks unless
 * told otherwise. It resolves once the port is bound, and rejects with the listen error as Node
 * gives it (`code: 'EADDRINUSE'` for a port in use), so the entry file words it for its own settings.
 * Every answer but an event stream must reach a client that stopped reading within a bound
 * (`stalled-responses.ts`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../logger.js';
import { type AppOptions, createApp, type HostApp } from './app.js';
import {
  checkStalledResponseMs,
  DEFAULT_STALLED_RESPONSE_MS,
  dropStalledResponses,
} from './stalled-responses.js';

export interface HttpHostOptions extends AppOptions {
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  /** The address to bind; 127.0.0.1 by default, so nothing is reachable from elsewhere by accident. */
  hostname?: string;
  /**
   * How long an answer other than an event stream may wait on a client that does not read it, once
   * its socket's buffer is full, before the connection is dropped (default {@link DEFAULT_STALLED_RESPONSE_MS}).
   */
  stalledResponseMs?: number;
}

export interface HttpHost {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  /** The port bound, the one the OS picked when asked for 0. */
  port: number;
  app: HostApp;
  /** The listening Node server. */
  server: Server;
  /** Drops open connections, closes every session and stops the timers. */
  close(): Promise<void>;
}

export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const {
    port = 0,
    hostname = '127.0.0.1',
    stalledResponseMs = DEFAULT_STALLED_RESPONSE_MS,
    ...appOptions
  } = options;
  checkStalledResponseMs(stalledResponseMs);
  const logger = appOptions.logger ?? createLogger('info', { service: appOptions.info.name });
  const app = createApp({ ...appOptions, logger });
  // What express's `listen` does, with the stalled-answer rule in place before the first request.
  const server = createServer(app.app);
  dropStalledResponses(server, stalledResponseMs, logger);
  server.listen(port, hostname);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  // An IPv6 address needs brackets in a URL.
  const shownHost = hostname.includes(':') ? `[${hostname}]` : hostname;
  const baseUrl = `http://${shownHost}:${bound}`;
  return {
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    port: bound,
    app,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}
