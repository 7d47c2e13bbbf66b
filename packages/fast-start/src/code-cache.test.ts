/**
 * @module code-cache.test
 * `createBundleLoader` on small CommonJS chunks written to a temp folder: it runs them as `require`
 * would, saves V8's code cache for them, and shrugs off a cache that is corrupt, stale or cannot be
 * written. `userCacheDirectory` refuses a folder others could write to.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBundleLoader, IMPORT_PARAMETER, userCacheDirectory } from './code-cache.js';

let scratch: string;
let bundle: string;
let cache: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'code-cache-'));
  bundle = join(scratch, 'dist');
  cache = join(scratch, 'cache');
  mkdirSync(bundle);
  mkdirSync(cache);
  writeChunk(
    'index.main.cjs',
    'const shared = require("./index.shared.cjs"); exports.answer = shared.twice(21);',
  );
  writeChunk('index.shared.cjs', 'exports.twice = (n) => n * 2; exports.runs = (exports.runs ?? 0) + 1;');
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function writeChunk(name: string, code: string): string {
  const file = join(bundle, name);
  writeFileSync(file, code);
  return file;
}

function loaderFor(directory: string | undefined) {
  return createBundleLoader({ directory, importModule: (specifier) => import(specifier) });
}

const mainChunk = () => join(bundle, 'index.main.cjs');
const cached = () => readdirSync(cache).filter((file) => !file.endsWith('.tmp'));

describe('createBundleLoader', () => {
  it('runs a chunk and the chunks it requires, each once, and returns its exports', () => {
    const loader = loaderFor(undefined);
    expect(loader.load(mainChunk())).toEqual({ answer: 42 });
    // The module the main chunk required, not a second run of it.
    expect(loader.load(join(bundle, 'index.shared.cjs'))).toMatchObject({ runs: 1 });
    expect(loader.save()).toBe(0);
  });

  it('loads a chunk rolldown numbered for a clashing name (index2.<name>.cjs) itself, so nothing runs twice', () => {
    // index2.dist.cjs requires the main chunk back, as rolldown's shared chunks do: left to Node's
    // require it would run the main chunk a second time (a server that starts twice).
    writeChunk(
      'index.main.cjs',
      'exports.runs = (globalThis.mainRuns = (globalThis.mainRuns ?? 0) + 1); exports.more = () => require("./index2.dist.cjs");',
    );
    writeChunk('index2.dist.cjs', 'exports.main = require("./index.main.cjs");');
    const loader = loaderFor(undefined);
    const main = loader.load(mainChunk()) as { more: () => unknown };
    main.more();
    expect((globalThis as { mainRuns?: number }).mainRuns).toBe(1);
    delete (globalThis as { mainRuns?: number }).mainRuns;
  });

  it('lets chunks require Node builtins and packages as usual', () => {
    const file = writeChunk('index.builtin.cjs', 'exports.sep = require("node:path").sep;');
    expect(loaderFor(undefined).load(file)).toEqual({ sep });
  });

  it(`hands chunks the import function as ${IMPORT_PARAMETER}, for what the bundle leaves outside`, async () => {
    const file = writeChunk(
      'index.dynamic.cjs',
      `exports.platform = ${IMPORT_PARAMETER}("node:os").then((os) => typeof os.platform);`,
    );
    const { platform } = loaderFor(undefined).load(file) as { platform: Promise<string> };
    expect(await platform).toBe('function');
  });

  it('saves a cache for each chunk it compiled, once', () => {
    const loader = loaderFor(cache);
    expect(loader.load(mainChunk())).toEqual({ answer: 42 });
    expect(loader.save()).toBe(2);
    expect(cached()).toHaveLength(2);
    expect(loader.save()).toBe(0);
  });

  // Whether V8 accepts a cache, and a rejected one is written again, shows only across processes
  // (V8 keeps compiled scripts in memory too): dev/host-integration's cold-start.test.ts checks both on the server.
  it('still loads when the cache is corrupt', () => {
    const first = loaderFor(cache);
    first.load(mainChunk());
    first.save();
    for (const file of cached()) writeFileSync(join(cache, file), 'not V8 code');
    expect(loaderFor(cache).load(mainChunk())).toEqual({ answer: 42 });
  });

  it('keeps one entry per chunk: a rebuilt chunk replaces the old one', () => {
    const first = loaderFor(cache);
    first.load(mainChunk());
    first.save();
    const before = cached();
    writeChunk('index.shared.cjs', 'exports.twice = (n) => n + n;');

    const second = loaderFor(cache);
    expect(second.load(mainChunk())).toEqual({ answer: 42 });
    expect(second.save()).toBe(1);
    const after = cached();
    expect(after).toHaveLength(2);
    expect(after.filter((file) => before.includes(file))).toHaveLength(1);
  });

  it('runs as usual and saves nothing when the cache folder cannot be written', () => {
    const aFile = join(scratch, 'a-file');
    writeFileSync(aFile, '');
    const loader = loaderFor(join(aFile, 'cache'));
    expect(loader.load(mainChunk())).toEqual({ answer: 42 });
    expect(loader.save()).toBe(0);
  });

  it('lets a chunk that throws throw, as require would, from its own line and column', () => {
    const file = writeChunk(
      'index.broken.cjs',
      '"use strict";\nconst x = 1; throw new Error("broken chunk");',
    );
    let error: unknown;
    try {
      loaderFor(cache).load(file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('broken chunk');
    expect((error as Error).stack).toContain(`${file}:2:20`);
  });
});

describe('userCacheDirectory', () => {
  it('makes a folder of its own under the base, private to this user', () => {
    const dir = userCacheDirectory(scratch);
    expect(dir).toBeDefined();
    expect(statSync(dir ?? '').isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(dir ?? '').mode & 0o077).toBe(0);
    expect(userCacheDirectory(scratch)).toBe(dir);
  });

  it('gives none when the base is not a folder', () => {
    const aFile = join(scratch, 'a-file');
    writeFileSync(aFile, '');
    expect(userCacheDirectory(aFile)).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('gives none when others could write to the folder', () => {
    const dir = userCacheDirectory(scratch);
    chmodSync(dir ?? '', 0o777);
    expect(userCacheDirectory(scratch)).toBeUndefined();
  });
});
