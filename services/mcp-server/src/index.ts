#!/usr/bin/env node
/**
 * @module index
 * The entry `node dist/index.js` runs: it hands the catalogue's server, `main.ts` bundled as
 * `dist/index.main.cjs`, to `runBundle` of `@mcp-workshop/fast-start`, which turns on Node's
 * compile cache and loads the bundle with a V8 code cache, so a start after the first compiles
 * little of it. rolldown bundles that package into this file: the entry imports Node builtins only.
 */
import { runBundle } from '@mcp-workshop/fast-start';

// The import function is written here so that what the bundle leaves outside resolves from `dist/`.
runBundle(new URL('./index.main.cjs', import.meta.url), { importModule: (specifier) => import(specifier) });
