/**
 * A tool asks the person for input (MCP elicitation) and the chat page answers: `delete_task`
 * asks for confirmation, the page shows a small form in the turn, and the answer goes back through
 * `POST /api/input/:id`. The stack asks the page (`askThePage`), as `pnpm start` does; without it
 * every request would be declined. Screenshot: artifacts/09-elicitation-form.png.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { InputBroker } from '@mcp-workshop/agent';
import { SHARED_OWNER } from '@mcp-workshop/task-store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT, waitIdle } from './page-actions.js';
import { type Stack, startStack } from './stack.js';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** Every wait is bounded, and shorter than vitest's 20 s test timeout so the locator's own error shows. */

let stack: Stack;
let context: BrowserContext;
let page: Page;

function broker(): InputBroker {
  if (!stack.broker) throw new Error('the stack was started without askThePage');
  return stack.broker;
}

function lastTurn(target: Page) {
  return target.locator('[data-testid=turn]').last();
}

/** Types the question and presses Enter; returns at once, so a test can answer a form mid-turn. */
async function sendMessage(target: Page, question: string): Promise<void> {
  const before = await target.locator('[data-testid=turn]').count();
  await target.fill('#message', question);
  await target.press('#message', 'Enter');
  await target.locator('[data-testid=turn]').nth(before).waitFor(WAIT);
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

async function titles(): Promise<string[]> {
  return (await stack.mcpServer.deps.todos.list(SHARED_OWNER, 'all')).map((task) => task.title);
}

async function addTask(title: string): Promise<number> {
  await sendMessage(page, `Add a task: "${title}"`);
  await waitIdle(page);
  const entry = lastTurn(page).locator('[data-testid=tool-entry][data-tool$="add_task"]');
  await expect(entry.getAttribute('data-state')).resolves.toBe('ok');
  const task = (await stack.mcpServer.deps.todos.list(SHARED_OWNER, 'all')).find((t) => t.title === title);
  expect(task, `no task "${title}" after adding it`).toBeDefined();
  return task?.id ?? 0;
}

describe('a tool asks the person for input (elicitation)', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The page is asked, as with `pnpm start`: the stack wires the input broker in.
    stack = await startStack({ askThePage: true });
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

  it('shows a confirmation form, and Send with the box ticked deletes the task', async () => {
    const id = await addTask('Water the plants');
    await sendMessage(page, `Delete task ${id}`);

    const form = lastTurn(page).locator('[data-testid=input-form]');
    await form.waitFor(WAIT);
    const entry = lastTurn(page).locator('[data-testid=tool-entry][data-tool$="delete_task"]');
    await expect(entry.getAttribute('data-state')).resolves.toBe('running');
    await expect(form.locator('legend').textContent()).resolves.toMatch(/delete/i);
    const box = form.getByRole('checkbox', { name: /yes, delete it/i });
    // The first control has the focus, so the keyboard alone can answer.
    await expect(box.evaluate((node) => node === document.activeElement)).resolves.toBe(true);
    await expect(form.getByRole('button', { name: 'Decline' }).isVisible()).resolves.toBe(true);
    await expect(form.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(true);
    expect(broker().pending()).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}09-elicitation-form.png`, fullPage: true });
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    await box.focus();

    await page.keyboard.press('Space');
    await expect(box.isChecked()).resolves.toBe(true);
    await form.getByRole('button', { name: 'Send' }).click();
    await form.waitFor({ state: 'detached', ...WAIT });
    await waitIdle(page);

    await expect(entry.getAttribute('data-state')).resolves.toBe('ok');
    expect(broker().pending()).toBe(0);
    expect(await titles()).not.toContain('Water the plants');
  });

  it('Decline leaves the task in place and the tool call ends with "Not deleted"', async () => {
    const id = await addTask('Feed the cat');
    await sendMessage(page, `Delete task ${id}`);

    const form = lastTurn(page).locator('[data-testid=input-form]');
    await form.waitFor(WAIT);
    await form.getByRole('button', { name: 'Decline' }).click();
    await form.waitFor({ state: 'detached', ...WAIT });
    await waitIdle(page);

    const entry = lastTurn(page).locator('[data-testid=tool-entry][data-tool$="delete_task"]');
    await expect(entry.getAttribute('data-state')).resolves.toBe('error');
    await expect(entry.textContent()).resolves.toContain('Not deleted');
    expect(await titles()).toContain('Feed the cat');
  });

  it('refuses answers to unknown ids and malformed answers', async () => {
    const post = (id: string, body: unknown) =>
      fetch(`${stack.origin}/api/input/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('no-such-request', { action: 'decline' })).status).toBe(404);
    expect((await post('no-such-request', { action: 'maybe' })).status).toBe(400);
    expect((await post('bad%20id', { action: 'decline' })).status).toBe(400);
  });
});
