// @ts-check
/**
 * Whether the workspace's build is up to date, without asking turbo: `pnpm ask`, `pnpm chat` and
 * `pnpm demo` skip `turbo run build` (about 1.3 s even when nothing changed) when nothing changed
 * since the last build they ran. That build leaves a stamp holding the time it *started*; the check
 * errs towards building: no stamp, a package without `dist`, or any file or folder of a package
 * (tests too; a deleted file shows as a newer folder) or a root setting modified after the stamp's
 * time means "build". Turbo itself may leave `dist` untouched on a cache hit, so the stamp, not the
 * age of `dist`, says what was built. Pure but for the file system; scripts/build-if-stale.mjs runs it.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The folders pnpm-workspace.yaml names, one level deep. */
const WORKSPACE_GLOBS = ['packages', 'services', 'dev'];
const WORKSPACE_SINGLES = ['exercises'];
/** Not inputs of a build: outputs, caches, installs and runtime data. */
const NOT_INPUTS = new Set(['node_modules', 'dist', '.turbo', 'artifacts', 'data', 'coverage']);
/** Settings every package's build reads. */
const ROOT_INPUTS = [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'turbo.json',
  'tsconfig.base.json',
];

/** Packages with a `build` script: [{ name, dir }], `dir` absolute. */
export function buildablePackages(root) {
  const dirs = [
    ...WORKSPACE_GLOBS.flatMap((group) => {
      const base = path.join(root, group);
      if (!fs.existsSync(base)) return [];
      return fs
        .readdirSync(base, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(base, entry.name));
    }),
    ...WORKSPACE_SINGLES.map((single) => path.join(root, single)),
  ];
  return dirs.flatMap((dir) => {
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) return [];
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    return pkg.scripts?.build ? [{ name: pkg.name ?? path.basename(dir), dir }] : [];
  });
}

/** Where the stamp lives: inside node_modules, so a fresh clone or a new install has none. */
export function stampPath(root) {
  return path.join(root, 'node_modules', '.cache', 'mcp-workshop', 'build-started-at');
}

/** The start time (ms) of the last build that finished, or undefined. */
export function readStamp(root) {
  try {
    const time = Number(fs.readFileSync(stampPath(root), 'utf8'));
    return Number.isFinite(time) && time > 0 ? time : undefined;
  } catch {
    return undefined;
  }
}

/** Records that a build which started at `startedAt` (ms) finished. */
export function writeStamp(root, startedAt) {
  fs.mkdirSync(path.dirname(stampPath(root)), { recursive: true });
  fs.writeFileSync(stampPath(root), String(startedAt));
}

/**
 * Why a build is needed, or undefined when nothing changed since the last build (`builtAt`, the
 * stamp's time). E.g. "services/agent: src/http.ts changed since the last build". `skip` names
 * package folders (relative to `root`) whose changes do not count (`pnpm dev` serves the
 * catalogue's from source); `only`, when given, the only package folders that do.
 * @param {string} root
 * @param {number | undefined} [builtAt]
 * @param {{ skip?: string[], only?: string[] }} [options]
 */
export function staleReason(root, builtAt = readStamp(root), { skip = [], only } = {}) {
  if (builtAt === undefined) return 'no build recorded yet';
  for (const name of only ? [] : ROOT_INPUTS) {
    const file = path.join(root, name);
    if (fs.existsSync(file) && fs.statSync(file).mtimeMs > builtAt)
      return `${name} changed since the last build`;
  }
  for (const { dir } of buildablePackages(root)) {
    const where = path.relative(root, dir);
    const name = where.split(path.sep).join('/');
    if (skip.includes(name) || (only && !only.includes(name))) continue;
    if (!fs.existsSync(path.join(dir, 'dist'))) return `${where} has no dist`;
    const changed = newerThan(dir, builtAt);
    if (changed) return `${where}: ${path.relative(dir, changed)} changed since the last build`;
  }
  return undefined;
}

/** The first file or folder under `dir` (inputs only) modified after `time`, or undefined. */
function newerThan(dir, time) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    // A test's scratch copy of the catalogue (.scratch-dev-*, git-ignored) is no input of the build.
    if (NOT_INPUTS.has(entry.name) || entry.name.startsWith('.scratch-')) continue;
    const full = path.join(dir, entry.name);
    if (!entry.isDirectory() && !entry.isFile()) continue;
    if (fs.statSync(full).mtimeMs > time) return full;
    if (entry.isDirectory()) {
      const inner = newerThan(full, time);
      if (inner) return inner;
    }
  }
  return undefined;
}
