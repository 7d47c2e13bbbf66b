#!/usr/bin/env node
/**
 * `pnpm ask`, `pnpm chat` and `pnpm demo` run this before the launcher: it builds (`turbo run
 * build`, its output on stderr) only when scripts/lib/build-state.mjs finds something changed since
 * the last build it ran, and otherwise returns at once. `--verbose` says which way it went.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason, writeStamp } from './lib/build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const verbose = process.argv.includes('--verbose');
const reason = staleReason(root);
if (!reason) {
  if (verbose) console.error('build: nothing changed since the last build; not building');
  process.exit(0);
}
if (verbose) console.error(`build: ${reason}; running turbo run build`);
// The time the build starts: a file saved while it runs is newer, so the next run builds again.
const startedAt = Date.now();
// stdout goes to stderr too: `pnpm ask --json` keeps stdout for its one JSON object.
const built = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  stdio: ['ignore', process.stderr, 'inherit'],
});
if (built.status === 0) writeStamp(root, startedAt);
process.exit(built.status ?? 1);
