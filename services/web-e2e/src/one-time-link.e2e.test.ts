/**
 * The agent as `pnpm start` runs it (its built `dist/index.js`, a process of its own) with
 * AGENT_API_TOKEN set: the one-time link it prints opens the chat in Chromium, leaves the address
 * bar clean with an HttpOnly session cookie, and works once; the page without it says where to get
 * one. (Off loopback without a token the agent makes its own secret and prints the link: that start,
 * as its container does it, is `services/agent/src/container-start.test.ts`.) The workshop MCP server and the demo model run in-process, as in `stack.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startDemoModel } from '@mcp-workshop/demo-model';
import { type LocalCatalogue, startCatalogue } from '@mcp-workshop/mcp-host/run';
import workshop from '@mcp-workshop/mcp-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, WAIT } from './page-actions.js';
import { assertChromium, launchChromium } from './stack.js';

const AGENT_ENTRY = join(
  dirname(createRequire(import.meta.url).resolve('@mcp-workshop/agent/package.json')),
  'dist/index.js',
);
const TOKEN = '5e0f2b9c8a7d6e1f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d';
/** How long the agent may take to connect and print its link. */
const START_TIMEOUT_MS = 10_000;

/** The agent process, its log so far, and a way to wait for a line. */
function startAgent(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [AGENT_ENTRY], {
    env: { PATH: process.env.PATH ?? '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves with the first match of `pattern` in the log after `from` characters. */
  const waitFor = async (pattern: RegExp, from = 0): Promise<RegExpExecArray> => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const found = pattern.exec(log.slice(from));
      if (found) return found;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${pattern} in the agent's log:\n${log}`);
  };
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { waitFor, stop, exited, log: () => log };
}

describe('the one-time link in Chromium', () => {
  let dataDir: string;
  let server: LocalCatalogue;
  let demoModel: Awaited<ReturnType<typeof startDemoModel>>;
  let agent: ReturnType<typeof startAgent>;
  let browser: Browser;
  let link: URL;

  beforeAll(async () => {
    assertChromium();
    dataDir = await mkdtemp(join(tmpdir(), 'web-e2e-link-'));
    server = await startCatalogue(workshop, { env: { DATA_DIR: dataDir } });
    demoModel = await startDemoModel();
    agent = startAgent({
      AGENT_HOST: '127.0.0.1',
      AGENT_PORT: '0',
      AGENT_API_TOKEN: TOKEN,
      MCP_SERVER_URL: server.mcpUrl,
      DEMO_MODEL_URL: demoModel.url,
      MCP_CONNECT_ATTEMPTS: '1',
    });
    const printed = await agent.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)"/);
    link = new URL(printed[1] ?? '');
    await agent.waitFor(/"msg":"agent listening"/);
    browser = await launchChromium();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.stop();
    await demoModel?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the page without the link, but no tools and a pointer to the link', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link.origin, { waitUntil: 'load', ...WAIT });
    await expect(page.getByTestId('locked').textContent(WAIT)).resolves.toMatch(/one-time link/);
    await expect(page.locator('#send').isDisabled()).resolves.toBe(true);
    await expect(page.locator('#tools-list li').count()).resolves.toBe(0);
    await context.close();
  });

  it('opens the chat from the printed link, once, with a clean URL and an HttpOnly cookie', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link.href, { waitUntil: 'load', ...WAIT });
    expect(page.url()).toBe(`${link.origin}/`);
    const cookies = await context.cookies(link.origin);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await expect(page.evaluate(() => document.cookie)).resolves.toBe('');
    await page.locator('#model-badge').filter({ hasNotText: 'loading' }).waitFor(WAIT);
    const turn = await ask(page, "What's the weather in Oslo?");
    await expect(turn.locator('[data-testid=answer]').textContent()).resolves.toContain('Oslo');

    // The same link in another browser: refused, and the page there stays locked.
    const other = await browser.newContext();
    const second = await other.newPage();
    const response = await second.goto(link.href, { waitUntil: 'load', ...WAIT });
    expect(response?.status()).toBe(401);
    await expect(other.cookies(link.origin)).resolves.toEqual([]);
    // The agent printed the next link for whoever runs it, and that one works.
    const next = await agent.waitFor(
      /"url":"(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)"/,
      agent.log().indexOf(link.href) + link.href.length,
    );
    expect(next[1]).not.toBe(link.href);
    await second.goto(next[1] ?? '', { waitUntil: 'load', ...WAIT });
    await second.locator('#model-badge').filter({ hasNotText: 'loading' }).waitFor(WAIT);
    await context.close();
    await other.close();
  });
});
