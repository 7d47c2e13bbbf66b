/**
 * @module run-bundle
 * `runBundle`: what a server's entry (`dist/index.js`) does, in one call. It turns on Node's compile
 * cache (`compile-cache.ts`, Node 22.1 and later), then loads the server's bundle
 * (`dist/index.main.cjs`, built by `build.ts`) with a V8 code cache (`code-cache.ts`, every Node
 * version), which it saves once the first requests have run, or as the process exits if sooner.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createBundleLoader, userCacheDirectory } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';
import { IMPORT_PARAMETER } from './import-parameter.js';

/**
 * When the code cache is written: after a host's first requests, so it holds the code they ran
 * too. A process that ends sooner (a one-question `pnpm ask`) writes it as it exits.
 */
export const SAVE_CODE_CACHE_AFTER_MS = 2_000;

export interface RunBundleOptions {
  /**
   * `import()` as the entry module does it, `(specifier) => import(specifier)` written in the entry:
   * the bundle's dynamic imports of what it leaves outside (packages, Node builtins) then resolve
   * from the entry's folder, where the chunks sit, wherever this package is.
   */
  importModule: (specifier: string) => Promise<unknown>;
  /**
   * Where the code cache goes; default `userCacheDirectory()`, a private folder under the OS's temp
   * folder. Undefined (explicitly) loads the bundle without a code cache.
   */
  cacheDirectory?: string | undefined;
  /** Default `SAVE_CODE_CACHE_AFTER_MS`. */
  saveAfterMs?: number;
}

/**
 * Runs the bundle whose main chunk is `bundle` (a `file:` URL or a path), as `require` would, and
 * returns its exports. Under `--enable-source-maps` Node's own loader runs it instead, the only one
 * whose stack traces Node maps back to the sources; the chunks then find the import function as a
 * global. A cache that cannot be read or written only costs the speed-up.
 */
export function runBundle(bundle: URL | string, options: RunBundleOptions): unknown {
  const main = bundle instanceof URL || bundle.startsWith('file:') ? fileURLToPath(bundle) : bundle;
  enableCompileCache();
  if (process.sourceMapsEnabled) {
    Object.defineProperty(globalThis, IMPORT_PARAMETER, { value: options.importModule });
    return createRequire(main)(main);
  }
  const directory = 'cacheDirectory' in options ? options.cacheDirectory : userCacheDirectory();
  const loader = createBundleLoader({ directory, importModule: options.importModule });
  setTimeout(() => loader.save(), options.saveAfterMs ?? SAVE_CODE_CACHE_AFTER_MS).unref();
  process.once('exit', () => loader.save());
  return loader.load(main);
}
