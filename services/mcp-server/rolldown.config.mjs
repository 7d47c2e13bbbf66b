/**
 * Bundles the server, `src/main.ts`, into `dist/index.main.cjs` plus chunks beside it
 * (`dist/index.<name>.cjs`) that load only when needed: the HTTP stack, the stdio transport, mathjs;
 * and its entry, `src/index.ts`, into `dist/index.js`, which loads them with a code cache.
 * Why: stdio hosts start the server on every launch, and a cold start that resolves, reads and
 * compiles hundreds of small modules from node_modules takes about half again as long as the same
 * code in a few files. `tsc` still emits everything else (`dist/lib.js` and what it imports), so
 * the library entry, its types and the tests are unchanged. Runs after `tsc` in `pnpm build`.
 * The host (`@mcp-workshop/mcp-host`) and the task store are bundled in too, except the parts that
 * load OpenTelemetry: those stay packages, loaded from where their own dependencies resolve.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, RolldownMagicString } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, 'src');
const DIST = path.join(HERE, 'dist');
/** The task store's statement spans, as its package exports them. */
const TRACED_STORE_ENTRY = '@mcp-workshop/task-store/traced';

/**
 * Every file this step writes starts with it, so a build can remove the previous build's chunks
 * (two chunks of the same name come out as `index.dist.js` and `index2.dist.js`).
 */
const OUTPUT_PREFIX = 'index.';
const PREVIOUS_OUTPUT = /^index\d*\./;

/** The entry's own files: written by the second build, so the first never removes them. */
const ENTRY_OUTPUT = new Set(['index.js', 'index.js.map']);
/** Kept equal to `IMPORT_PARAMETER` in src/code-cache.ts, which the chunks are compiled with. */
const IMPORT_PARAMETER = '$mcpI$';

/** Imports are written for NodeNext (`./deps.js`); the sources are `.ts`. */
const RESOLVE = { extensionAlias: { '.js': ['.ts', '.js'] } };

export default defineConfig([
  // The server and the chunks it loads, as CommonJS: `src/code-cache.ts` compiles each chunk with
  // V8's code cache, which only scripts can have (ES modules get one from Node 22's own cache only).
  // An entry of its own, so the code a start needs stays in a few files: built with the one below,
  // it comes out as a dozen small chunks.
  {
    input: { main: path.join(SRC, 'main.ts') },
    platform: 'node',
    // It reads its .wasm from its own folder at run time, so it stays in node_modules. OpenTelemetry
    // loads only when telemetry is on (the host's telemetry entry, the store's statement spans): it
    // stays out of the bundle every start parses, and resolves from the packages that depend on it.
    external: [
      'node-sqlite3-wasm',
      '@mcp-workshop/mcp-host/telemetry',
      TRACED_STORE_ENTRY,
      '@mcp-workshop/telemetry/sdk',
      /^@opentelemetry\//,
    ],
    resolve: RESOLVE,
    plugins: [removePreviousOutput(), keepTscModuleUrls(), tracedStoreAsPackage(), importsThroughLoader()],
    output: {
      dir: DIST,
      format: 'cjs',
      entryFileNames: `${OUTPUT_PREFIX}[name].cjs`,
      chunkFileNames: `${OUTPUT_PREFIX}[name].cjs`,
      sourcemap: true,
      // Less to parse at every start; the source maps lead back to the TypeScript.
      minify: true,
    },
  },
  // `dist/index.js`: turns on the caches, then loads the server built above (`index.main.cjs`).
  {
    input: { index: path.join(SRC, 'index.ts') },
    platform: 'node',
    resolve: RESOLVE,
    output: { dir: DIST, format: 'esm', entryFileNames: '[name].js', sourcemap: true, minify: true },
  },
]);

/** Chunk names follow module names, so a chunk that is no longer produced must not linger. */
function removePreviousOutput() {
  return {
    name: 'remove-previous-output',
    buildStart() {
      if (!fs.existsSync(DIST)) return;
      for (const file of fs.readdirSync(DIST)) {
        if (PREVIOUS_OUTPUT.test(file) && !ENTRY_OUTPUT.has(file)) fs.rmSync(path.join(DIST, file));
      }
    },
  };
}

/**
 * Renames each dynamic `import(` left in a chunk (packages kept outside the bundle, Node builtins)
 * to the function `src/code-cache.ts` passes in (`IMPORT_PARAMETER`): a chunk compiled by `vm.Script`
 * has no module loader, and Node's stand-in for one is experimental and warns. The name has the
 * same length, so the source maps stay right. Found by parsing, never by searching the text.
 */
function importsThroughLoader() {
  const KEYWORD = 'import';
  if (IMPORT_PARAMETER.length !== KEYWORD.length)
    throw new Error(`${IMPORT_PARAMETER} must be ${KEYWORD.length} characters`);
  return {
    name: 'imports-through-loader',
    renderChunk(code, chunk) {
      const starts = [];
      collectImportExpressions(parseAst(code), starts);
      if (starts.length === 0) return null;
      let rewritten = code;
      for (const start of starts) {
        if (rewritten.slice(start, start + KEYWORD.length) !== KEYWORD) {
          throw new Error(
            `${chunk.fileName}: no import( at offset ${start}; the rewrite would corrupt the chunk`,
          );
        }
        rewritten = rewritten.slice(0, start) + IMPORT_PARAMETER + rewritten.slice(start + KEYWORD.length);
      }
      return { code: rewritten, map: null };
    },
  };
}

/** Every `import(…)` expression's start offset in an ESTree (oxc) tree. */
function collectImportExpressions(node, starts) {
  if (Array.isArray(node)) {
    for (const item of node) collectImportExpressions(item, starts);
    return;
  }
  if (!node || typeof node !== 'object') return;
  if (node.type === 'ImportExpression') starts.push(node.start);
  for (const value of Object.values(node)) {
    if (value && typeof value === 'object') collectImportExpressions(value, starts);
  }
}

/**
 * Keeps `import.meta.url` meaning "where `tsc` puts this module" (e.g. `dist/resources/adr.js`),
 * so paths relative to a module, such as `new URL('../../../../adr/', import.meta.url)`, resolve
 * the same in the bundle. Every chunk is written to `dist/` itself, so a path relative to `dist/`
 * is enough. (Packages in node_modules are left alone; pino's `__dirname` is only reached by
 * transports in worker threads, which `logger.ts` does not use.)
 */
function keepTscModuleUrls() {
  return {
    name: 'keep-tsc-module-urls',
    transform(code, id) {
      if (!id.startsWith(SRC + path.sep) || !code.includes('import.meta.url')) return null;
      const emitted = path.relative(SRC, id).replace(/\.ts$/, '.js').split(path.sep).join('/');
      const rewritten = new RolldownMagicString(code);
      rewritten.replaceAll(
        'import.meta.url',
        `new URL(${JSON.stringify(`./${emitted}`)}, import.meta.url).href`,
      );
      return { code: rewritten };
    },
  };
}

/**
 * The task store loads its statement spans with `import('./traced-store.js')` when telemetry is on.
 * In the bundle that import becomes the package's own entry for it, so it runs from the task store's
 * folder, where `@opentelemetry/api` resolves, and never from `dist/` here, where it does not.
 */
function tracedStoreAsPackage() {
  return {
    name: 'traced-store-as-package',
    resolveId(source, importer) {
      if (source !== './traced-store.js' || !importer) return null;
      const real = fs.realpathSync(importer).split(path.sep).join('/');
      return real.includes('/task-store/dist/') ? { id: TRACED_STORE_ENTRY, external: true } : null;
    },
  };
}
