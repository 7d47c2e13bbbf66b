/**
 * @module lib
 * The development authorization server as a factory, for this package's entry and its own tests.
 * Other packages run the built entry as a process (see `process.ts`) and talk to it over HTTP.
 */
import type { AddressInfo } from 'node:net';
import { createProvider } from './provider.js';
import { createAuthHttpServer } from './server.js';

export interface AuthServerOptions {
  host: string;
  port: number;
  /** The public URL; default `http://<host>:<port>` once listening. */
  issuer?: string;
  resources: readonly string[];
  accessTokenTtlSeconds?: number;
  agentSecret?: string;
  readerSecret?: string;
  demoPassword?: string;
  onError?: (error: unknown) => void;
}

export interface RunningAuthServer {
  issuer: string;
  close(): Promise<void>;
}

export async function startAuthServer(options: AuthServerOptions): Promise<RunningAuthServer> {
  // The issuer is part of every token, so with port 0 it is known only after listening.
  const port = options.port === 0 && !options.issuer ? await pickPort(options.host) : options.port;
  const issuer = options.issuer ?? `http://${options.host}:${port}`;
  const provider = await createProvider({
    issuer,
    resources: options.resources,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
    secrets: {
      agent: options.agentSecret ?? 'workshop-agent-secret',
      reader: options.readerSecret ?? 'workshop-reader-secret',
    },
  });
  provider.on('server_error', (_ctx, error) => options.onError?.(error));
  const server = createAuthHttpServer({
    provider,
    demoPassword: options.demoPassword ?? 'demo',
    onError: options.onError,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host, () => resolve());
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function pickPort(host: string): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export { DEFAULT_AUTH_PORT } from './env.js';
