/**
 * The agent's chat page as an MCP Apps host, in the system Chromium: the workshop's own views
 * (`ui://weather/forecast`, `ui://tasks/board`) drawn from real tool calls, a fixture view on the
 * plain `App` class from a second MCP server, and a hostile view that tries to escape its sandbox.
 * Screenshots go under the OS temp dir (SCREENSHOT_DIR); each test that saves one prints its path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ask, WAIT } from '../page-actions.js';
import { type Stack, startStack } from '../stack.js';
import { buildPages } from './build-pages.js';
import { type CountingServer, startCountingServer } from './counting-server.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';
import { curate as saveForDocs, screenshot } from './view-page.js';

/** With UPDATE_SCREENSHOTS=1, the entries with their views become module 14's pictures. */
const curate = (target: Locator, file: string) =>
  process.env.UPDATE_SCREENSHOTS === '1' ? saveForDocs(target, file) : Promise.resolve();

/** The flood in hostile-view/view.ts sends 40 calls; the page may run far fewer. */
const VIEW_CALLS_PER_MINUTE = 30;
/** The chat page's cap on a view's height (web/src/app-view.ts), plus a 1 px border on each side. */
const MAX_FRAME_PX = 900 + 2;

let buildDir: string;
let stack: Stack;
let fixture: FixtureServer;
let allowed: CountingServer;
let outside: CountingServer;
let context: BrowserContext | undefined;

async function openChat(): Promise<Page> {
  context = await stack.browser.newContext({ viewport: { width: 1100, height: 1000 } });
  context.setDefaultTimeout(WAIT.timeout);
  const page = await context.newPage();
  await page.goto(stack.origin, { waitUntil: 'load', ...WAIT });
  await page.waitForFunction(
    () => !document.querySelector<HTMLButtonElement>('#send')?.disabled,
    undefined,
    WAIT,
  );
  return page;
}

/** The entry of the last model call of `tool` in `turn`, and its drawn view. */
async function viewOf(turn: Locator, tool: string): Promise<{ entry: Locator; view: FrameLocator }> {
  const entry = turn.locator(`[data-testid=tool-entry][data-tool$="${tool}"]:not([data-called-by])`).last();
  await entry.locator('[data-testid=app-view][data-state=shown]').waitFor(WAIT);
  return { entry, view: entry.frameLocator('[data-testid=app-view-frame]').frameLocator('iframe') };
}

/** The structuredContent the trace shows for `entry`: the real tools/call result. */
async function structuredOf(entry: Locator): Promise<Record<string, unknown>> {
  const text = await entry.locator('[role=tabpanel][data-view=structured] pre').textContent();
  return JSON.parse(text ?? 'null') as Record<string, unknown>;
}

/** Calls the view made, as the trace lists them. */
function viewCalls(turn: Locator, tool: string): Locator {
  return turn.locator(`[data-testid=tool-entry][data-called-by=view][data-tool$="${tool}"]`);
}

