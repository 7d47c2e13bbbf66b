#!/usr/bin/env node
// @ts-check
/**
 * `pnpm ask`, `pnpm chat` and `pnpm demo` start here: it builds (`turbo run build`, told on stderr
 * a line per package by scripts/lib/build-progress.mjs) only when scripts/lib/build-state.mjs finds
 * something changed since the last build it ran, and then, with `--run <entry.js> ...args`, runs
 * that entry (the launcher) in this same Node process (scripts/lib/build-then-run.mjs). `--verbose`
 * says whether it built. While `pnpm dev` runs where the launcher will look (scripts/lib/dev-stack.mjs),
 * the catalogue's saves need no build: its dev server reloads them itself.
 *
 *   node scripts/build-if-stale.mjs [--verbose] [--run dev/launcher/dist/cli.js ask "question"]
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale, parseBuildArgs, runInProcess, UsageError } from './lib/build-then-run.mjs';
import { devHealthUrl, findDevStack } from './lib/dev-stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let options;
try {
  options = parseBuildArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
// `pnpm demo` always starts a server of its own from the build; `ask` and `chat` reuse a running one.
const reusesServer = ['ask', 'chat'].includes(options.run?.args[0] ?? '');
const devStack = reusesServer ? await findDevStack(devHealthUrl(process.env)) : undefined;
const status = buildIfStale({
  root,
  verbose: options.verbose,
  devStack,
  // `turbo run build`, with a line as each package is built (scripts/lib/build-progress.mjs). Its
  // stdout goes to stderr: `pnpm ask --json` keeps stdout for its one JSON object.
  build: () =>
    spawnSync(process.execPath, [path.join(root, 'scripts/lib/build-progress.mjs')], {
      cwd: root,
      stdio: ['ignore', process.stderr, 'inherit'],
    }).status ?? 1,
});
if (status !== 0 || !options.run) process.exit(status);
await runInProcess(root, options.run.entry, options.run.args);
