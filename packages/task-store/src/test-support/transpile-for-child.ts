/**
 * @module test-support/transpile-for-child
 * Transpiles some of this package's modules into a folder, so a plain `node` child process (one a
 * test kills with SIGKILL) runs the same code as the server without a build step. Bare imports point
 * at the files this package resolves, since the folder has no node_modules; a runtime import of a
 * module not listed fails the child loudly. Used by `sqlite-store.test.ts` and `runs/pg-boss-queue.test.ts`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** `files` are paths under src/ (`runs/pg-boss-queue.ts`); each lands at the same place under `dir`. */
export function transpileForChild(dir: string, files: readonly string[]): void {
  const src = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const resolve = createRequire(import.meta.url).resolve;
  for (const file of files) {
    const { outputText } = ts.transpileModule(fs.readFileSync(path.join(src, file), 'utf8'), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2023,
        verbatimModuleSyntax: true,
      },
    });
    const js = outputText
      .replace(/from '([^'.][^']*)'/g, (line, specifier: string) =>
        specifier.startsWith('node:') ? line : `from '${pathToFileURL(resolve(specifier)).href}'`,
      )
      // sqlite-wasm.ts finds its package with require() and createRequire(…).resolve(), which take
      // paths, not URLs. Only those calls: a promise's resolve('…') is left alone.
      .replace(
        /(\brequire|\.resolve)\('([^'.][^']*)'\)/g,
        (_call, fn: string, specifier: string) => `${fn}(${JSON.stringify(resolve(specifier))})`,
      );
    const out = path.join(dir, file.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, js);
  }
}
