/**
 * @module code-cache
 * Loads a server's CommonJS bundle (`dist/index.*.cjs`, as `build.ts` lays it out) with a V8 code
 * cache, on every Node version: each chunk is compiled by `vm.Script` from the bytes V8 saved after
 * an earlier start, so a start after the first skips most of the parsing and compiling, lazily
 * compiled functions included.
 * A missing, stale or rejected cache only costs that speed-up; nothing here throws for it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { IMPORT_PARAMETER } from './import-parameter.js';

export { IMPORT_PARAMETER };

/**
 * Chunks of the bundle are named `index.<name>.cjs`, or `index2.<name>.cjs` (and on) when rolldown
 * gives two chunks the same name; anything else a chunk requires is Node's business. A chunk left
 * to Node's `require` would run a second time, outside this loader, and with it whatever it requires.
 */
const CHUNK = /^\.\/index\d*\.[\w.-]+\.cjs$/;

export interface BundleLoaderOptions {
  /** Where cached code is read and written; undefined compiles as usual and saves nothing. */
  directory: string | undefined;
  /** `import()` as the entry module does it: chunks sit beside it, so specifiers resolve the same. */
  importModule: (specifier: string) => Promise<unknown>;
}

export interface BundleLoader {
  /** Loads a chunk (and what it requires) by absolute path, as `require` would; returns its exports. */
  load(file: string): unknown;
  /** Writes the cache of every chunk compiled without one; returns how many were written. Never throws. */
  save(): number;
}

interface Unsaved {
  script: vm.Script;
  name: string;
  cacheFile: string;
}

export function createBundleLoader(options: BundleLoaderOptions): BundleLoader {
  const loaded = new Map<string, { exports: unknown }>();
  const unsaved: Unsaved[] = [];

  function load(file: string): unknown {
    const known = loaded.get(file);
    if (known) return known.exports;
    const source = fs.readFileSync(file, 'utf8');
    // One entry per chunk file (two checkouts never evict each other's) and per V8 version, flags and
    // CPU (`cachedDataVersionTag`: a process started with --expose-gc, say, cannot use the others'),
    // named after the content, so a rebuilt chunk replaces its entry.
    const name = `${path.basename(file)}-${digest(file).slice(0, 12)}-${v8.cachedDataVersionTag()}`;
    const key = digest(source);
    const cacheFile = options.directory && path.join(options.directory, `${name}-${key.slice(0, 32)}`);
    const cachedData = cacheFile ? readCache(cacheFile) : undefined;
    // The wrapper on a line of its own, counted as line -1: stack traces give the file's own positions.
    const script = new vm.Script(
      `(function (exports, require, module, __filename, __dirname, ${IMPORT_PARAMETER}) {\n${source}\n})`,
      { filename: file, lineOffset: -1, ...(cachedData && { cachedData }) },
    );
    if (cacheFile && (!cachedData || script.cachedDataRejected)) unsaved.push({ script, name, cacheFile });
    const module = { exports: {} as unknown };
    loaded.set(file, module);
    const dir = path.dirname(file);
    const nodeRequire = createRequire(file);
    const chunkRequire = (specifier: string): unknown =>
      CHUNK.test(specifier) ? load(path.join(dir, specifier)) : nodeRequire(specifier);
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper(
      module.exports,
      Object.assign(chunkRequire, nodeRequire),
      module,
      file,
      dir,
      options.importModule,
    );
    return module.exports;
  }

  function save(): number {
    let written = 0;
    for (const { script, name, cacheFile } of unsaved.splice(0)) {
      if (writeCache(cacheFile, name, script)) written++;
    }
    return written;
  }

  return { load, save };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Written beside its final name and renamed, so a reader never sees half a file; older builds'
 * entries for the same chunk go (another process's half-written one stays).
 */
function writeCache(cacheFile: string, name: string, script: vm.Script): boolean {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temporary, cacheFile);
    const dir = path.dirname(cacheFile);
    for (const other of fs.readdirSync(dir)) {
      if (other.startsWith(`${name}-`) && !other.endsWith('.tmp') && path.join(dir, other) !== cacheFile)
        fs.rmSync(path.join(dir, other), { force: true });
    }
    return true;
  } catch {
    removeQuietly(temporary);
    return false;
  }
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // A folder that refused the write may refuse this too; the file, if any, is harmless.
  }
}

/**
 * This user's cache folder, `<os.tmpdir()>/mcp-workshop-code-cache-<uid>`, made if need be; undefined
 * when it cannot be made or is not safe to load code from: it must be a folder of this user's that
 * no one else can write to, since whatever is in it runs as this server. Never throws.
 */
export function userCacheDirectory(base: string = os.tmpdir()): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = path.join(base, `mcp-workshop-code-cache-${uid ?? 'user'}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    // POSIX only: on Windows there are no uids and no such mode bits to check.
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
