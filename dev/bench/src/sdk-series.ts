/**
 * @module sdk-series
 * The bare SDK v2 floor (targets/sdk-v2-floor.ts) on builds of the SDK with the first N patches of
 * patches/series.json, N = 0 (as published) to all of them, measured like the throughput section.
 * Step N against step N−1 is what patch N buys. The builds come from `scripts/patch-series.mjs
 * variant`, which copies the installed SDK packages, takes pnpm's patch off and stacks the series
 * again, so no network and no second install are needed.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modernToolCall, type Target } from './targets.js';
import { measureTarget, type ThroughputOptions, type ThroughputRow } from './throughput.js';

const HERE = dirname(fileURLToPath(import.meta.url));

export interface SeriesPatch {
  file: string;
  package: string;
  concern: string;
}

export interface SeriesRow extends ThroughputRow {
  /** How many patches of the series this build has (0: as published). */
  step: number;
  /** The patch this step adds; none for step 0. */
  patch?: SeriesPatch;
}

/** The patches in the order they stack (patches/series.json). */
export function readSeries(repoRoot: string): SeriesPatch[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'patches', 'series.json'), 'utf8')) as {
    series: SeriesPatch[];
  };
  return manifest.series;
}

/** Builds the SDK with the first `step` patches in `dir` and puts the floor's script beside it. */
function buildStep(repoRoot: string, step: number, dir: string): string {
  const built = spawnSync(
    process.execPath,
    [join(repoRoot, 'scripts', 'patch-series.mjs'), 'variant', dir, String(step)],
    { encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`building the SDK with ${step} patches failed: ${built.stderr}`);
  // Beside its node_modules, the script imports this build, not the installed SDK.
  const script = join(dir, 'floor.mjs');
  copyFileSync(join(HERE, 'targets', 'sdk-v2-floor.js'), script);
  return script;
}

export function stepLabel(patch: SeriesPatch | undefined): string {
  if (!patch) return 'SDK v2 as published';
  return `+ ${patch.file.replace(/^series\//, '').replace(/\.patch$/, '')}`;
}

export async function measureSdkSeries(repoRoot: string, options: ThroughputOptions): Promise<SeriesRow[]> {
  const series = readSeries(repoRoot);
  const work = mkdtempSync(join(tmpdir(), 'mcp-bench-sdk-'));
  const rows: SeriesRow[] = [];
  try {
    for (let step = 0; step <= series.length; step++) {
      const patch = step === 0 ? undefined : series[step - 1];
      const target: Target = {
        id: `sdk-v2-step-${step}`,
        label: stepLabel(patch),
        server: 'sdk-v2',
        script: buildStep(repoRoot, step, join(work, `step-${step}`)),
        prepare: async (url) => modernToolCall(url, 'add', { a: 2, b: 3 }),
      };
      rows.push({ ...(await measureTarget(target, options)), step, ...(patch ? { patch } : {}) });
      process.stderr.write(`  sdk series: step ${step} of ${series.length} done\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}
