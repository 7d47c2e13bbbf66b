#!/usr/bin/env node
/**
 * @module index
 * The entry `node dist/index.js` runs: it turns on Node's compile cache (`compile-cache.ts`, Node
 * 22.1 and later) and loads the server, `main.ts` bundled as `dist/index.main.cjs`, with a V8 code
 * cache (`code-cache.ts`, every Node version). A start after the first then compiles little of it.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createBundleLoader, IMPORT_PARAMETER, userCacheDirectory } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';

/**
 * When the code cache is written: after a host's first requests, so it holds the code they ran
 * too. A process that ends sooner (a one-question `pnpm ask`) writes it as it exits.
 */
const SAVE_CODE_CACHE_AFTER_MS = 2_000;

const MAIN = fileURLToPath(new URL('./index.main.cjs', import.meta.url));
/** The chunks' dynamic imports, resolved from here: the chunks sit beside this file. */
const importModule = (specifier: string): Promise<unknown> => import(specifier);

enableCompileCache();
if (process.sourceMapsEnabled) {
  // `node --enable-source-maps dist/index.js`: Node's own loader, the only one whose stack traces
  // Node maps back to the TypeScript. The chunks find the import function as a global instead.
  Object.defineProperty(globalThis, IMPORT_PARAMETER, { value: importModule });
  createRequire(import.meta.url)(MAIN);
} else {
  const loader = createBundleLoader({ directory: userCacheDirectory(), importModule });
  setTimeout(() => loader.save(), SAVE_CODE_CACHE_AFTER_MS).unref();
  process.once('exit', () => loader.save());
  loader.load(MAIN);
}
