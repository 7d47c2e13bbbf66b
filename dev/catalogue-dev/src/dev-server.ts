/**
 * @module dev-server
 * `pnpm dev`'s MCP server: the workshop catalogue served from its TypeScript sources through the
 * host, reloaded on every save under `src/` (tools, resources, prompts, the server factory),
 * `views/` (each view's HTML is rebuilt first) or `skills/` (the skills are read again first). It
 * reads the catalogue's own modules, so it serves exactly what `node dist/index.js` would, from the
 * same environment:
 * - `src/env.ts` `loadEnv()`, `src/deps.ts` `createDeps()` and `src/serve.ts` `serveHttp()`, once;
 * - `src/hosted.ts` `hostedCatalogue()`, `catalogueOptions()` and `cataloguePolicy()` (the scopes
 *   the HTTP check judges by), again on every reload.
 * The task database, the weather and the skills are built once and handed to every catalogue. Tests:
 * `dev-server.e2e.test.ts`, and `dev-server.test.ts` for which saves reload.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppOptions, HostApp, ScopePolicy } from '@mcp-workshop/mcp-host';
import { createLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { createCatalogueLoader } from './module-loader.js';
import { createReloader, type ReloadEvent } from './reloader.js';

/** What the catalogue's modules export, as far as this file uses them. */
interface EnvModule {
  loadEnv(): { LOG_LEVEL: string } & Record<string, unknown>;
}
interface DepsModule {
  createDeps(env: unknown, logger: Logger): { skills?: { reload(): Promise<unknown> } };
}
interface HostedModule {
  catalogueOptions(env: unknown): Record<string, unknown>;
  hostedCatalogue(deps: unknown, options: Record<string, unknown>): Pick<AppOptions, 'buildServer'>;
  cataloguePolicy(): ScopePolicy;
}
interface ServeModule {
  serveHttp(options: Record<string, unknown>): Promise<{ app: HostApp; port: number }>;
}
interface ViewsBuildModule {
  buildViews(): Promise<void>;
}

export interface CatalogueDev {
  /** The host serving the catalogue. */
  app: HostApp;
  port: number;
  close(): Promise<void>;
}

/** Files whose change reloads the catalogue: its sources and its views, never tests or build output. */
export function concernsCatalogue(root: string, file: string): boolean {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (relative.startsWith('..') || /(^|\/)(dist|node_modules|data)\//.test(relative)) return false;
  if (/\.test\.ts$|(^|\/)(test-support|__snapshots__)\//.test(relative)) return false;
  return /^src\/.+\.(ts|json)$/.test(relative) || /^(views|skills)\//.test(relative);
}

/** Builds the catalogue's MCP Apps views into its `dist/views` (its own `views/build.mjs`). */
async function buildViews(root: string): Promise<void> {
  const build = pathToFileURL(path.join(root, 'views', 'build.mjs')).href;
  await ((await import(build)) as ViewsBuildModule).buildViews();
}

export async function startCatalogueDev(root: string): Promise<CatalogueDev> {
  // `pnpm dev` builds the packages the catalogue depends on, not the catalogue: its views may be missing.
  if (existsSync(path.join(root, 'views', 'build.mjs')) && !existsSync(path.join(root, 'dist', 'views'))) {
    await buildViews(root);
  }
  const loader = await createCatalogueLoader(root);
  const env = (await loader.import<EnvModule>('src/env.ts')).loadEnv();
  const logger = createLogger(env.LOG_LEVEL as Parameters<typeof createLogger>[0]);
  const deps = (await loader.import<DepsModule>('src/deps.ts')).createDeps(env, logger);

  const loadCatalogue = async () => {
    const hosted = await loader.import<HostedModule>('src/hosted.ts');
    // listChanged: clients are told the lists change, and the host tells them when they do.
    return hosted.hostedCatalogue(deps, { ...hosted.catalogueOptions(env), listChanged: true });
  };
  const catalogue = await loadCatalogue();
  const serve = await loader.import<ServeModule>('src/serve.ts');
  const host = await serve.serveHttp({ env, logger, deps, catalogue, reloadable: true });

  const reloader = createReloader({
    root,
    concerns: (file) => concernsCatalogue(root, file),
    reload: async (files) => {
      if (files.some((file) => file.startsWith(path.join(root, 'views') + path.sep))) await buildViews(root);
      // The deps outlive every reload, and so does their skills catalogue: it is read again in place.
      if (files.some((file) => file.startsWith(path.join(root, 'skills') + path.sep)))
        await deps.skills?.reload();
      loader.reset(files);
      const next = await loadCatalogue();
      // The scopes its tools and prompts now declare: with sign-in on, the HTTP check follows them.
      const policy = (await loader.import<HostedModule>('src/hosted.ts')).cataloguePolicy();
      return host.app.reload(next.buildServer, { policy });
    },
    report: (event) => reportReload(logger, root, event),
  });
  loader.onFileChange((file) => reloader.changed(file));
  logger.info(
    { root, watching: ['src/', 'views/', 'skills/'] },
    'pnpm dev: serving the catalogue from source; saves reload it',
  );

  return {
    app: host.app,
    port: host.port,
    async close() {
      await reloader.settled();
      await loader.close();
    },
  };
}

function reportReload(logger: Logger, root: string, event: ReloadEvent): void {
  const files = event.files.map((file) => path.relative(root, file));
  const ms = Math.round(event.ms);
  if (event.kind === 'reloaded') {
    logger.info({ files, ms, sessions: event.sessions }, `reloaded the catalogue ${ms} ms after the save`);
    return;
  }
  const where = event.location
    ? `${path.relative(root, event.location.file)}:${event.location.line}${event.location.column === undefined ? '' : `:${event.location.column}`}`
    : files.join(', ');
  logger.error(
    { files, where },
    `${where}: ${event.message} (the last good catalogue is still serving; save again to retry)`,
  );
}
