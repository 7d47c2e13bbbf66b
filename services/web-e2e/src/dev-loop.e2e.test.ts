/**
 * `pnpm dev` as a participant runs it, as a process, with its ports moved by env and its catalogue
 * a scratch copy (CATALOGUE_DEV_ROOT), so no file of the participant's is touched. A tool saved
 * into it answers `pnpm ask` without a build; the chat page (the system Chromium) shows a tool
 * saved while it is open, pushed by the agent (the page has no poll), and a save that fails shows
 * as a banner with its file:line, which `pnpm ask` also warns of, until the next good save. Every
 * wait is for an event (a health answer, a process's exit, an element); the timeouts are safety nets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePorts } from '@mcp-workshop/test-infra';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './stack.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CATALOGUE = path.join(ROOT, 'services/mcp-server');
/** `pnpm dev` builds what it runs first; on a busy 2-core machine that alone can take minutes. */
const STARTS_WITHIN_MS = 600_000;
/** Safety net for one `pnpm ask`, one reload, one element. */
const STEP_MS = 120_000;

/** The catalogue's dev server package, as the catalogue itself resolves it. */
interface ScratchCatalogue {
  root: string;
  addTool(file: string, exportName: string, source: string): void;
  remove(): void;
}
const catalogueDev = (await import(
  pathToFileURL(createRequire(path.join(CATALOGUE, 'package.json')).resolve('@mcp-workshop/catalogue-dev'))
    .href
)) as { makeScratchCatalogue(catalogue: string): ScratchCatalogue };

/** A tool of this test's own: `name` counts what `what` says, in a text. */
function countingTool(name: string, exportName: string, what: string, pattern: string): string {
  return `import { ok } from '@mcp-workshop/shared';
import { z } from 'zod';
import { defineTool } from '../deps.js';

export const ${exportName} = defineTool({
  name: '${name}',
  title: 'Count the ${what}',
  description: 'Count the ${what} of a text. Returns { text, count }.',
  input: z.object({ text: z.string().max(200).describe('The text whose ${what} to count.') }),
  output: z.object({ text: z.string().describe('The text as given.'), count: z.number().int().describe('How many ${what}.') }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ text }) {
    return ok({ text, count: (text.match(/${pattern}/gu) ?? []).length });
  },
});
`;
}
const LETTERS = countingTool('letter_count', 'letterCount', 'letters', '\\p{L}');
const WORDS = countingTool('word_count', 'wordCount', 'words', '\\S+');
const WORDS_FILE = 'src/tools/word-count.ts';
const BROKEN_LINE = WORDS.split('\n').findIndex((line) => line.includes('return ok(')) + 1;

let scratch: ScratchCatalogue;
let dataDir = '';
let dev: ChildProcess | undefined;
let devLog = '';
let ports: { mcp: number; agent: number; model: number; sandbox: number };
let browser: Browser | undefined;

/** The environment a participant's shell would have, without anything that sends the agent elsewhere. */
function shellEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'MCP_SERVER_URL',
    'MCP_SERVERS_CONFIG',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'DEMO_MODEL_URL',
    'HOST',
    'PORT',
  ]) {
    delete env[name];
  }
  return env;
}

