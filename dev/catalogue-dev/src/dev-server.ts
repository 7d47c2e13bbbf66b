/**
 * @module dev-server
 * `pnpm dev`'s MCP server: a catalogue served from its TypeScript sources through the host, and
 * reloaded on every save under `src/` (tools, resources, prompts, deps), `views/` (each view's HTML
 * is rebuilt first) or `skills/` (read again first). It reads one thing of the catalogue: the value
 * its entry default-exports (`defineCatalogue(...)`; the package's `exports["."].source`, else
 * `src/catalogue.ts`), and serves it as `node dist/index.js` would, through the host's runner, from
 * the same environment. Its services (the task database, the weather, the skills) are built once
 * and kept; each reload hands the host the new catalogue value (`PreparedCatalogue.reload`).
 * Its `/health` has a `dev` block (`dev-status.ts`): how the last save went and what the background
 * type check (`typecheck.ts`) found. When that changes without a new catalogue (a failed save, a
 * type check's verdict), the last good catalogue is handed over again, so clients hear list_changed
 * and can read the block anew. Tests: `dev-server.e2e.test.ts`, and `dev-server.test.ts` for which
 * saves reload.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostApp, ScopePolicy } from '@mcp-workshop/mcp-host';
import { type Catalogue, isCatalogue } from '@mcp-workshop/mcp-host/kit';
import { createLogger, type Logger } from '@mcp-workshop/mcp-host/logger';
import { loadRunEnv, prepareCatalogue, serveHttp } from '@mcp-workshop/mcp-host/run';
import { createDevStatus, type DevStatus, describePlace } from './dev-status.js';
import { createCatalogueLoader } from './module-loader.js';
import { createReloader, type ReloadEvent } from './reloader.js';
import { startTypecheck, type TypecheckResult } from './typecheck.js';

type BuildServer = Parameters<HostApp['reload']>[0];
interface ViewsBuildModule {
  buildViews(): Promise<void>;
}

/** The catalogue's entry, relative to its root: its package's `exports["."].source`, else `src/catalogue.ts`. */
export function catalogueEntry(root: string): string {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    exports?: { '.'?: { source?: string } };
  };
  return path.posix.normalize(manifest.exports?.['.']?.source ?? 'src/catalogue.ts');
}

export interface CatalogueDev {
  /** The host serving the catalogue. */
  app: HostApp;
  port: number;
  /** The `dev` block of `/health` as it is now. */
  status(): ReturnType<DevStatus['block']>;
  close(): Promise<void>;
}

export interface CatalogueDevOptions {
  /** Where the short human lines go (the type check's findings); the entry file passes stderr. */
  say?: (line: string) => void;
  /** Runs the background type check (default true). */
  typecheck?: boolean;
  /** Told when the catalogue's services cannot open (a bad DATA_DIR): the entry file exits on it. */
  onFatal?: (error: unknown) => void;
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

export async function startCatalogueDev(
  root: string,
  options: CatalogueDevOptions = {},
): Promise<CatalogueDev> {
  const say = options.say ?? (() => undefined);
  // `pnpm dev` builds the packages the catalogue depends on, not the catalogue: its views may be missing.
  if (existsSync(path.join(root, 'views', 'build.mjs')) && !existsSync(path.join(root, 'dist', 'views'))) {
    await buildViews(root);
  }
  const loader = await createCatalogueLoader(root);
  const entry = catalogueEntry(root);
  const loadCatalogue = async (): Promise<Catalogue> => {
    const exported = (await loader.import<{ default?: unknown }>(entry)).default;
    if (!isCatalogue(exported)) {
      throw new Error(`${entry} must default-export defineCatalogue({...}) from @mcp-workshop/mcp-host/kit.`);
    }
    return exported;
  };
  const catalogue = await loadCatalogue();
  const env = loadRunEnv(catalogue.env);
  const logger = createLogger(env.LOG_LEVEL);
  // listChanged: clients are told the lists change, and the host tells them when they do.
  const prepared = prepareCatalogue(catalogue, { env, logger, listChanged: true });
  const status = createDevStatus(root);
  const host = await serveHttp({
    env,
    logger,
    prepared,
    reloadable: true,
    healthDetails: () => ({ dev: status.block() }),
  });
  const stopOpening = prepared.openSoon((error) => {
    logger.fatal({ err: error }, 'the catalogue could not open what it needs');
    options.onFatal?.(error);
  });

  // One hand-over at a time: a reload and a re-announcement never move the same session at once.
  let current: BuildServer = prepared.buildServer;
  let handOvers: Promise<unknown> = Promise.resolve();
  const handOver = (buildServer: BuildServer, policy?: ScopePolicy) => {
    const next = handOvers.then(() => host.app.reload(buildServer, { policy }));
    handOvers = next.catch(() => undefined);
    return next;
  };
  /** The same catalogue again: nothing changes but every client hears list_changed and reads `/health` anew. */
  const announce = () =>
    void handOver(current).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not announce the new dev status'),
    );

