/**
 * @module run
 * `@mcp-workshop/mcp-host/run`: serves any catalogue (`@mcp-workshop/mcp-host/kit`'s
 * `defineCatalogue`). `runCatalogue` is a whole server process (HTTP or `--stdio`, env, signals);
 * `startCatalogue` starts one in-process for tests, demos and the bench; `prepareCatalogue` and
 * `serveHttp` are the pieces `pnpm dev` composes with its reload.
 */
export type { EnvShape, HostEnv, RunEnv } from './env.js';
export { HOST_ENV, loadRunEnv, quoteSafely, runEnvKeys } from './env.js';
export type { LocalCatalogue, LocalCatalogueOptions } from './local.js';
export { startCatalogue } from './local.js';
export type { PreparedCatalogue, PrepareOptions } from './prepare.js';
export { prepareCatalogue } from './prepare.js';
export type { RunOptions } from './run.js';
export { exitWithError, runCatalogue } from './run.js';
export type { ServeHttpOptions } from './serve-http.js';
export { serveHttp } from './serve-http.js';
