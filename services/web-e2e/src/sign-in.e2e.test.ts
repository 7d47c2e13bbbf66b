/**
 * A person signs in from the chat page: the workshop MCP server with sign-in on, the development
 * authorization server, and the agent as it runs in production (`dist/index.js`, a process of its
 * own), which listens first and connects after. The page shows the sign-in link; the test plays the
 * person at the authorization server with `signInAsDemoUser`, the browser comes back to the agent's
 * loopback callback, and the page then says who is signed in. Screenshot: artifacts/10-sign-in.png.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signInAsDemoUser, startAuthServerProcess } from '@mcp-workshop/auth-server/process';
import { startDemoModel } from '@mcp-workshop/demo-model';
import { freePort } from '@mcp-workshop/test-infra';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertChromium, launchChromium } from './stack.js';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AGENT_ENTRY = join(require.resolve('@mcp-workshop/agent/package.json'), '../dist/index.js');
const SERVER_ENTRY = join(require.resolve('@mcp-workshop/mcp-server/package.json'), '../dist/index.js');
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** Every wait is bounded, and shorter than vitest's 20 s test timeout so the locator's own error shows. */
const WAIT = { timeout: 10_000 };
/** A cold start of a server process (SQLite WebAssembly, mathjs) on a loaded CI machine. */
const READY_TIMEOUT_MS = 15_000;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let origin: string;
const closers: Array<() => Promise<unknown>> = [];

/** Runs a built entry file; resolves once `healthUrl` answers at all (the agent says 503 until signed in). */
async function startProcess(entry: string, env: Record<string, string>, healthUrl: string): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  closers.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${entry} exited early: ${stderr}`);
    if (
      await fetch(healthUrl).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${healthUrl} did not answer within ${READY_TIMEOUT_MS / 1000} s: ${stderr}`);
}

async function startSignInStack(): Promise<void> {
  assertChromium();
  const serverPort = await freePort();
  const mcpUrl = `http://127.0.0.1:${serverPort}/mcp`;
  const authServer = await startAuthServerProcess({ resources: [mcpUrl] });
  closers.push(() => authServer.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'web-e2e-sign-in-'));
  closers.push(() => rm(dataDir, { recursive: true, force: true }));
  await startProcess(
    SERVER_ENTRY,
    {
      HOST: '127.0.0.1',
      PORT: String(serverPort),
      DATA_DIR: dataDir,
      MCP_AUTH_ISSUER: authServer.issuer,
      MCP_RESOURCE_URL: mcpUrl,
    },
    `http://127.0.0.1:${serverPort}/health`,
  );
  const demoModel = await startDemoModel();
  closers.push(() => demoModel.close());

  const agentPort = await freePort();
  origin = `http://127.0.0.1:${agentPort}`;
  await startProcess(
    AGENT_ENTRY,
    {
      AGENT_HOST: '127.0.0.1',
      AGENT_PORT: String(agentPort),
      MCP_SERVER_URL: mcpUrl,
      MCP_CONNECT_ATTEMPTS: '1',
      // A public client without a secret: a person signs in (authorization code with PKCE).
      MCP_OAUTH_CLIENT_ID: 'workshop-chat',
      MCP_OAUTH_ISSUER: authServer.issuer,
      DEMO_MODEL_URL: demoModel.url,
    },
    `${origin}/api/status`,
  );

  browser = await launchChromium();
  closers.push(() => browser.close());
}

/** axe-core's serious and critical findings, as rule ids with their targets. */
async function seriousAxeViolations(target: Page): Promise<string[]> {
  await target.addScriptTag({ path: AXE_PATH });
  return target.evaluate(async () => {
    type Violation = { id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> };
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe('a person signs in from the chat page', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    try {
      await startSignInStack();
    } catch (error) {
      for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
      throw error;
    }
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(WAIT.timeout);
    page = await context.newPage();
    await page.goto(`${origin}/`, { waitUntil: 'load', ...WAIT });
  }, 40_000);
  afterAll(async () => {
    await context?.close();
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  });

  it('shows the sign-in link while the agent waits, then who is signed in', async () => {
    const link = page.getByTestId('sign-in-link');
    await link.waitFor(WAIT);
    await expect(link.textContent()).resolves.toBe('Sign in to workshop');
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    await expect(link.getAttribute('rel')).resolves.toMatch(/noopener/);
    await expect(page.locator('#send').isDisabled()).resolves.toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}10-sign-in.png`, fullPage: true });
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);

    // The person follows the link and signs in; the browser comes back to the agent's callback.
    const href = (await link.getAttribute('href')) ?? '';
    const callback = await signInAsDemoUser(href);
    expect(new URL(callback).hostname).toBe('127.0.0.1');
    expect((await fetch(callback)).status).toBe(200);

    const signedIn = page.getByTestId('signed-in');
    await signedIn.filter({ hasText: 'Signed in to workshop as demo' }).waitFor(WAIT);
    await page.getByTestId('startup-banner').waitFor({ state: 'hidden', ...WAIT });
    await expect(page.locator('#send').isEnabled()).resolves.toBe(true);
    await expect(page.locator('#model-badge').textContent()).resolves.toMatch(/offline demo model/i);
    await expect(page.getByTestId('tool-item').count()).resolves.toBeGreaterThan(0);
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
  });
});
