/**
 * Each turn's OpenTelemetry trace on the chat page, in the system Chromium: the stack with telemetry
 * on, exporting to a real OTLP receiver on loopback (`@mcp-workshop/test-infra`), and
 * TRACE_VIEWER_URL set. The id the page shows must be the trace the agent exported; a hostile
 * template or id, slipped in between the agent and the page, must never become a link or markup.
 * The screenshot goes to artifacts/09-trace.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type OtlpReceiver, startOtlpReceiver } from '@mcp-workshop/test-infra';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './axe.js';
import { ask, WAIT } from './page-actions.js';
import { type Stack, startStack } from './stack.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** Every wait is bounded, and shorter than vitest's 20 s test timeout so the locator's own error shows. */
/** Port 1 on loopback: nothing answers, and the test never follows the link anyway. */
const VIEWER_TEMPLATE = 'http://127.0.0.1:1/trace/{traceId}';
/** Shorter than the test's timeout, so the receiver's own message (the span names it got) shows. */
const WAIT_FOR_SPANS = { timeoutMs: 10_000 };
const TRACE_ID = /^[0-9a-f]{32}$/;

let receiver: OtlpReceiver;
let stack: Stack;
/** Every page of a test, closed after it. */
const contexts: BrowserContext[] = [];
/** The message of every dialog any page opened: a script that ran would most likely call alert(). */
const dialogs: string[] = [];

async function openPage(): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  context.setDefaultTimeout(WAIT.timeout);
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return page;
}

async function load(page: Page): Promise<void> {
  await page.goto(`${stack.origin}/`, { waitUntil: 'load', ...WAIT });
  await page.locator('#model-badge').filter({ hasNotText: 'loading' }).waitFor(WAIT);
}

/** Asks, waits until the turn is over and the form is free, and returns the turn. */
describe('trace ids on the chat page in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    receiver = await startOtlpReceiver();
    stack = await startStack({
      agentEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, TRACE_VIEWER_URL: VIEWER_TEMPLATE },
    });
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    expect(dialogs.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    // The stack first: closing it flushes the agent's last spans to the receiver.
    await stack?.close();
    await receiver?.close();
  });

  it('shows under the answer the trace the agent exported as its invoke_agent span', async () => {
    const page = await openPage();
    await load(page);
    const turn = await ask(page, "What's the weather in Oslo?");
    await expect(turn.locator('[data-testid=answer]').textContent()).resolves.toContain('Oslo');
    const line = turn.locator('[data-testid=turn-trace]');
    await expect(line.textContent()).resolves.toMatch(/^trace [0-9a-f]{32}/);
    const traceId = (await line.locator('[data-testid=trace-id]').textContent()) ?? '';
    expect(traceId).toMatch(TRACE_ID);
    await expect(line.locator('[data-testid=trace-id]').getAttribute('title')).resolves.toContain(traceId);

    // Send what the batch processor holds now rather than after its schedule delay.
    await stack.runtime.telemetry?.flush();
    const spans = await receiver.waitForSpans(
      (received) => received.some((span) => span.name.startsWith('invoke_agent') && span.traceId === traceId),
      WAIT_FOR_SPANS,
    );
    // The turn's model and tool calls join the same trace, so the link shows the whole turn.
    expect(spans.filter((span) => span.traceId === traceId).length).toBeGreaterThan(1);
  });

  it('links each turn to its trace in the viewer, in a new tab, and passes axe', async () => {
    const page = await openPage();
    await load(page);
    const first = await ask(page, "What's the weather in Oslo?");
    const second = await ask(page, 'Add a task to buy milk');
    const ids: string[] = [];
    for (const turn of [first, second]) {
      const traceId = (await turn.locator('[data-testid=trace-id]').textContent()) ?? '';
      expect(traceId).toMatch(TRACE_ID);
      ids.push(traceId);
      const link = turn.locator('[data-testid=trace-link]');
      await expect(link.textContent()).resolves.toBe('open trace');
      await expect(link.getAttribute('href')).resolves.toBe(`http://127.0.0.1:1/trace/${traceId}`);
      await expect(link.getAttribute('target')).resolves.toBe('_blank');
      await expect(link.getAttribute('rel')).resolves.toMatch(/\bnoopener\b/);
    }
    // One trace per question.
    expect(ids[0]).not.toBe(ids[1]);
    await page.screenshot({ path: `${ARTIFACTS}09-trace.png`, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('makes no link from a javascript: template, whatever reaches the page', async () => {
    const page = await openPage();
    // env.ts refuses such a TRACE_VIEWER_URL; the page must refuse it too, should one get through.
    await page.route('**/api/status', async (route) => {
      const response = await route.fetch();
      const status = (await response.json()) as Record<string, unknown>;
      await route.fulfill({
        response,
        json: { ...status, traceViewerUrl: 'javascript:alert(document.domain)//{traceId}' },
      });
    });
    await load(page);
    const turn = await ask(page, "What's the weather in Oslo?");
    await expect(turn.locator('[data-testid=trace-id]').textContent()).resolves.toMatch(TRACE_ID);
    await expect(turn.locator('[data-testid=trace-link]').count()).resolves.toBe(0);
    await expect(page.locator('a[href^="javascript:"]').count()).resolves.toBe(0);
  });

  it('shows no trace line for a trace id that is not 32 hex digits', async () => {
    const page = await openPage();
    const hostile = '"><img src=x onerror=alert(1)>';
    const done = { answer: 'Hello.', conversationId: 'c1', toolCalls: [], serverLogs: [], traceId: hostile };
    await page.route('**/api/chat/stream', (route) =>
      route.fulfill({
        contentType: 'text/event-stream',
        body: `event: text\ndata: {"text":"Hello."}\n\nevent: done\ndata: ${JSON.stringify(done)}\n\n`,
      }),
    );
    await load(page);
    const turn = await ask(page, 'Hi');
    await expect(turn.locator('[data-testid=answer]').textContent()).resolves.toBe('Hello.');
    await expect(turn.locator('[data-testid=turn-trace]').count()).resolves.toBe(0);
    await expect(turn.locator('img').count()).resolves.toBe(0);
    await expect(turn.textContent()).resolves.not.toContain('onerror');
  });
});