describe('the chat page hosts MCP Apps views', () => {
  beforeAll(async () => {
    buildDir = await mkdtemp(join(tmpdir(), 'web-e2e-chat-apps-'));
    const pages = await buildPages(buildDir);
    allowed = await startCountingServer();
    outside = await startCountingServer();
    fixture = await startFixtureServer(pages.fixtureViewHtml, {
      html: pages.hostileViewHtml,
      targets: {
        allowedUrl: `${allowed.origin}/declared`,
        exfilUrl: `${outside.origin}/exfil`,
        navigateUrl: `${outside.origin}/navigate`,
        linkUrl: `${outside.origin}/link`,
      },
    });
    stack = await startStack({
      extraServers: { fixture: fixture.mcpUrl },
      viewCallsPerMinute: VIEW_CALLS_PER_MINUTE,
      askThePage: true,
    });
  }, 60_000);
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await stack?.close();
    await fixture?.close();
    await allowed?.close();
    await outside?.close();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  it("draws get_weather's result in its view, whose buttons work through the agent", async () => {
    const page = await openChat();
    const turn = await ask(page, 'What is the weather in Oslo?');
    const { entry, view } = await viewOf(turn, 'get_weather');
    const weather = await structuredOf(entry);
    const current = weather.current as { temperatureC: number };
    const forecast = weather.forecast as unknown[];
    await view.getByText('Oslo, Norway').waitFor(WAIT);
    await view.getByText(`${current.temperatureC} °C`, { exact: true }).first().waitFor(WAIT);
    await expect(view.locator('tbody tr').count()).resolves.toBe(forecast.length);
    console.log(`screenshot: ${await screenshot(page, 'chat-weather-view')}`);

    await view.getByRole('button', { name: 'More days' }).click();
    const more = viewCalls(turn, 'get_weather').first();
    await more.waitFor(WAIT);
    const longer = (await structuredOf(more)).forecast as unknown[];
    expect(longer.length).toBeGreaterThan(forecast.length);
    await expect.poll(() => view.locator('tbody tr').count(), WAIT).toBe(longer.length);
    await view.getByRole('button', { name: 'Show °F' }).click();
    await view.getByText('°F').first().waitFor(WAIT);
    await curate(turn, 'view-weather.png');
  });

  it("draws list_tasks as a board whose buttons complete and delete, delete after the person's yes", async () => {
    const hub = stack.runtime.hub;
    for (const title of ['Buy lamp oil', 'Return the atlas']) {
      const added = await hub.callTool('workshop', 'add_task', { title }, { timeoutMs: 10_000 });
      expect(added.result?.isError).not.toBe(true);
    }
    const page = await openChat();
    const turn = await ask(page, 'List my tasks');
    const { entry, view } = await viewOf(turn, 'list_tasks');
    const listed = (await structuredOf(entry)).items as { id: number; title: string }[];
    const lamp = listed.find((task) => task.title === 'Buy lamp oil');
    const atlas = listed.find((task) => task.title === 'Return the atlas');
    if (!lamp || !atlas) throw new Error(`list_tasks did not list both tasks: ${JSON.stringify(listed)}`);
    await view.getByText(`#${lamp.id} Buy lamp oil`).waitFor(WAIT);
    await view.getByText(`#${atlas.id} Return the atlas`).waitFor(WAIT);
    console.log(`screenshot: ${await screenshot(page, 'chat-task-board')}`);

    await view.getByTestId(`complete-${lamp.id}`).click();
    await viewCalls(turn, 'complete_task').first().waitFor(WAIT);
    await view.locator(`li.done[data-task-id="${lamp.id}"]`).waitFor(WAIT);

    // delete_task asks the person first: the page shows the form beside the view.
    await view.getByTestId(`delete-${atlas.id}`).click();
    const form = page.getByTestId('input-form');
    await form.waitFor(WAIT);
    await form.getByRole('button', { name: 'Decline' }).click();
    await viewCalls(turn, 'delete_task').first().waitFor(WAIT);
    await view.locator(`li[data-task-id="${atlas.id}"]`).waitFor(WAIT);

    await view.getByTestId(`delete-${atlas.id}`).click();
    await form.waitFor(WAIT);
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => viewCalls(turn, 'delete_task').count(), WAIT).toBe(2);
    await expect.poll(() => view.locator(`li[data-task-id="${atlas.id}"]`).count(), WAIT).toBe(0);
    await curate(turn, 'view-task-board.png');
    const after = await hub.callTool('workshop', 'list_tasks', {}, { timeoutMs: 10_000 });
    expect(JSON.stringify(after.result?.structuredContent)).not.toContain('Return the atlas');
  });

  it('hosts a view written on the plain App class, from another MCP server', async () => {
    const page = await openChat();
    const turn = await ask(page, 'Show the word "lantern" in the fixture view');
    const { view, entry } = await viewOf(turn, 'fixture_show');
    const token = fixture.calls.showTokens.at(-1);
    await view
      .locator('#result')
      .filter({ hasText: `token ${token}` })
      .waitFor(WAIT);
    await view.locator('#origin').filter({ hasText: 'origin: null' }).waitFor(WAIT);

    const echoes = fixture.calls.echo;
    await view.locator('#tool-name').fill('fixture_echo');
    await view.locator('#call').click();
    await view
      .locator('#call-result')
      .filter({ hasText: `called: echo #${echoes + 1}: ping` })
      .waitFor(WAIT);
    await viewCalls(turn, 'fixture_echo').first().waitFor(WAIT);
    await curate(turn, 'view-fixture.png');

    await view.locator('#tool-name').fill('fixture_secret');
    await view.locator('#call').click();
    await view.locator('#call-result').filter({ hasText: 'not available to views' }).waitFor(WAIT);
    expect(fixture.calls.secret).toBe(0);

    const frame = entry.getByTestId('app-view-frame');
    await view.locator('#huge').click();
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0, WAIT).toBeGreaterThan(800);
    expect((await frame.boundingBox())?.height).toBeLessThanOrEqual(MAX_FRAME_PX);

    // Teardown: the view's goodbye log lands in its log list, which outlives the removed turn.
    await page.evaluate(() => {
      (window as unknown as { viewLog?: Element | null }).viewLog =
        document.querySelector('[data-testid=view-log]');
    });
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.waitForFunction(
      () =>
        ((window as unknown as { viewLog?: Element }).viewLog?.textContent ?? '').includes(
          'teardown received',
        ),
      undefined,
      WAIT,
    );
  });

  it('keeps a hostile view from the page, the network and other frames', async () => {
    const page = await openChat();
    await page.context().addCookies([{ name: 'chat-secret', value: 'cookie-value', url: stack.origin }]);
    await page.evaluate(() => {
      localStorage.setItem('chat-secret', 'storage-value');
      sessionStorage.setItem('chat-secret', 'session-value');
    });
    const pageUrl = page.url();
    const shown = await ask(page, 'Show the word "neighbour" in the fixture view');
    const neighbour = (await viewOf(shown, 'fixture_show')).view;
    const echoes = fixture.calls.echo;

    const turn = await ask(page, 'Probe the sandbox');
    const { view } = await viewOf(turn, 'fixture_probe');
    const reportText = view.locator('#report').filter({ hasText: /^\{/ });
    await reportText.waitFor(WAIT);
    const report = JSON.parse((await reportText.textContent()) ?? '{}') as Record<string, string>;
    for (const name of ['topDocument', 'parentDocument', 'cookie', 'localStorage', 'sessionStorage']) {
      expect(report[name], name).toMatch(/^blocked: /);
    }
    expect(report.undeclaredFetch).toMatch(/^blocked: /);
    expect(report.undeclaredImage).toMatch(/^blocked: /);
    expect(report.popup).toMatch(/^blocked: /);
    expect(report.modelOnlyTool).toMatch(/^blocked: .*not available to views/);
    // The one origin it declared is reachable: the policy is built from the declaration, not just shut.
    expect(report.declaredFetch).toBe('read: 200');
    expect(allowed.hits).toContain('/declared?via=fetch');

    // Give any posed message time to do harm, then look for it.
    await page.waitForTimeout(1_000);
    expect(page.url()).toBe(pageUrl);
    expect(outside.hits).toEqual([]);
    expect(fixture.calls.secret).toBe(0);
    expect(fixture.calls.echo).toBe(echoes);
    await expect(viewCalls(page.locator('body'), 'fixture_echo').count()).resolves.toBe(0);
    await expect(neighbour.locator('#taken').count()).resolves.toBe(0);
    await neighbour.locator('#result').filter({ hasText: 'neighbour' }).waitFor(WAIT);
    console.log(`screenshot: ${await screenshot(page, 'chat-hostile-view')}`);
  });

  it('opens a link for a view only after the person agrees, and never a javascript: one', async () => {
    const page = await openChat();
    const turn = await ask(page, 'Probe the sandbox');
    const { view } = await viewOf(turn, 'fixture_probe');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await view.locator('#open-link').click();
    await view.locator('#link-result').filter({ hasText: 'link: refused' }).waitFor(WAIT);
    expect(asked[0]).toContain(`${outside.origin}/link`);
    expect(outside.hits).not.toContain('/link');

    page.once('dialog', (dialog) => void dialog.accept());
    const popup = page.context().waitForEvent('page', WAIT);
    await view.locator('#open-link').click();
    await view.locator('#link-result').filter({ hasText: 'link: opened' }).waitFor(WAIT);
    const opened = await popup;
    await opened.waitForLoadState('load', WAIT);
    expect(opened.url()).toBe(`${outside.origin}/link`);
    // noopener: the new tab cannot reach back into the chat page.
    await expect(opened.evaluate(() => window.opener)).resolves.toBeNull();

    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await view.locator('#link-result').evaluate((node) => {
      node.textContent = '';
    });
    await view.locator('#open-script-link').click();
    await view.locator('#link-result').filter({ hasText: 'link: refused' }).waitFor(WAIT);
    expect(dialogs).toBe(0);
  });

  it('limits a view that floods tools/call', async () => {
    const page = await openChat();
    const turn = await ask(page, 'Probe the sandbox');
    const { view } = await viewOf(turn, 'fixture_probe');
    const before = fixture.calls.echo;
    await view.locator('#flood').click();
    const result = view.locator('#flood-result').filter({ hasText: /^\{/ });
    await result.waitFor({ timeout: 20_000 });
    const counts = JSON.parse((await result.textContent()) ?? '{}') as Record<string, number>;
    expect(counts.limited ?? 0).toBeGreaterThan(0);
    expect(fixture.calls.echo - before).toBeLessThanOrEqual(VIEW_CALLS_PER_MINUTE);
    expect(fixture.calls.echo - before).toBe(counts.ok ?? 0);
  }, 30_000);
});
