/**
 * Bundles the server's entry, `src/index.ts`, into `dist/index.js` plus chunks beside it
 * (`dist/index.<name>.js`) that load only when needed: the HTTP stack, the stdio transport, mathjs.
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

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, 'src');
const DIST = path.join(HERE, 'dist');
/** The task store's statement spans, as its package exports them. */
const TRACED_STORE_ENTRY = '@mcp-workshop/task-store/traced';

/** Every file this step writes starts with it, so a build can remove the previous build's chunks. */
const OUTPUT_PREFIX = 'index.';

export default defineConfig({
  input: path.join(SRC, 'index.ts'),
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
  // Imports are written for NodeNext (`./deps.js`); the sources are `.ts`.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [removePreviousOutput(), keepTscModuleUrls(), tracedStoreAsPackage()],
  output: {
    dir: DIST,
    format: 'esm',
    entryFileNames: `${OUTPUT_PREFIX}js`,
    chunkFileNames: `${OUTPUT_PREFIX}[name].js`,
    sourcemap: true,
    // Less to parse at every start; the source maps lead back to the TypeScript.
    minify: true,
  },
});

/** Chunk names follow module names, so a chunk that is no longer produced must not linger. */
function removePreviousOutput() {
  return {
    name: 'remove-previous-output',
    buildStart() {
      if (!fs.existsSync(DIST)) return;
      for (const file of fs.readdirSync(DIST)) {
        if (file.startsWith(OUTPUT_PREFIX)) fs.rmSync(path.join(DIST, file));
      }
    },
  };
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
