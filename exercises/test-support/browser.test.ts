/**
 * browser.ts: where a missing Chromium skips exercise 07's drawing checks (only `pnpm test` outside
 * CI) and where it fails them with the install command (CI, `pnpm exercise`, `pnpm exercises:verify`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { missingBrowser, skipsWithoutBrowser } from './browser.js';

describe('missingBrowser', () => {
  it('says where it looked and what to install when there is no browser there', () => {
    expect(missingBrowser('/no/such/dir/chromium')).toBe(
      'No browser at /no/such/dir/chromium: install it with: sudo apt-get install -y chromium',
    );
  });

  it('says nothing when the file is there', () => {
    expect(missingBrowser(process.execPath)).toBeUndefined();
  });
});

describe('skipsWithoutBrowser', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('skips in pnpm test (vitest --mode solution) on a laptop', () => {
    vi.stubEnv('CI', '');
    vi.stubEnv('MODE', 'solution');
    expect(skipsWithoutBrowser()).toBe(true);
  });

  it('never skips in CI', () => {
    vi.stubEnv('CI', 'true');
    vi.stubEnv('MODE', 'solution');
    expect(skipsWithoutBrowser()).toBe(false);
  });

  it('never skips for pnpm exercise and pnpm exercises:verify, which run vitest without a mode', () => {
    vi.stubEnv('CI', '');
    vi.stubEnv('MODE', 'test');
    expect(skipsWithoutBrowser()).toBe(false);
  });
});
