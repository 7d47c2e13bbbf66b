/**
 * @module @mcp-workshop/fast-start
 * What a server's entry needs at run time to start fast, and nothing else: `runBundle`, and the
 * code cache and compile cache it is made of. Node builtins only, so an entry bundles it in a few
 * kilobytes. The rolldown settings that build the bundle are in `@mcp-workshop/fast-start/build`.
 */
export {
  type BundleLoader,
  type BundleLoaderOptions,
  createBundleLoader,
  userCacheDirectory,
} from './code-cache.js';
export { type CompileCacheApi, type CompileCacheOutcome, enableCompileCache } from './compile-cache.js';
export { IMPORT_PARAMETER } from './import-parameter.js';
export { type RunBundleOptions, runBundle, SAVE_CODE_CACHE_AFTER_MS } from './run-bundle.js';
