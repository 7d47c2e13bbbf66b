/**
 * @module @mcp-workshop/fast-start/build
 * The rolldown settings of a fast start, for a server's `rolldown.config.mjs`: two builds into one
 * `dist/`, the server as CommonJS chunks (`index.main.cjs` and `index.<name>.cjs` beside it, which
 * `runBundle` loads with a V8 code cache) and its entry (`index.js`, which calls `runBundle`). The
 * config adds only what is its own: the server's entry, what stays outside the bundle, its plugins.
 * Build-time only: it needs rolldown, which a server's entry never loads.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ExternalOption, InputOptions, Plugin, RolldownOptions } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';
import { IMPORT_PARAMETER } from './import-parameter.js';

export { IMPORT_PARAMETER };

/**
 * Every file the server build writes starts with it, so a build can remove the previous build's
 * chunks (two chunks of the same name come out as `index.dist.cjs` and `index2.dist.cjs`).
 * `code-cache.ts` loads a chunk's `require("./index.<name>.cjs")` itself for the same reason.
 */
export const OUTPUT_PREFIX = 'index.';
const PREVIOUS_OUTPUT = /^index\d*\./;
/** The entry's own files: written by the second build, so the first never removes them. */
const ENTRY_OUTPUT = new Set(['index.js', 'index.js.map']);

export interface FastStartBuildOptions {
  /** The server's own entry (`src/main.ts`): bundled as `dist/index.main.cjs` and its chunks. */
  server: string;
  /** The entry that calls `runBundle` (`src/index.ts`): bundled, this package with it, as `dist/index.js`. */
  entry: string;
  /** The output folder, shared by both. */
  dist: string;
  /** What stays outside the server bundle; the chunks load it with `require` or `IMPORT_PARAMETER`. */
  external?: ExternalOption;
  /** The server build's own plugins, run between removing the previous output and the import rewrite. */
  plugins?: Plugin[];
  /** Module resolution for both builds (e.g. `extensionAlias` for NodeNext imports of `.ts` sources). */
  resolve?: InputOptions['resolve'];
}

/** The two builds, in order: the server bundle first, then the entry that loads it. */
export function fastStartBuilds(options: FastStartBuildOptions): RolldownOptions[] {
  const { dist, resolve } = options;
  return [
    // As CommonJS: `code-cache.ts` compiles each chunk with V8's code cache, which only scripts can
    // have (ES modules get one from Node 22's own cache only). An entry of its own, so the code a
    // start needs stays in a few files: built with the one below, it comes out as a dozen small chunks.
    {
      input: { main: options.server },
      platform: 'node',
      ...(options.external !== undefined && { external: options.external }),
      ...(resolve !== undefined && { resolve }),
      plugins: [removePreviousOutput(dist), ...(options.plugins ?? []), importsThroughLoader()],
      output: {
        dir: dist,
        format: 'cjs',
        entryFileNames: `${OUTPUT_PREFIX}[name].cjs`,
        chunkFileNames: `${OUTPUT_PREFIX}[name].cjs`,
        sourcemap: true,
        // Less to parse at every start; the source maps lead back to the sources.
        minify: true,
      },
    },
    // `dist/index.js`: turns on the caches, then loads the server built above (`index.main.cjs`).
    // This package is bundled into it, so nothing new has to be installed beside `dist/`.
    {
      input: { index: options.entry },
      platform: 'node',
      ...(resolve !== undefined && { resolve }),
      output: { dir: dist, format: 'esm', entryFileNames: '[name].js', sourcemap: true, minify: true },
    },
  ];
}

/** Chunk names follow module names, so a chunk that is no longer produced must not linger. */
export function removePreviousOutput(dist: string): Plugin {
  return {
    name: 'remove-previous-output',
    buildStart() {
      if (!fs.existsSync(dist)) return;
      for (const file of fs.readdirSync(dist)) {
        if (PREVIOUS_OUTPUT.test(file) && !ENTRY_OUTPUT.has(file)) fs.rmSync(path.join(dist, file));
      }
    },
  };
}

const KEYWORD = 'import';

/**
 * Renames each dynamic `import(` left in a chunk (packages kept outside the bundle, Node builtins)
 * to the function `code-cache.ts` passes in (`IMPORT_PARAMETER`): a chunk compiled by `vm.Script`
 * has no module loader, and Node's stand-in for one is experimental and warns. The name has the
 * same length, so the source maps stay right. Found by parsing, never by searching the text.
 */
export function importsThroughLoader(): Plugin {
  if (IMPORT_PARAMETER.length !== KEYWORD.length)
    throw new Error(`${IMPORT_PARAMETER} must be ${KEYWORD.length} characters`);
  return {
    name: 'imports-through-loader',
    renderChunk(code, chunk) {
      return rewriteImportExpressions(code, chunk.fileName);
    },
  };
}

/**
 * `code` with every `import(` expression renamed to `IMPORT_PARAMETER`, or null when it has none.
 * Throws (naming `fileName`) rather than corrupt a chunk whose offsets do not fit its text.
 */
export function rewriteImportExpressions(code: string, fileName: string): { code: string; map: null } | null {
  const starts: number[] = [];
  collectImportExpressions(parseAst(code), starts);
  if (starts.length === 0) return null;
  let rewritten = code;
  for (const start of starts) {
    if (rewritten.slice(start, start + KEYWORD.length) !== KEYWORD) {
      throw new Error(`${fileName}: no import( at offset ${start}; the rewrite would corrupt the chunk`);
    }
    rewritten = rewritten.slice(0, start) + IMPORT_PARAMETER + rewritten.slice(start + KEYWORD.length);
  }
  return { code: rewritten, map: null };
}

/** Every `import(…)` expression's start offset in an ESTree (oxc) tree. */
function collectImportExpressions(node: unknown, starts: number[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collectImportExpressions(item, starts);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as { type?: unknown; start?: unknown };
  if (record.type === 'ImportExpression' && typeof record.start === 'number') starts.push(record.start);
  for (const value of Object.values(node)) {
    if (value && typeof value === 'object') collectImportExpressions(value, starts);
  }
}
