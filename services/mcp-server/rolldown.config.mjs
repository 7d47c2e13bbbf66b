/**
 * Bundles the server's entry, `src/index.ts`, into `dist/index.js` plus chunks beside it
 * (`dist/index.<name>.js`) that load only when needed: the HTTP stack, the stdio transport, mathjs.
 * Why: stdio hosts start the server on every launch, and a cold start that resolves, reads and
 * compiles hundreds of small modules from node_modules takes about half again as long as the same
 * code in a few files. `tsc` still emits everything else (`dist/lib.js` and what it imports), so
 * the library entry, its types and the tests are unchanged. Runs after `tsc` in `pnpm build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, RolldownMagicString } from 'rolldown';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, 'src');
const DIST = path.join(HERE, 'dist');
/** Every file this step writes starts with it, so a build can remove the previous build's chunks. */
const OUTPUT_PREFIX = 'index.';

export default defineConfig({
  input: path.join(SRC, 'index.ts'),
  platform: 'node',
  // It reads its .wasm from its own folder at run time, so it stays in node_modules. OpenTelemetry
  // loads only when telemetry is on (telemetry/start.ts): it stays out of the bundle every start parses.
  external: ['node-sqlite3-wasm', '@mcp-workshop/telemetry/sdk', /^@opentelemetry\//],
  // Imports are written for NodeNext (`./deps.js`); the sources are `.ts`.
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  plugins: [removePreviousOutput(), keepTscModuleUrls()],
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
