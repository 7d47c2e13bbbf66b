/**
 * @module staleness
 * Whether a running MCP server serves an older catalogue than the one on disk: its `/health` says
 * when its catalogue was loaded (`catalogueLoadedAt`: at start, or at `pnpm dev`'s last good
 * reload), and a catalogue source saved after that is newer. `pnpm ask` and `pnpm chat` then say
 * so in one line instead of talking to yesterday's tools in silence. Test: `staleness.test.ts`.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** One `/health` request; a server that does not answer in time is not judged. */
const HEALTH_TIMEOUT_MS = 1_000;
/** Clocks and file systems round; a save this close to the load is the load's own. */
const SLACK_MS = 1_000;

/** The newest catalogue source under `root` (its `src/`, `views/` and `skills/`, tests and build output left out). */
export function newestSource(root: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  const visit = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', '__snapshots__', 'test-support'].includes(entry.name)) visit(full);
      } else if (/\.(ts|html|css|json|md)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
        const { mtimeMs } = statSync(full);
        if (!newest || mtimeMs > newest.mtimeMs) newest = { file: full, mtimeMs };
      }
    }
  };
  // skills/: a skill is read at start, so an edited SKILL.md is as stale as an edited tool.
  for (const part of ['src', 'views', 'skills']) visit(path.join(root, part));
  return newest;
}

/**
 * A warning when the server at `baseUrl` loaded its catalogue before the newest source under
 * `root` was saved, else undefined (also when it does not say when: an older server, or not ours).
 */
export async function staleCatalogueWarning(baseUrl: string, root: string): Promise<string | undefined> {
  let loadedAt: number;
  try {
    const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const health = (await response.json()) as { catalogueLoadedAt?: unknown };
    if (typeof health.catalogueLoadedAt !== 'string') return undefined;
    loadedAt = Date.parse(health.catalogueLoadedAt);
  } catch {
    return undefined;
  }
  const newest = newestSource(root);
  if (!newest || Number.isNaN(loadedAt) || newest.mtimeMs <= loadedAt + SLACK_MS) return undefined;
  const changed = path.relative(root, newest.file);
  return (
    `the MCP server at ${baseUrl} serves the catalogue as it was at ${new Date(loadedAt).toLocaleTimeString('en-GB')}, ` +
    `before ${changed} was saved: restart it (Ctrl-C, then pnpm start) or run pnpm dev, which reloads on each save.`
  );
}
