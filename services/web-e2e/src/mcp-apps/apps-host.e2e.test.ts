/**
 * The test host page (AppBridge + PostMessageTransport, the view behind a sandbox proxy on a
 * second origin) in the system Chromium, against a fixture MCP server and a fixture view written
 * on the plain ext-apps `App` class: nothing of the workshop's own, so a pass proves the host.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenLoopback } from '../loopback.js';
import { WAIT } from '../page-actions.js';
import { launchChromium } from '../stack.js';
import { buildPages } from './build-pages.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';
import { type AppsHost, startAppsHost } from './host-server.js';
import { openView, screenshot, type ViewPage } from './view-page.js';

let buildDir: string;
let fixture: FixtureServer;
let host: AppsHost;
let browser: Browser;
let opened: ViewPage | undefined;

/** Serves, on its own port, a page that frames `proxyUrl` and sends it a view once it loads. */
async function startHostilePage(proxyUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const html = `<!doctype html><body><script>
    window.received = [];
    addEventListener('message', (event) => window.received.push(event.data));
    const frame = document.createElement('iframe');
    frame.onload = () => {
      frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready',
        params: { html: '<script>parent.parent.postMessage("view ran", "*")<' + '/script>' } }, '*');
      window.frameLoaded = true;
    };
    frame.src = ${JSON.stringify(proxyUrl)};
    document.body.append(frame);
  </script></body>`;
  const page = await listenLoopback((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(html),
  );
  return { url: `${page.origin}/`, close: page.close };
}

async function showWord(word: string): Promise<ViewPage> {
  opened = await openView(browser, host.pageUrl('fixture_show', { word }));
  return opened;
}

/** Asks the view to call `tool` through the host, and returns what the view then shows. */
async function callFromView({ view }: ViewPage, tool: string, expected: RegExp): Promise<string> {
  await view.locator('#tool-name').fill(tool);
  await view.locator('#call').click();
  const answer = view.locator('#call-result').filter({ hasText: expected });
  await answer.waitFor(WAIT);
  return (await answer.textContent()) ?? '';
}

describe('MCP Apps test host with a fixture view', () => {
  beforeAll(async () => {
    buildDir = await mkdtemp(join(tmpdir(), 'web-e2e-apps-'));
    const pages = await buildPages(buildDir);
    fixture = await startFixtureServer(pages.fixtureViewHtml);
    host = await startAppsHost({ hostHtml: pages.hostHtml, mcpUrl: fixture.mcpUrl });
    browser = await launchChromium();
  });
  afterEach(async () => {
    await opened?.context.close();
    opened = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await fixture?.close();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  it('renders the real tool result and input inside the view', async () => {
    const { page, view } = await showWord('lantern');
    const token = fixture.calls.showTokens.at(-1);
    expect(token).toMatch(/^[0-9a-f]{12}$/);
    // The token is made up by this tools/call on the server: only the real result carries it.
    await view
      .locator('#result')
      .filter({ hasText: `result: Fixture result for lantern: token ${token}` })
      .waitFor(WAIT);
    await view.locator('#input').filter({ hasText: 'input: {"word":"lantern"}' }).waitFor(WAIT);
    console.log(`screenshot: ${await screenshot(page, 'fixture-view')}`);
  });

  it('runs the view with an opaque origin, inside a proxy on a second origin', async () => {
    const { page, view } = await showWord('origin');
    const proxySrc = await page.locator('#view').getAttribute('src');
    expect(new URL(proxySrc ?? '').origin).toBe(host.sandboxOrigin);
    expect(host.sandboxOrigin).not.toBe(host.hostOrigin);
    const inner = page.frameLocator('#view').locator('iframe');
    await expect(inner.getAttribute('sandbox')).resolves.toBe('allow-scripts');
    await view.locator('#origin').filter({ hasText: 'origin: null' }).waitFor(WAIT);
  });

  it('keeps the sandbox proxy from being framed by another origin', async () => {
    // The proxy as the real host page loads it: only that page's origin may frame it.
    const proxyUrl = `${host.sandboxOrigin}/sandbox.html?${new URLSearchParams({ host: host.hostOrigin })}`;
    // A hostile page on a third loopback origin: it frames the proxy and tries to run a view in it.
    const hostile = await startHostilePage(proxyUrl);
    const context = await browser.newContext();
    context.setDefaultTimeout(WAIT.timeout);
    try {
      const page = await context.newPage();
      await page.goto(hostile.url, { waitUntil: 'load', ...WAIT });
      await page.waitForFunction(
        () => (window as unknown as { frameLoaded?: boolean }).frameLoaded === true,
        undefined,
        WAIT,
      );
      // frame-ancestors turns the proxy into Chromium's error page: the proxy's script never runs there.
      expect(page.frames().map((frame) => frame.url())).not.toContain(proxyUrl);
      await expect(
        page.evaluate(() => (window as unknown as { received: unknown[] }).received),
      ).resolves.toEqual([]);
    } finally {
      await context.close();
      await hostile.close();
    }
  });

  it("forwards the view's call of an app-visible tool to the server and shows its answer", async () => {
    const opened = await showWord('echo');
    const before = fixture.calls.echo;
    const text = await callFromView(opened, 'fixture_echo', /^called:/);
    expect(fixture.calls.echo).toBe(before + 1);
    expect(text).toBe(`called: echo #${before + 1}: ping`);
  });

  it('refuses a model-only tool to the view, and the server never runs it', async () => {
    const opened = await showWord('secret');
    const text = await callFromView(opened, 'fixture_secret', /^refused:/);
    expect(text).toContain('Tool "fixture_secret" is not available to views');
    await opened.page.locator('#refused li', { hasText: 'fixture_secret' }).waitFor(WAIT);
    expect(fixture.calls.secret).toBe(0);
  });

  it('refuses a tool the server does not have', async () => {
    const opened = await showWord('unknown');
    const text = await callFromView(opened, 'no_such_tool', /^refused:/);
    expect(text).toContain('Tool "no_such_tool" is not available to views');
  });

  it('resizes the frame when the view reports a new size', async () => {
    const { page, view } = await showWord('grow');
    const frame = page.locator('#view');
    const heightBefore = (await frame.boundingBox())?.height ?? 0;
    expect(heightBefore).toBeLessThan(900);
    await view.locator('#grow').click();
    // The view's auto-resize reports its new height; only the host can make its frame follow.
    await page.waitForFunction(
      () => (document.querySelector('#view')?.getBoundingClientRect().height ?? 0) > 900,
      undefined,
      WAIT,
    );
  });

  it('caps the frame when the view asks for an absurd height', async () => {
    const { page, view } = await showWord('huge');
    await view.locator('#huge').click();
    await page.waitForFunction(
      () => (document.querySelector('#view')?.getBoundingClientRect().height ?? 0) >= 2_000,
      undefined,
      WAIT,
    );
    const height = (await page.locator('#view').boundingBox())?.height ?? 0;
    // 2,000 px of content box plus the 1 px border on each side.
    expect(height).toBeLessThanOrEqual(2_002);
  });

  it('tears the view down before removing it', async () => {
    const { page } = await showWord('teardown');
    await page.locator('#remove').click();
    await page
      .locator('#status')
      .filter({ hasText: /^removed$/ })
      .waitFor(WAIT);
    // The view logs from its onteardown handler: it got ui/resource-teardown before it went.
    await page.locator('#log li', { hasText: 'fixture view: teardown received' }).waitFor(WAIT);
    await expect(page.locator('#view').count()).resolves.toBe(0);
  });
});
