/**
 * @module run/bundle
 * `mcp-host-bundle`, a catalogue package's build step: bundles the catalogue (its `src/catalogue.ts`
 * default export) with the runner into `dist/index.js`, the file `node dist/index.js` starts, so a
 * catalogue needs no entry file, no bundler config and no process code of its own. The layout is
 * `@mcp-workshop/fast-start`'s (ADR 019): the server as CommonJS chunks loaded with a V8 code cache,
 * and a small entry that loads them. Build-time only: it needs rolldown, which no server loads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fastStartBuilds } from '@mcp-workshop/fast-start/build';
import { build, type Plugin, RolldownMagicString } from 'rolldown';

/**
 * What stays outside the bundle: a package that reads files beside it at run time (the SQLite
 * WebAssembly), and everything that loads OpenTelemetry, which only runs when telemetry is on and
 * resolves from the packages that depend on it.
 */
const EXTERNAL = [
  'node-sqlite3-wasm',
  '@mcp-workshop/mcp-host/telemetry',
  '@mcp-workshop/task-store/traced',
  '@mcp-workshop/telemetry/sdk',
  /^@opentelemetry\//,
];

/** Bundles the catalogue package at `root` into `root/dist`. */
export async function bundleCatalogue(root: string): Promise<void> {
  const src = path.join(root, 'src');
  const dist = path.join(root, 'dist');
  const catalogue = path.join(src, 'catalogue.ts');
  if (!fs.existsSync(catalogue))
    throw new Error(`${catalogue} is missing: a catalogue exports defineCatalogue(...) there.`);
  // The two generated entries live beside the package's dependencies, so their imports resolve as the catalogue's do.
  const work = path.join(root, 'node_modules', '.mcp-host-bundle');
  fs.mkdirSync(work, { recursive: true });
  const server = path.join(work, 'main.mjs');
  const entry = path.join(work, 'index.mjs');
  fs.writeFileSync(
    server,
    `import catalogue from ${JSON.stringify(catalogue)};\n` +
      `import { runCatalogue } from '@mcp-workshop/mcp-host/run';\n` +
      'runCatalogue(catalogue);\n',
  );
  fs.writeFileSync(
    entry,
    "#!/usr/bin/env node\nimport { runBundle } from '@mcp-workshop/fast-start';\n" +
      '// Written here so that what the bundle leaves outside resolves from `dist/`.\n' +
      "runBundle(new URL('./index.main.cjs', import.meta.url), { importModule: (specifier) => import(specifier) });\n",
  );
  const configs = fastStartBuilds({
    server,
    entry,
    dist,
    external: EXTERNAL,
    // Imports are written for NodeNext (`./deps.js`); the sources are `.ts`.
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    plugins: [keepTscModuleUrls(src), tracedStoreAsPackage()],
  });
  for (const config of Array.isArray(configs) ? configs : [configs]) {
    const outputs = Array.isArray(config.output) ? config.output : [config.output ?? {}];
    for (const output of outputs) await build({ ...config, output });
  }
}

/**
 * Keeps `import.meta.url` meaning "where `tsc` puts this module" (e.g. `dist/resources/adr.js`),
 * so paths relative to a catalogue module, such as `new URL('../../../../adr/', import.meta.url)`,
 * resolve the same in the bundle. Every chunk is written to `dist/` itself, so a path relative to
 * `dist/` is enough.
 */
function keepTscModuleUrls(src: string): Plugin {
  return {
    name: 'keep-tsc-module-urls',
    transform(code, id) {
      if (!id.startsWith(src + path.sep) || !code.includes('import.meta.url')) return null;
      const emitted = path.relative(src, id).replace(/\.ts$/, '.js').split(path.sep).join('/');
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
 * folder, where `@opentelemetry/api` resolves, and never from `dist/`, where it does not.
 */
function tracedStoreAsPackage(): Plugin {
  return {
    name: 'traced-store-as-package',
    resolveId(source, importer) {
      if (source !== './traced-store.js' || !importer) return null;
      const real = fs.realpathSync(importer).split(path.sep).join('/');
      return real.includes('/task-store/dist/')
        ? { id: '@mcp-workshop/task-store/traced', external: true }
        : null;
    },
  };
}
