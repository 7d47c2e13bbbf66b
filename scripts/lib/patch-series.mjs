// @ts-check
/**
 * The SDK patches as a series of one concern each (patches/series.json), and the one file per
 * package that pnpm applies (patches/<name>@<version>.patch), composed from them. pnpm takes a
 * single patch per package, so the series is the source and the composed files are its output:
 * `check` proves they agree, `write` rewrites them, and `variant` builds a copy of the SDK with only
 * the first N patches, which `pnpm bench` serves to show what each patch buys. A package whose
 * entries say `"installed": false` gets no composed file and no patchedDependencies line: its
 * patches exist only in `variant` builds (the node adapter's, which only the bench serves through).
 *
 * Every concern patch is a diff against the package as published, so each reads on its own (and
 * could be sent upstream as it is); `git apply` stacks them in order and tolerates the line offsets
 * an earlier patch introduces.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** @typedef {{ file: string, package: string, concern: string, test: string, note: string, installed?: boolean }} SeriesEntry */

/** Reads patches/series.json: the concern patches in the order they apply. */
export function readSeries(root) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'patches', 'series.json'), 'utf8'));
  if (!Array.isArray(manifest.series)) throw new Error('patches/series.json: "series" must be a list');
  for (const entry of manifest.series) {
    for (const key of ['file', 'package', 'concern', 'test', 'note']) {
      if (typeof entry[key] !== 'string' || entry[key] === '')
        throw new Error(`patches/series.json: an entry lacks "${key}": ${JSON.stringify(entry)}`);
    }
    if (!/^(@[^/@]+\/)?[^/@]+@\d[^@]*$/.test(entry.package))
      throw new Error(`patches/series.json: "${entry.package}" is not name@exact-version`);
    if (entry.installed !== undefined && typeof entry.installed !== 'boolean')
      throw new Error(`patches/series.json: "installed" must be true or false: ${JSON.stringify(entry)}`);
  }
  // pnpm takes one file per package: its patches are all installed, or none of them.
  for (const key of seriesPackages(manifest.series)) {
    const kinds = new Set(manifest.series.filter((e) => e.package === key).map((e) => e.installed !== false));
    if (kinds.size > 1) throw new Error(`patches/series.json: the entries of ${key} disagree on "installed"`);
  }
  return /** @type {SeriesEntry[]} */ (manifest.series);
}

/** `@scope/name@1.2.3` → ['@scope/name', '1.2.3']. */
export function splitKey(key) {
  const at = key.lastIndexOf('@');
  return [key.slice(0, at), key.slice(at + 1)];
}

/** The file pnpm applies for a package, by pnpm's own naming (`@scope__name@version.patch`). */
export function composedPatchPath(root, key) {
  const [name, version] = splitKey(key);
  return path.join(root, 'patches', `${name.replace('/', '__')}@${version}.patch`);
}

/** The packages the series touches, in the order they first appear. */
export function seriesPackages(series) {
  return [...new Set(series.map((entry) => entry.package))];
}

/** The packages pnpm patches at install (a composed file each): all but those marked `"installed": false`. */
export function installedPackages(series) {
  const notInstalled = new Set(
    series.filter((entry) => entry.installed === false).map((entry) => entry.package),
  );
  return seriesPackages(series).filter((key) => !notInstalled.has(key));
}

/** The workspace's package folders (pnpm-workspace.yaml's globs are all `<folder>/*`). */
function workspacePackages(root) {
  const folders = [];
  for (const group of ['dev', 'packages', 'services']) {
    const base = path.join(root, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base)) folders.push(path.join(base, entry));
  }
  return folders;
}

/**
 * Where pnpm installed the package, as a workspace package that depends on it sees it: the virtual
 * store keeps older builds (other patches, other peers) until it is pruned, so the folder is found
 * through an importer's link rather than by name.
 */
export function installedDir(root, key) {
  const [name, version] = splitKey(key);
  for (const folder of workspacePackages(root)) {
    const link = path.join(folder, 'node_modules', name);
    if (!existsSync(path.join(link, 'package.json'))) continue;
    const real = realpathSync(link);
    if (JSON.parse(readFileSync(path.join(real, 'package.json'), 'utf8')).version === version) return real;
  }
  throw new Error(`no workspace package has ${key} installed: run pnpm install`);
}

