/**
 * @module sdk-builds
 * Builds of the SDK with the first N patches of patches/series.json (N = 0: as published), each
 * with the SDK floor's script (targets/sdk-v2-floor.ts) beside it, so the script imports that build
 * and not the installed SDK. `scripts/patch-series.mjs variant` makes them: it copies the installed
 * SDK packages, takes pnpm's patch off and stacks the series again, with no network and no second
 * install. The SDK series (sdk-series.ts) serves one build per step; the SDK floor target serves the
 * build with the whole series, because the series' node patches (03, 04, 10, 11: `toNodeHandler`,
 * which the floor serves through and this server does not) are not installed (patches/README.md).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The repository's root, from dev/bench/dist (or src). */
export const REPO_ROOT = join(HERE, '..', '..', '..');

export interface SeriesPatch {
  file: string;
  package: string;
  concern: string;
}

/** The patches in the order they stack (patches/series.json). */
export function readSeries(repoRoot: string): SeriesPatch[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'patches', 'series.json'), 'utf8')) as {
    series: SeriesPatch[];
  };
  return manifest.series;
}

/** Builds the SDK with the first `step` patches in `dir`; returns its node_modules folder. */
export function buildSdk(repoRoot: string, step: number, dir: string): string {
  const built = spawnSync(
    process.execPath,
    [join(repoRoot, 'scripts', 'patch-series.mjs'), 'variant', dir, String(step)],
    { encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`building the SDK with ${step} patches failed: ${built.stderr}`);
  return built.stdout.trim();
}

/** Builds the SDK with the first `step` patches in `dir` and puts the floor's script beside it. */
export function buildFloor(repoRoot: string, step: number, dir: string): string {
  buildSdk(repoRoot, step, dir);
  const script = join(dir, 'floor.mjs');
  copyFileSync(join(HERE, 'targets', 'sdk-v2-floor.js'), script);
  return script;
}

let wholeSeries: string | undefined;

/** The floor's script on the SDK with every patch of the series: built once per process, removed at its exit. */
export function floorWithWholeSeries(repoRoot: string = REPO_ROOT): string {
  if (wholeSeries === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-sdk-floor-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    wholeSeries = buildFloor(repoRoot, readSeries(repoRoot).length, dir);
  }
  return wholeSeries;
}
