// @ts-check
/**
 * The steps of scripts/build-if-stale.mjs: read its arguments, build when build-state.mjs finds
 * the build stale, and run the command's entry file (the launcher) in the same Node process.
 * `pnpm ask` thus starts one Node process before the launcher's children, not two: a cold Node
 * start is about 70 ms, on the path of every question. The build itself is passed in.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readStamp, staleReason, writeStamp } from './build-state.mjs';
import { CATALOGUE_PACKAGE_DIR } from './dev-stack.mjs';

/** `pnpm ask` runs it; `pnpm dev` does not build it. */
const LAUNCHER_PACKAGE_DIR = 'dev/launcher';

export class UsageError extends Error {}

/**
 * `[--verbose] [--run <entry.js> ...args]`. Everything after the entry is the entry's own, even
 * `--verbose`: `pnpm ask --json "…"` appends its arguments after the script's.
 */
export function parseBuildArgs(argv) {
  const runAt = argv.indexOf('--run');
  const own = runAt === -1 ? argv : argv.slice(0, runAt);
  const unknown = own.filter((arg) => arg !== '--verbose');
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown argument ${unknown[0]}; usage: build-if-stale.mjs [--verbose] [--run <entry.js> ...args]`,
    );
  }
  const verbose = own.includes('--verbose');
  if (runAt === -1) return { verbose };
  const [entry, ...args] = argv.slice(runAt + 1);
  if (!entry) throw new UsageError('--run needs the entry file to run after the build');
  return { verbose, run: { entry, args } };
}

/**
 * Builds with `build()` (its exit status) when the workspace at `root` is stale, and records the
 * build's start time once it succeeds. Returns 0 when nothing needed building, else the build's status.
 * With `devStack` (a running `pnpm dev`, dev-stack.mjs), the catalogue's own changes need no build:
 * its dev server reloads them from source. `pnpm dev` built what it runs when it started, so only
 * changes since then count, except for the launcher, which it does not run: the recorded build
 * still judges that one.
 * @param {{ root: string, verbose?: boolean, build: () => number,
 *   devStack?: { url: string, startedAt: number | undefined }, log?: (line: string) => void }} options
 */
export function buildIfStale({
  root,
  verbose = false,
  build,
  devStack,
  log = (line) => console.error(line),
}) {
  const stamp = readStamp(root);
  const reason = devStack
    ? (staleReason(root, Math.max(stamp ?? 0, devStack.startedAt ?? 0) || undefined, {
        skip: [CATALOGUE_PACKAGE_DIR],
      }) ?? staleReason(root, stamp ?? devStack.startedAt, { only: [LAUNCHER_PACKAGE_DIR] }))
    : staleReason(root, stamp);
  if (!reason) {
    if (verbose) {
      log(
        devStack
          ? `build: pnpm dev at ${devStack.url} reloads the catalogue on each save, and nothing else changed; not building`
          : 'build: nothing changed since the last build; not building',
      );
    }
    return 0;
  }
  if (verbose) log(`build: ${reason}; running turbo run build`);
  // The time the build starts: a file saved while it runs is newer, so the next run builds again.
  const startedAt = Date.now();
  const status = build();
  if (status === 0) writeStamp(root, startedAt);
  return status;
}

/**
 * Runs `entry` (relative to `root`) in this process as `node entry ...args` would: the same
 * `process.argv`, its top level awaited. The entry exits the process itself when it is done.
 */
export async function runInProcess(root, entry, args) {
  const file = path.resolve(root, entry);
  process.argv = [process.argv[0] ?? process.execPath, file, ...args];
  await import(pathToFileURL(file).href);
}
