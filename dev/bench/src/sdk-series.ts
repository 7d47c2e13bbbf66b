/**
 * @module sdk-series
 * The bare SDK v2 floor (targets/sdk-v2-floor.ts) on builds of the SDK with the first N patches of
 * patches/series.json, N = 0 (as published) to all of them, measured like the throughput section.
 * Step N against step N−1 is what patch N buys. The builds come from sdk-builds.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFloor, readSeries, type SeriesPatch } from './sdk-builds.js';
import { modernToolCall, type Target } from './targets.js';
import { measureTarget, type ThroughputOptions, type ThroughputRow } from './throughput.js';

export { readSeries, type SeriesPatch };

export interface SeriesRow extends ThroughputRow {
  /** How many patches of the series this build has (0: as published). */
  step: number;
  /** The patch this step adds; none for step 0. */
  patch?: SeriesPatch;
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
        script: buildFloor(repoRoot, step, join(work, `step-${step}`)),
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
