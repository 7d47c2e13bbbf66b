/**
 * The chat page in a real browser (the system Chromium), against the real stack: the workshop MCP
 * server, the agent's HTTP app and the offline demo model, all on 127.0.0.1. Screenshots of every
 * step go to artifacts/; with UPDATE_SCREENSHOTS=1 the two curated ones go to doc/images/.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seriousAxeViolations } from './axe.js';
import { ask, WAIT, waitIdle } from './page-actions.js';
import { type Stack, startStack } from './stack.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const DOC_IMAGES = fileURLToPath(new URL('../../../doc/images/', import.meta.url));
/** Every wait is bounded, and shorter than vitest's 20 s test timeout so the locator's own error shows. */
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

let stack: Stack;
let context: BrowserContext;
let page: Page;
const requested: string[] = [];

async function shot(target: Page, name: string, curated?: string): Promise<void> {
  await target.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  if (curated && process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOC_IMAGES, { recursive: true });
    await target.screenshot({ path: `${DOC_IMAGES}${curated}` });
  }
}

async function openPage(viewport: { width: number; height: number }): Promise<[BrowserContext, Page]> {
  const ctx = await stack.browser.newContext({ viewport });
  ctx.setDefaultTimeout(WAIT.timeout);
  const p = await ctx.newPage();
  p.on('request', (request) => requested.push(request.url()));
  await p.goto(`${stack.origin}/`, { waitUntil: 'load', ...WAIT });
  await p.locator('#model-badge').filter({ hasNotText: 'loading' }).waitFor(WAIT);
  return [ctx, p];
}

/** Types the question, presses Enter and waits until the answer is complete and the form is free. */
function lastTurn(target: Page) {
  return target.locator('[data-testid=turn]').last();
}

