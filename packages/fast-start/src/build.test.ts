/**
 * @module build.test
 * The generic rolldown parts: the `import(` rewrite (by parsing, same length, never inside strings),
 * the removal of a previous build's chunks, and the two builds' layout.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fastStartBuilds,
  IMPORT_PARAMETER,
  OUTPUT_PREFIX,
  removePreviousOutput,
  rewriteImportExpressions,
} from './build.js';

describe('rewriteImportExpressions', () => {
  it(`renames each import( to ${IMPORT_PARAMETER}, keeping every offset`, () => {
    const code = 'const a=import("node:os");const b=()=>import(`pkg`);';
    const result = rewriteImportExpressions(code, 'index.x.cjs');
    expect(result?.code).toBe(
      `const a=${IMPORT_PARAMETER}("node:os");const b=()=>${IMPORT_PARAMETER}(\`pkg\`);`,
    );
    expect(result?.code).toHaveLength(code.length);
  });

  it('leaves a chunk without dynamic imports, and the word in strings and names, alone', () => {
    expect(rewriteImportExpressions('const s="import(x)";const importer=1;', 'index.y.cjs')).toBeNull();
  });
});

describe('removePreviousOutput', () => {
  let dist: string;
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it("removes the previous build's chunks and nothing else, the entry included", () => {
    dist = mkdtempSync(join(tmpdir(), 'fast-start-build-'));
    const names = ['index.main.cjs', 'index2.dist.cjs', 'index.js', 'index.js.map', 'lib.js', 'views'];
    for (const name of names.slice(0, -1)) writeFileSync(join(dist, name), '');
    mkdirSync(join(dist, 'views'));
    const plugin = removePreviousOutput(dist) as unknown as { buildStart: () => void };
    plugin.buildStart();
    expect(names.filter((name) => existsSync(join(dist, name)))).toEqual([
      'index.js',
      'index.js.map',
      'lib.js',
      'views',
    ]);
  });
});

describe('fastStartBuilds', () => {
  it('builds the server as CommonJS chunks, then the entry as an ES module, into one folder', () => {
    const [server, entry] = fastStartBuilds({
      server: '/s/src/main.ts',
      entry: '/s/src/index.ts',
      dist: '/s/dist',
      external: ['left-out'],
    });
    expect(server).toMatchObject({
      input: { main: '/s/src/main.ts' },
      external: ['left-out'],
      output: { dir: '/s/dist', format: 'cjs', entryFileNames: `${OUTPUT_PREFIX}[name].cjs` },
    });
    expect(entry).toMatchObject({
      input: { index: '/s/src/index.ts' },
      output: { dir: '/s/dist', format: 'esm', entryFileNames: '[name].js' },
    });
    expect(entry).not.toHaveProperty('external');
  });
});