function git(args, cwd) {
  // Plain folders, not a repository (GIT_DIR), and no one's git configuration (context lines, diff
  // algorithm, prefixes), so every machine composes the same bytes.
  const env = {
    ...process.env,
    GIT_DIR: '/nonexistent-mcp-workshop',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  return spawnSync('git', args, { cwd, encoding: 'utf8', env, maxBuffer: 64 * 2 ** 20 });
}

/** Applies (or with `reverse`, removes) one patch in `dir`; throws with git's reason. */
export function applyPatch(dir, patchFile, { reverse = false } = {}) {
  const result = git(['apply', '--whitespace=nowarn', ...(reverse ? ['-R'] : []), patchFile], dir);
  if (result.status !== 0) {
    const verb = reverse ? 'does not come off' : 'does not apply to';
    throw new Error(`${path.basename(patchFile)} ${verb} ${dir}: ${result.stderr.trim()}`);
  }
}

/** The package as published: the installed copy with the composed patch pnpm applied taken off. */
export function publishedCopy(root, key, dest) {
  cpSync(installedDir(root, key), dest, { recursive: true, dereference: true });
  const composed = composedPatchPath(root, key);
  if (existsSync(composed)) {
    try {
      applyPatch(dest, composed, { reverse: true });
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : error}\n(is the install older than ${path.relative(root, composed)}? run pnpm install)`,
      );
    }
  }
}

/** `git diff` of two folders as a patch pnpm reads: paths relative to the package, a/ and b/. */
export function diffFolders(before, after) {
  const work = mkdtempSync(path.join(tmpdir(), 'patch-diff-'));
  try {
    cpSync(before, path.join(work, 'a'), { recursive: true });
    cpSync(after, path.join(work, 'b'), { recursive: true });
    const result = git(
      [
        'diff',
        '--no-index',
        '--no-color',
        '--no-ext-diff',
        '--no-prefix',
        '--full-index',
        '--diff-algorithm=myers',
        '-U3',
        'a',
        'b',
      ],
      work,
    );
    if (result.status !== 0 && result.status !== 1) throw new Error(`git diff failed: ${result.stderr}`);
    return result.stdout;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The composed patch of each installed package: the package with the whole series against it as published. */
export function compose(root, series = readSeries(root)) {
  const work = mkdtempSync(path.join(tmpdir(), 'patch-compose-'));
  try {
    const published = buildVariant(root, 0, path.join(work, 'published'), series);
    const patched = buildVariant(root, series.length, path.join(work, 'patched'), series);
    return new Map(
      installedPackages(series).map((key) => {
        const [name] = splitKey(key);
        return [key, diffFolders(path.join(published, name), path.join(patched, name))];
      }),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Composed files that differ from what the series composes to, with the reason for each. */
export function staleComposed(root, series = readSeries(root)) {
  const stale = [];
  for (const [key, text] of compose(root, series)) {
    const file = composedPatchPath(root, key);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (committed === undefined) stale.push(`${path.relative(root, file)} is missing`);
    else if (committed !== text) stale.push(`${path.relative(root, file)} differs from its series`);
  }
  const installed = new Set(installedPackages(series));
  for (const key of seriesPackages(series)) {
    const file = composedPatchPath(root, key);
    if (!installed.has(key) && existsSync(file))
      stale.push(
        `${path.relative(root, file)} is left over: ${key}'s patches are not installed ("installed": false)`,
      );
  }
  return stale;
}

/**
 * Builds `dest/node_modules` holding every series package with only the first `upto` patches of
 * the series (0: as published), each beside links to the dependencies pnpm installed for it, so a
 * script in `dest` imports that build of the SDK and the very same zod.
 */
export function buildVariant(root, upto, dest, series = readSeries(root)) {
  if (!Number.isInteger(upto) || upto < 0 || upto > series.length)
    throw new Error(`--upto must be 0…${series.length}, got ${upto}`);
  const modules = path.join(dest, 'node_modules');
  rmSync(dest, { recursive: true, force: true });
  const packages = seriesPackages(series);
  for (const key of packages) {
    const [name] = splitKey(key);
    const target = path.join(modules, name);
    mkdirSync(path.dirname(target), { recursive: true });
    publishedCopy(root, key, target);
  }
  for (const entry of series.slice(0, upto)) {
    applyPatch(path.join(modules, splitKey(entry.package)[0]), path.join(root, 'patches', entry.file));
  }
  // The installed neighbours of each copied package: its dependencies, as pnpm laid them out.
  const copied = new Set(packages.map((key) => splitKey(key)[0]));
  for (const key of packages) {
    const [name] = splitKey(key);
    const real = realpathSync(installedDir(root, key));
    const neighbours = real.slice(0, real.length - name.length);
    for (const dependency of listPackages(neighbours)) {
      const link = path.join(modules, dependency);
      if (copied.has(dependency) || existsSync(link)) continue;
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(realpathSync(path.join(neighbours, dependency)), link, 'dir');
    }
  }
  return modules;
}

/** Package names in a node_modules folder (`zod`, `@scope/name`), hidden folders skipped. */
function listPackages(modules) {
  const names = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@'))
      for (const inner of readdirSync(path.join(modules, entry))) names.push(`${entry}/${inner}`);
    else names.push(entry);
  }
  return names;
}
