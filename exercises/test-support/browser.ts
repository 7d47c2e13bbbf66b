/**
 * @module test-support/browser
 * The system Chromium (Debian's `chromium`), headless, for the checks that draw a view. Nothing is
 * downloaded. The only place the exercises read `CI` and vitest's `MODE`: where a missing browser
 * skips and where it fails.
 */
import { existsSync } from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_INSTALL_HINT, CHROMIUM_PATH } from '@mcp-workshop/test-infra';
import { type Browser, chromium } from 'playwright-core';

/** A cold Chromium on a loaded two-core CI machine starts in seconds; a hang must still fail. */
const LAUNCH_TIMEOUT_MS = 20_000;

/** Why the browser checks cannot run here, or undefined when Chromium is installed. */
export function missingBrowser(path = CHROMIUM_PATH): string | undefined {
  return existsSync(path) ? undefined : `No browser at ${path}: ${CHROMIUM_INSTALL_HINT}`;
}

/**
 * Whether a missing browser skips rather than fails: only in `pnpm test` (vitest's `--mode
 * solution`) outside CI, so a laptop without Chromium passes the repository's tests. CI installs
 * it, and `pnpm exercise NN` and `pnpm exercises:verify` must say what to install, not pass quietly.
 */
export function skipsWithoutBrowser(): boolean {
  return process.env.CI !== 'true' && process.env.MODE === 'solution';
}

/** The system Chromium, headless, with the flags every browser test here uses (dev/test-infra). */
export function launchChromium(): Promise<Browser> {
  const missing = missingBrowser();
  if (missing) return Promise.reject(new Error(missing));
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    timeout: LAUNCH_TIMEOUT_MS,
    args: [...CHROMIUM_ARGS],
  });
}
