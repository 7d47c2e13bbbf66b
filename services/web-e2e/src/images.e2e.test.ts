/**
 * Images a tool returns are shown in the chat page's tool trace: the workshop server with the
 * conformance fixtures (`test_image_content` returns a 1x1 PNG), the offline demo model and the
 * system Chromium. The screenshot goes to artifacts/08-image.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { conformanceCatalogue } from '@mcp-workshop/conformance-server';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './stack.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** Every wait is bounded, and shorter than vitest's test timeout so the locator's own error shows. */
const WAIT = { timeout: 10_000 };

let stack: Stack;
let context: BrowserContext;
let page: Page;

describe('tool images in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startStack({ catalogue: conformanceCatalogue });
    context = await stack.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(WAIT.timeout);
    page = await context.newPage();
    await page.goto(`${stack.origin}/`, { waitUntil: 'load', ...WAIT });
    await page.locator('#model-badge').filter({ hasNotText: 'loading' }).waitFor(WAIT);
  });
  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  it('shows the PNG returned by test_image_content inside its tool entry', async () => {
    await page.fill('#message', 'Run the test image content tool');
    await page.press('#message', 'Enter');
    // The conformance fixtures make this server's list long enough that the agent may first call
    // search_tools (doc/agent.md); the entry under test is the image tool's, wherever it comes.
    const entry = page
      .locator('[data-testid=turn]')
      .last()
      .locator('[data-testid=tool-entry][data-tool$="test_image_content"]');
    await entry.first().waitFor(WAIT);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-state=running]').length === 0,
      undefined,
      WAIT,
    );
    await expect(entry.first().getAttribute('data-tool')).resolves.toMatch(/test_image_content$/);
    await expect(entry.first().getAttribute('data-state')).resolves.toBe('ok');

    const img = entry.first().locator('img[data-testid=tool-image]');
    await img.waitFor(WAIT);
    await expect(img.count()).resolves.toBe(1);
    await expect(img.getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/);
    await expect(img.getAttribute('alt')).resolves.toMatch(
      /^Image returned by .*test_image_content \(image\/png\)$/,
    );
    // Decoded, not a broken image: the browser knows its real size.
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle(), WAIT);
    const size = await img.evaluate((el: HTMLImageElement) => ({
      width: el.naturalWidth,
      height: el.naturalHeight,
    }));
    expect(size).toEqual({ width: 1, height: 1 });
    await expect(entry.first().locator('figcaption').textContent()).resolves.toContain('image/png');

    await page.screenshot({ path: `${ARTIFACTS}08-image.png`, fullPage: true });
  });
});