  const reloader = createReloader({
    root,
    concerns: (file) => concernsCatalogue(root, file),
    reload: async (files) => {
      if (files.some((file) => file.startsWith(path.join(root, 'views') + path.sep))) await buildViews(root);
      // The deps outlive every reload, and so does their skills catalogue: it is read again in place.
      if (files.some((file) => file.startsWith(path.join(root, 'skills') + path.sep)))
        await prepared.services.load?.();
      loader.reset(files);
      // The same services; a new catalogue value, with the scopes its tools and prompts now declare.
      const next = prepared.reload(await loadCatalogue());
      // Recorded before the hand-over announces it: a client that reads /health on that
      // list_changed must see this save, not the last one (a hand-over that throws is reported next).
      status.reloaded({ kind: 'reloaded', files, ms: 0, sessions: 0 });
      const moved = await handOver(next.buildServer, next.policy);
      next.commit();
      current = next.buildServer;
      return moved;
    },
    report: (event) => {
      reportReload(logger, root, event);
      status.reloaded(event);
      // A good reload has announced itself; a failed one changed no list, so it is announced here.
      if (event.kind === 'failed') announce();
    },
  });
  const typecheck =
    options.typecheck === false
      ? undefined
      : startTypecheck(root, (result) => {
          if (status.typechecked(result) && result.state !== 'checking') {
            sayTypecheck(say, status.block().typecheck, result);
            announce();
          }
        });
  loader.onFileChange((file) => reloader.changed(file));
  logger.info(
    { root, watching: ['src/', 'views/', 'skills/'] },
    'catalogue-dev: serving the catalogue from source; saves reload it',
  );

  return {
    app: host.app,
    port: host.port,
    status: () => status.block(),
    async close() {
      await reloader.settled();
      await handOvers;
      await typecheck?.close();
      await loader.close();
      stopOpening();
      await host.close();
      await prepared.close();
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

/** The type check's verdict in a few human lines: the first errors with file:line, or that it passes. */
function sayTypecheck(
  say: (line: string) => void,
  shown: ReturnType<DevStatus['block']>['typecheck'],
  result: TypecheckResult,
): void {
  if (shown.state === 'off') {
    say(`type check: off (${shown.reason})`);
    return;
  }
  if (shown.state === 'passed') {
    say('type check: no errors');
    return;
  }
  if (shown.state !== 'failed' || result.state !== 'failed') return;
  const plural = shown.errorCount === 1 ? 'error' : 'errors';
  say(`type check: ${shown.errorCount} ${plural} (the catalogue reloaded anyway; a call may fail on them)`);
  for (const error of shown.errors.slice(0, SAID_TYPE_ERRORS)) {
    say(`  ${describePlace(error)} ${error.code}: ${error.message}`);
  }
  if (shown.errorCount > SAID_TYPE_ERRORS) say(`  … and ${shown.errorCount - SAID_TYPE_ERRORS} more`);
}

/** The terminal shows the first few type errors; `/health` lists more. */
const SAID_TYPE_ERRORS = 5;
