/**
 * @module page-actions
 * What every browser test does to the chat page: send a question and wait until the page is idle
 * again (the send button enabled, no call running). Shared by the e2e test files.
 */
import type { Locator, Page } from 'playwright-core';

/** Long enough for a cold agent and server on a loaded CI machine, short enough to fail a hang. */
export const WAIT = { timeout: 10_000 };

/** Resolves once the send button is enabled and no tool call shows as running. */
export async function waitIdle(target: Page): Promise<void> {
  await target.waitForFunction(
    () => {
      const send = document.querySelector<HTMLButtonElement>('#send');
      return (
        send !== null && !send.disabled && document.querySelectorAll('[data-state=running]').length === 0
      );
    },
    undefined,
    WAIT,
  );
}

/** Types `question`, sends it, and resolves with its turn once the page is idle again. */
export async function ask(target: Page, question: string): Promise<Locator> {
  const before = await target.locator('[data-testid=turn]').count();
  await target.fill('#message', question);
  await target.press('#message', 'Enter');
  const turn = target.locator('[data-testid=turn]').nth(before);
  await turn.waitFor(WAIT);
  await waitIdle(target);
  return turn;
}
