/**
 * @module lib
 * The development authorization server as a factory, for this package's entry and its own tests.
 * Other packages run the built entry as a process (see `process.ts`) and talk to it over HTTP.
 */
import { freePort } from '@mcp-workshop/shared/processes';
import { DEMO_USER, GUEST_USER } from './interactions.js';
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
  /** The password of `demo`; default `demo`. */
  demoPassword?: string;
  /** The password of `guest`; default `guest`. */
  guestPassword?: string;
  /** Failed sign-ins (and failed client authentications) per client address per minute; default 10. */
  loginAttemptsPerMinute?: number;
  /** For tests: the window of that limit, in ms; default one minute. */
  loginWindowMs?: number;
  onError?: (error: unknown) => void;
}

export interface RunningAuthServer {
  issuer: string;
  close(): Promise<void>;
}

export async function startAuthServer(options: AuthServerOptions): Promise<RunningAuthServer> {
  // The issuer is part of every token, so with port 0 it is known only after listening.
  const port = options.port === 0 && !options.issuer ? await freePort(options.host) : options.port;
  const issuer = options.issuer ?? `http://${options.host}:${port}`;
  const passwords = new Map([
    [DEMO_USER, options.demoPassword ?? 'demo'],
    [GUEST_USER, options.guestPassword ?? 'guest'],
  ]);
  const provider = await createProvider({
    issuer,
    resources: options.resources,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
    secrets: {
      agent: options.agentSecret ?? 'workshop-agent-secret',
      reader: options.readerSecret ?? 'workshop-reader-secret',
    },
    accounts: [...passwords.keys()],
  });
  provider.on('server_error', (_ctx, error) => options.onError?.(error));
  const server = createAuthHttpServer({
    provider,
    passwords,
    loginAttemptsPerMinute: options.loginAttemptsPerMinute ?? DEFAULT_LOGIN_ATTEMPTS_PER_MINUTE,
    loginWindowMs: options.loginWindowMs,
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

/** The same default as AUTH_LOGIN_ATTEMPTS_PER_MINUTE in env.ts. */
const DEFAULT_LOGIN_ATTEMPTS_PER_MINUTE = 10;

export { DEFAULT_AUTH_PORT } from './env.js';
