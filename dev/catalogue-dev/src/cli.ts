#!/usr/bin/env node
/**
 * @module cli
 * `catalogue-dev [root]`: the entry `pnpm dev` runs for the MCP server (its package's `dev` script),
 * serving the catalogue in `root` (default: CATALOGUE_DEV_ROOT, else the current folder) from
 * source and reloading it on save (`dev-server.ts`). Settings come from the same environment as
 * `node dist/index.js`; the background type check's findings are told on stderr.
 */
import { startCatalogueDev } from './dev-server.js';
import { loadCatalogueDevEnv } from './env.js';

function exitWithError(error: unknown): never {
  console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error);
  process.exit(1);
}

Promise.resolve()
  .then(async () => {
    const { root, typecheck } = loadCatalogueDevEnv(process.argv.slice(2));
    const dev = await startCatalogueDev(root, {
      typecheck,
      say: (line) => console.error(line),
      onFatal: exitWithError,
    });
    const stop = async () => {
      await dev.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  })
  .catch(exitWithError);
