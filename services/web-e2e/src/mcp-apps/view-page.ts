/**
 * @module mcp-apps/view-page
 * What every MCP Apps browser test does with the test host page: open it for one tool call, wait
 * until the view has its result, reach into the view (proxy frame, then view frame), and save a
 * screenshot under the OS temp dir (never in the repository).
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { WAIT } from '../page-actions.js';

/** Where the screenshots go; printed by each test that saves one. */
export const SCREENSHOT_DIR = join(tmpdir(), 'mcp-workshop-web-e2e', 'mcp-apps');

export interface ViewPage {
  context: BrowserContext;
  page: Page;
  /** The view's own document: the frame inside the sandbox proxy's frame. */
  view: FrameLocator;
}

/** Opens `url` and resolves once the host says "rendered"; fails with the host's status otherwise. */
export async function openView(browser: Browser, url: string): Promise<ViewPage> {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  context.setDefaultTimeout(WAIT.timeout);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url, { waitUntil: 'load', ...WAIT });
  const status = page.locator('#status');
  const settled = await status
    .filter({ hasText: /^(rendered|error.*)$/ })
    .waitFor(WAIT)
    .then(
      () => true,
      () => false,
    );
  const text = await status.textContent();
  if (!settled || text !== 'rendered') {
    await context.close();
    throw new Error(`the host page did not render the view: ${text}; console errors: ${errors.join(' | ')}`);
  }
  return { context, page, view: page.frameLocator('#view').frameLocator('iframe') };
}

/** The workshop's images: module 14 shows these, made from the real chat page. */
const DOC_IMAGES = fileURLToPath(new URL('../../../../doc/images/', import.meta.url));

/**
 * Saves `target` (one trace entry with its view) as doc/images/<file>. Tests call it only with
 * UPDATE_SCREENSHOTS=1, so a plain test run never changes the repository.
 */
export async function curate(target: Locator, file: string): Promise<void> {
  mkdirSync(DOC_IMAGES, { recursive: true });
  await target.screenshot({ path: join(DOC_IMAGES, file) });
}

/** Saves a full-page PNG of `page` as `<name>.png` under SCREENSHOT_DIR and returns its path (tests print it). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