async function until<T>(
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  what: string,
  ms = STEP_MS,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (value !== undefined && holds(value)) return value;
    if (Date.now() > deadline || dev?.exitCode != null) {
      throw new Error(
        `gave up waiting for ${what}: ${JSON.stringify(value)}\npnpm dev said:\n${devLog.slice(-4000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface DevBlock {
  reloading: boolean;
  lastReload: { outcome: string; files: string[] } | null;
}
const devBlock = async (): Promise<DevBlock> =>
  ((await (await fetch(`http://127.0.0.1:${ports.mcp}/health`)).json()) as { dev: DevBlock }).dev;

/** `pnpm ask question` as typed in the repository, with PORT and DEMO_MODEL_PORT pointing at the stack. */
function pnpmAsk(
  question: string,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn('pnpm', ['ask', question], {
    cwd: ROOT,
    env: { ...shellEnv(), PORT: String(ports.mcp), DEMO_MODEL_PORT: String(ports.model) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started })),
  );
}

beforeAll(async () => {
  scratch = catalogueDev.makeScratchCatalogue(CATALOGUE);
  dataDir = mkdtempSync(path.join(tmpdir(), 'dev-loop-data-'));
  const [mcp = 0, agent = 0, model = 0, sandbox = 0] = await freePorts(4);
  ports = { mcp, agent, model, sandbox };
  dev = spawn('pnpm', ['dev'], {
    cwd: ROOT,
    // Its own process group, so the stop below reaches every service, as Ctrl-C in a terminal does.
    detached: true,
    env: {
      ...shellEnv(),
      PORT: String(mcp),
      AGENT_PORT: String(agent),
      AGENT_VIEW_SANDBOX_PORT: String(sandbox),
      DEMO_MODEL_PORT: String(model),
      MCP_SERVER_URL: `http://127.0.0.1:${mcp}/mcp`,
      DEMO_MODEL_URL: `http://127.0.0.1:${model}/v1`,
      CATALOGUE_DEV_ROOT: scratch.root,
      // The agent starts beside the server and gives up after about 16 s by default; on a busy
      // machine the catalogue's first import alone can take longer.
      MCP_CONNECT_ATTEMPTS: '30',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [dev.stdout, dev.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      devLog += chunk.toString();
    });
  }
  await until(devBlock, (block) => block.reloading === true, "pnpm dev's MCP server", STARTS_WITHIN_MS);
  await until(
    async () => (await fetch(`http://127.0.0.1:${agent}/health`)).json() as Promise<{ ready?: boolean }>,
    (health) => health.ready === true,
    "pnpm dev's agent",
    STARTS_WITHIN_MS,
  );
}, STARTS_WITHIN_MS + 60_000);

afterAll(async () => {
  await browser?.close();
  if (dev?.pid !== undefined && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev?.once('exit', resolve));
    process.kill(-dev.pid, 'SIGINT');
    const forced = setTimeout(() => dev?.pid !== undefined && process.kill(-dev.pid, 'SIGKILL'), 60_000);
    await exited;
    clearTimeout(forced);
  }
  scratch?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe('pnpm dev, a save, pnpm ask and the page', { timeout: 3 * STEP_MS }, () => {
  it('answers pnpm ask with a tool saved under pnpm dev, without building', async () => {
    const savedAt = performance.now();
    scratch.addTool('letter-count', 'letterCount', LETTERS);
    await until(
      devBlock,
      (block) => block.lastReload?.files.includes('src/tools/letter-count.ts') === true,
      'the reload',
    );
    const reloadedMs = performance.now() - savedAt;
    const asked = await pnpmAsk('Count the letters of the text "hello world"');
    // Measured, not asserted: save → answer is the workshop's figure (README), not this test's bound.
    console.info(`save → reloaded ${Math.round(reloadedMs)} ms; pnpm ask ${Math.round(asked.ms)} ms`);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('letter_count');
    expect(asked.stdout).toContain('"count":10');
    expect(`${asked.stdout}${asked.stderr}`).toContain("using pnpm dev's MCP server");
    // build-progress.mjs says `build:` before any build; there is none.
    expect(`${asked.stdout}${asked.stderr}`).not.toMatch(/^build: /m);
  });

  it('shows a tool saved while the page is open, pushed, and a failed save as a banner until the next good one', async () => {
    browser = await launchChromium();
    const page: Page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    await page.goto(`http://127.0.0.1:${ports.agent}/`);
    const panel = page.locator('[data-testid=tool-item]');
    await panel.filter({ hasText: 'letter_count' }).waitFor();
    expect(await panel.filter({ hasText: 'word_count' }).count()).toBe(0);

    // Nothing on the page asks again: the agent pushes the new list when the server announces it.
    const savedAt = performance.now();
    scratch.addTool('word-count', 'wordCount', WORDS);
    await panel.filter({ hasText: 'word_count' }).waitFor();
    const shownMs = performance.now() - savedAt;

    const brokenAt = performance.now();
    writeFileSync(path.join(scratch.root, WORDS_FILE), WORDS.replace('return ok({', 'return ok({{'));
    const failedSave = page.locator('[data-testid=dev-failed-save]');
    await failedSave.waitFor();
    // Measured, not asserted, as above.
    console.info(
      `save → in the panel ${Math.round(shownMs)} ms; failed save → banner ${Math.round(performance.now() - brokenAt)} ms`,
    );
    expect(await failedSave.textContent()).toContain(`${WORDS_FILE}:${BROKEN_LINE}`);

    const asked = await pnpmAsk('Count the words of the text "a failed save"');
    expect(asked.stderr).toMatch(
      new RegExp(
        `^WARNING: catalogue-dev: the catalogue's last save failed at ${WORDS_FILE}:${BROKEN_LINE}\\b`,
        'm',
      ),
    );
    // The last good catalogue still answers.
    expect(asked.stdout).toContain('"count":3');

    writeFileSync(path.join(scratch.root, WORDS_FILE), WORDS);
    await failedSave.waitFor({ state: 'detached' });
    // The banner may stay for the type check's findings in the catalogue itself, never for the save.
    expect(await page.locator('[data-testid=dev-banner]').textContent()).not.toContain('last save failed');
  });
});
