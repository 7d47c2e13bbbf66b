#!/usr/bin/env node
// @ts-check
/**
 * The SDK patch series (patches/series.json; how it works: scripts/lib/patch-series.mjs).
 *
 *   node scripts/patch-series.mjs check              the composed files match the series (exit 1 if not)
 *   node scripts/patch-series.mjs write              rewrites the composed files; then run pnpm install
 *   node scripts/patch-series.mjs published DIR KEY  the package KEY (name@version) as published, in DIR
 *   node scripts/patch-series.mjs variant DIR N      the series packages with the first N patches, in DIR/node_modules
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildVariant,
  compose,
  composedPatchPath,
  publishedCopy,
  readSeries,
  staleComposed,
} from './lib/patch-series.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);

function run() {
  switch (command) {
    case 'check': {
      const stale = staleComposed(root);
      for (const line of stale)
        console.error(`patch series: ${line}; run node scripts/patch-series.mjs write`);
      if (stale.length === 0)
        console.log(`patch series: ${readSeries(root).length} patches, composed files match`);
      return stale.length === 0 ? 0 : 1;
    }
    case 'write': {
      for (const [key, text] of compose(root)) {
        const file = composedPatchPath(root, key);
        writeFileSync(file, text);
        console.log(`wrote ${path.relative(root, file)}`);
      }
      console.log('now run pnpm install, so pnpm applies them and the lockfile records their hashes');
      return 0;
    }
    case 'published': {
      const [dir, key] = args;
      if (!dir || !key) break;
      publishedCopy(root, key, path.resolve(dir));
      return 0;
    }
    case 'variant': {
      const [dir, upto] = args;
      if (!dir || upto === undefined || !/^\d+$/.test(upto)) break;
      console.log(buildVariant(root, Number(upto), path.resolve(dir)));
      return 0;
    }
  }
  console.error('usage: patch-series.mjs check | write | published DIR name@version | variant DIR N');
  return 2;
}

try {
  process.exitCode = run();
} catch (error) {
  console.error(`patch series: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
