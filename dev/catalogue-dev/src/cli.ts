#!/usr/bin/env node
/**
 * @module cli
 * `catalogue-dev [root]`: the entry `pnpm dev` runs for the MCP server (its package's `dev` script),
 * serving the catalogue in `root` (default: the current folder) from source and reloading it on
 * save (`dev-server.ts`). Settings come from the same environment as `node dist/index.js`.
 */
import path from 'node:path';
import { startCatalogueDev } from './dev-server.js';

startCatalogueDev(path.resolve(process.argv[2] ?? '.')).catch((error: unknown) => {
  console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error);
  process.exit(1);
});
