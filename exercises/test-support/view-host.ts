/**
 * @module test-support/view-host
 * An MCP Apps host for the checks, in the system Chromium: serves the host page (view-host/, built
 * with vite into one file) on 127.0.0.1 under a Content Security Policy that allows inline code
 * and nothing from any other origin, which the view's sandboxed frame inherits. `render` loads a
 * view with a real tool result and returns its frame once the view has that result.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { buildView } from './build-view.js';

const HOST_PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'view-host');
/** The view's App connects and gets its result within a second; a slow CI machine gets more. */
export const RENDER_TIMEOUT_MS = 10_000;

/** What the page's own script (view-host/host.ts) offers; typed here, since Node does not see its global. */
type HostWindow = {
  showView(html: string, args: Record<string, unknown>, result: unknown): Promise<void>;
};

/** The host page, and the frame inside it that holds the view. */
export interface RenderedView {
  page: Page;
  /** The view's own document. */
  view: FrameLocator;
}

export interface ViewHost {
  /**
   * Loads `html` as the view of a call with `args` that answered `result`. Resolves once the view's
   * App has connected and been handed the result; rejects with the host's status otherwise. A view
   * that never connected is not waited for again: drawing the same HTML again rejects at once.
   */
  render(html: string, args: Record<string, unknown>, result: unknown): Promise<RenderedView>;
  close(): Promise<void>;
}

/** The page and every frame in it may run inline code and use data: images; nothing else loads. */
const CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
].join('; ');

async function serve(html: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url !== '/' || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP })
      .end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Builds the host page, serves it and starts Chromium. Always `await close()`. */
export async function startViewHost(): Promise<ViewHost> {
  const { server, origin } = await serve(await buildView(HOST_PAGE_DIR, 'index.html'));
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    server.close();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  /** Why each view that never connected did not: drawing it again fails at once, not after another wait. */
  const neverConnected = new Map<string, string>();
  return {
    async render(html, args, result) {
      const known = neverConnected.get(html);
      if (known) throw new Error(`${known} (found by an earlier check, so not waited for again)`);
      const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
      contexts.push(context);
      context.setDefaultTimeout(RENDER_TIMEOUT_MS);
      // Belt and braces with the CSP: nothing but this host's page leaves the browser.
      await context.route('**/*', (route) =>
        route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort(),
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // A CSP refusal shows up here: "Refused to load the script …".
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(`${origin}/`, { waitUntil: 'load' });
      await page.evaluate(
        ([viewHtml, callArgs, callResult]) =>
          (window as unknown as HostWindow).showView(viewHtml, callArgs, callResult),
        [html, args, result] as const,
      );
      const status = page.locator('#status');
      const rendered = await status
        .filter({ hasText: /^rendered$/ })
        .waitFor({ timeout: RENDER_TIMEOUT_MS })
        .then(
          () => true,
          () => false,
        );
      if (!rendered) {
        const said = (await status.textContent()) ?? '';
        const message = `the view never connected to the host within ${RENDER_TIMEOUT_MS / 1000} s (host status: "${said}"): does it create an App and call app.connect()?${errors.length > 0 ? `; browser errors: ${errors.join(' | ')}` : ''}`;
        if (said === 'loading the view') neverConnected.set(html, message);
        throw new Error(message);
      }
      return { page, view: page.frameLocator('#view') };
    },
    async close() {
      for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
      await browser.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
