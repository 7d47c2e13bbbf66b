/**
 * @module run/local
 * Starts a catalogue on 127.0.0.1, in this process, on a port the OS picks unless one is given:
 * what tests, the bench and demos use. Its settings are given, never read from `process.env`: the
 * host's and the catalogue's defaults, with `env` on top (e.g. `{ DATA_DIR: dir }`), and the
 * host's options after that. Its services are opened before it resolves, so a bad setting fails
 * the start and the first call is not slow; unfinished MCP Tasks resume at once.
 */
import type { AppAuthOptions, AppOptions, HostApp } from '../http/app.js';
import type { HttpHost } from '../http/start.js';
import type { Catalogue } from '../kit/catalogue.js';
import { createSilentLogger, type Logger } from '../logger.js';
import type { TaskRuntime } from '../tasks/runtime.js';
import { type EnvShape, loadRunEnv, type RunEnv } from './env.js';
import { prepareCatalogue } from './prepare.js';

export interface LocalCatalogueOptions
  extends Partial<Omit<AppOptions, 'buildServer' | 'logger' | 'info' | 'publishEvents' | 'auth' | 'tasks'>> {
  /** Settings as the environment would give them, on top of the defaults: `{ DATA_DIR: dir }`. */
  env?: Record<string, string | undefined>;
  /** Sign-in; the policy defaults to the catalogue's own (its tools', prompts' and schemes' scopes). */
  auth?: Omit<AppAuthOptions, 'policy'> & Partial<Pick<AppAuthOptions, 'policy'>>;
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  logger?: Logger;
  /** Fixes the clock the catalogue's services use. */
  now?: () => Date;
}

export interface LocalCatalogue<Shape extends EnvShape = EnvShape, Deps = unknown> {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:41234/mcp */
  mcpUrl: string;
  app: HostApp;
  host: HttpHost;
  /** What the catalogue's tools get. */
  deps: Deps;
  env: RunEnv<Shape>;
  runtime: TaskRuntime | undefined;
  /** Closes connections, sessions, the tasks and the catalogue's services. */
  close(): Promise<void>;
}

export async function startCatalogue<Shape extends EnvShape, Deps>(
  catalogue: Catalogue<Shape, Deps>,
  options: LocalCatalogueOptions = {},
): Promise<LocalCatalogue<Shape, Deps>> {
  const { env: given = {}, port = 0, logger = createSilentLogger(), now, auth, ...appOptions } = options;
  const env = loadRunEnv(catalogue.env, given);
  const prepared = prepareCatalogue(catalogue, {
    env,
    logger,
    ...(now && { now }),
    ...(appOptions.reloadable && { listChanged: true }),
  });
  const { services, runtime } = prepared;
  await services.open?.();
  await services.load?.();
  await runtime?.start();
  const { startHttpHost } = await import('../http/start.js');
  const host = await startHttpHost({
    ...prepared.hostOptions(),
    logger,
    port,
    stateless: false,
    sessionTtlSeconds: 1800,
    maxSessions: 100,
    ...appOptions,
    ...(auth && { auth: { policy: prepared.policy(), ...auth } }),
  });
  return {
    baseUrl: host.baseUrl,
    mcpUrl: host.mcpUrl,
    app: host.app,
    host,
    deps: services.deps,
    env,
    runtime,
    async close() {
      await host.close();
      await prepared.close();
    },
  };
}
