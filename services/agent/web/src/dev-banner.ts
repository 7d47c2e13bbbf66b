/**
 * @module dev-banner
 * The banner a reloading dev server's problems get (`pnpm dev`): a save that failed to load, with
 * its file:line, until the next good save; and the background type check's errors. Servers that
 * offer no dev status never show here.
 */
import { el } from './dom.js';
import type { DevStatus } from './types.js';

const place = (problem: { where: string | null }) => (problem.where ? `${problem.where}: ` : '');

/** Redraws `banner` from each server's latest status; hidden when none has a problem. */
export function renderDevBanner(banner: HTMLElement, statuses: ReadonlyMap<string, DevStatus | null>): void {
  const lines: HTMLElement[] = [];
  for (const [server, status] of statuses) {
    if (!status) continue;
    if (status.failedSave) {
      lines.push(
        el(
          'p',
          { 'data-testid': 'dev-failed-save' },
          el('strong', {}, `${server}: the last save failed. `),
          `${place(status.failedSave)}${status.failedSave.message}. `,
          'The last good version is still answering; fix it and save again.',
        ),
      );
    }
    if (status.typeErrors.count > 0) {
      const plural = status.typeErrors.count === 1 ? 'error' : 'errors';
      lines.push(
        el(
          'p',
          { 'data-testid': 'dev-type-errors' },
          el('strong', {}, `${server}: the type check found ${status.typeErrors.count} ${plural}. `),
          status.typeErrors.first.map((problem) => `${place(problem)}${problem.message}`).join(' · '),
        ),
      );
    }
  }
  const signature = lines.map((line) => line.textContent).join('\n');
  if (banner.dataset.signature === signature) return;
  banner.dataset.signature = signature;
  banner.hidden = lines.length === 0;
  banner.replaceChildren(...lines);
}

/** Says under each drawn view of `server` that its server's views changed after it was drawn. */
export function markViewsChanged(root: ParentNode, server: string): void {
  for (const view of root.querySelectorAll<HTMLElement>('[data-testid=app-view]')) {
    if (view.dataset.server !== server || view.querySelector('[data-testid=view-changed]')) continue;
    view.append(
      el(
        'p',
        { class: 'view-changed', 'data-testid': 'view-changed', role: 'status' },
        'The server changed its views after this one was drawn; ask again to see the new version.',
      ),
    );
  }
}
