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
 * What any server's fast start needs (the two builds' layout and chunk names, removing a previous
 * build's chunks, the `import(` rewrite the code cache needs) is `@mcp-workshop/fast-start/build`'s;
 * this file keeps the catalogue's own: its entries, what stays outside, and the plugins below.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastStartBuilds } from '@mcp-workshop/fast-start/build';
import { defineConfig, RolldownMagicString } from 'rolldown';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, 'src');
/** The task store's statement spans, as its package exports them. */
const TRACED_STORE_ENTRY = '@mcp-workshop/task-store/traced';

export default defineConfig(
  fastStartBuilds({
    server: path.join(SRC, 'main.ts'),
    entry: path.join(SRC, 'index.ts'),
    dist: path.join(HERE, 'dist'),
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
    plugins: [keepTscModuleUrls(), tracedStoreAsPackage()],
  }),
);

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