/** A task's status as the server has it, asked by a client of its own (sign-in is off: one owner). */
async function taskStatus(mcpUrl: string, taskId: string): Promise<string> {
  const client = new Client(
    { name: 'web-e2e', version: '0.0.0' },
    { capabilities: { extensions: { [TASKS_EXTENSION]: {} } }, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const answer = await client.request(
      { method: 'tasks/get', params: { taskId } },
      z.looseObject({ status: z.string() }),
    );
    return answer.status;
  } finally {
    await client.close();
  }
}

async function horizontalOverflow(target: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return target.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
}

describe('chat page in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    stack = await startStack();
    [context, page] = await openPage(LAPTOP);
  });
  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  it('labels the offline demo model, and the MCP server by the name and version it gave', async () => {
    await expect(page.locator('#model-badge').textContent()).resolves.toMatch(/offline demo model/i);
    await expect(page.locator('#protocol-badge').textContent()).resolves.toMatch(
      /workshop → mcp-workshop-server \d+\.\d+\.\d+/,
    );
    await shot(page, '01-empty');
  });

  it('streams a weather answer and shows get_weather with its structuredContent', async () => {
    await ask(page, "What's the weather in Oslo?");
    const turn = lastTurn(page);
    await expect(turn.locator('[data-testid=answer]').textContent()).resolves.toContain('Oslo');
    const entry = turn.locator('[data-testid=tool-entry][data-tool$="get_weather"]');
    await expect(entry.getAttribute('data-state')).resolves.toBe('ok');

    await entry.locator('[role=tab][data-view=structured]').click();
    const structured = entry.locator('[role=tabpanel][data-view=structured]');
    await structured.waitFor({ state: 'visible', ...WAIT });
    const data = JSON.parse((await structured.textContent()) ?? '{}') as Record<string, unknown>;
    expect(JSON.stringify(data)).toContain('temperatureC');

    await entry.locator('[role=tab][data-view=sent]').click();
    const sent = entry.locator('[role=tabpanel][data-view=sent]');
    await sent.waitFor({ state: 'visible', ...WAIT });
    await expect(sent.textContent()).resolves.toContain('temperatureC');
    await expect(structured.isHidden()).resolves.toBe(true);
    // Telemetry is off in this stack, so the turn names no trace (trace.e2e.test.ts turns it on).
    await expect(turn.locator('[data-testid=turn-trace]').count()).resolves.toBe(0);
    await shot(page, '02-weather-oslo', 'chat-laptop.png');
  });

  it("shows each call's round, and under each call only that call's server logs", async () => {
    await ask(page, 'Add a task to buy milk and list my tasks');
    const turn = lastTurn(page);
    const added = turn.locator('[data-testid=tool-entry][data-tool$="add_task"]');
    const listed = turn.locator('[data-testid=tool-entry][data-tool$="list_tasks"]');
    await expect(added.locator('[data-testid=tool-logs]').textContent()).resolves.toContain('Added a task');
    await expect(listed.locator('[data-testid=tool-logs]').count()).resolves.toBe(0);
    const round = async (entry: typeof added) =>
      Number((await entry.locator('[data-testid=tool-round]').textContent())?.replace('round ', ''));
    expect(await round(added)).toBeGreaterThanOrEqual(1);
    expect(await round(listed)).toBeGreaterThanOrEqual(await round(added));
  });

  it('shows a failing call as an error entry', async () => {
    await ask(page, "What's the weather in Atlantis?");
    const entry = lastTurn(page).locator('[data-testid=tool-entry][data-state=error]');
    await entry.first().waitFor(WAIT);
    await expect(entry.first().getAttribute('data-tool')).resolves.toMatch(/get_weather$/);
    await expect(entry.first().textContent()).resolves.toMatch(/Unknown place/);
    await shot(page, '03-error-atlantis');
  });

  it('shows a long tool as a task: working, then completed, with the elapsed time', async () => {
    const before = await page.locator('[data-testid=turn]').count();
    await page.fill('#message', 'Generate a report on cities in 10 steps');
    await page.press('#message', 'Enter');
    const turn = page.locator('[data-testid=turn]').nth(before);
    const entry = turn.locator('[data-testid=tool-entry][data-tool$="generate_report"]');
    // The agent declares MCP Tasks, so the server runs the report as a task and the page follows it.
    const task = entry.locator('[data-testid=tool-task]');
    await entry.locator('[data-testid=tool-task][data-status=working]').waitFor(WAIT);
    await expect(task.textContent()).resolves.toMatch(/^Task \S+…: working for \d+\.\d s/);
    await expect(entry.getAttribute('data-state')).resolves.toBe('running');
    await shot(page, '04-task-working');

    await waitIdle(page);
    await expect(entry.getAttribute('data-state')).resolves.toBe('ok');
    await expect(task.getAttribute('data-status')).resolves.toBe('completed');
    await expect(task.textContent()).resolves.toMatch(/^Task \S+…: working → completed in \d+\.\d s$/);
    await shot(page, '05-task-done');
  });

  it('stops a running task with Stop, and the agent cancels it on the server', async () => {
    const before = await page.locator('[data-testid=turn]').count();
    await page.fill('#message', 'Generate a report on cities in 20 steps');
    await page.press('#message', 'Enter');
    const turn = page.locator('[data-testid=turn]').nth(before);
    const task = turn.locator('[data-testid=tool-task][data-status=working]');
    await task.waitFor(WAIT);
    const taskId = (await task.getAttribute('data-task-id')) ?? '';

    await page.click('#stop');
    await turn.locator('[data-testid=stopped]').waitFor(WAIT);
    await waitIdle(page);
    await expect(page.locator('#stop').isHidden()).resolves.toBe(true);
    const entry = turn.locator('[data-testid=tool-entry][data-tool$="generate_report"]');
    await expect(entry.getAttribute('data-state')).resolves.toBe('stopped');
    await expect
      .poll(() => taskStatus(stack.mcpServer.mcpUrl, taskId), { timeout: WAIT.timeout })
      .toBe('cancelled');
  });

  it('has no serious or critical axe violations, and no horizontal overflow on a laptop', async () => {
    expect(await seriousAxeViolations(page)).toEqual([]);
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });

  it('clears the transcript on "New conversation"', async () => {
    expect(await page.locator('[data-testid=turn]').count()).toBeGreaterThan(0);
    await page.click('#new-conversation');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=turn]').length === 0,
      undefined,
      WAIT,
    );
    await expect(page.locator('#messages').textContent()).resolves.not.toContain('Oslo');
    await shot(page, '06-new-conversation');
  });

  it('fits a phone screen without horizontal overflow, and passes axe there', async () => {
    const [phoneContext, phone] = await openPage(PHONE);
    try {
      await ask(phone, "What's the weather in Oslo?");
      await expect(lastTurn(phone).locator('[data-testid=answer]').textContent()).resolves.toContain('Oslo');
      const { scrollWidth, innerWidth } = await horizontalOverflow(phone);
      await shot(phone, '07-phone-weather', 'chat-phone.png');
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      expect(await seriousAxeViolations(phone)).toEqual([]);
    } finally {
      await phoneContext.close();
    }
  });

  it('never requests anything but its own origin, and the sandbox proxy for views', () => {
    expect(requested.length).toBeGreaterThan(0);
    // get_weather has a view: its frame loads the proxy page from the agent's second origin.
    const foreign = requested.filter(
      (url) => !url.startsWith(`${stack.origin}/`) && !url.startsWith(`${stack.sandboxOrigin}/sandbox.html?`),
    );
    expect(foreign).toEqual([]);
  });
});
