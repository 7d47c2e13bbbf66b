#!/usr/bin/env node
/**
 * @module index
 * `node dev/conformance-server/dist/index.js`: the catalogue with the conformance suite's fixtures,
 * served over Streamable HTTP by `@mcp-workshop/mcp-host` at http://HOST:PORT/mcp. Its settings are
 * the catalogue's own (`env.ts`: HOST, PORT, DATA_DIR, MCP_PAGE_SIZE, the limits, sign-in), served
 * the way `node services/mcp-server/dist/index.js` serves them (`serveHttp`), minus stdio and
 * telemetry, which no suite needs. `pnpm conformance` and the protocol suite's `--url` runs start it.
 */
import { createLogger } from '@mcp-workshop/mcp-host/logger';
import {
  catalogueOptions,
  createDeps,
  exitWithError,
  hostedCatalogue,
  serveHttp,
} from '@mcp-workshop/mcp-server';
import { loadConformanceEnv } from './env.js';
import { conformanceServerOptions } from './fixtures/index.js';

async function main(): Promise<void> {
  const env = loadConformanceEnv();
  // Its own name on every line: beside the catalogue's server, a failure here must not read as the catalogue's.
  const logger = createLogger(env.LOG_LEVEL, { service: 'conformance-server' });
  const deps = createDeps(env, logger);
  const catalogue = hostedCatalogue(deps, { ...catalogueOptions(env), ...conformanceServerOptions });
  await serveHttp({ env, logger, deps, catalogue });
}

main().catch(exitWithError);
