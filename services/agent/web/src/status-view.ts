/**
 * @module status-view
 * The agent's start-up on the page, from `GET /api/status`: a banner with the sign-in link while a
 * person must sign in, the reason when start-up failed, and who is signed in for the header.
 * Server text goes in as text nodes, and only an http(s) link becomes a link. Partner: `src/startup.ts`.
 */
import { el } from './dom.js';
import type { AgentStatus } from './types.js';

/** "Signed in to workshop as demo", one part per server; empty when no server needs a sign-in. */
export function describeSignedIn(signedIn: AgentStatus['signedIn']): string {
  if (signedIn.length === 0) return '';
  return signedIn
    .map(
      ({ server, user, kind }) => `Signed in to ${server} as ${user}${kind === 'client' ? ' (client)' : ''}`,
    )
    .join('; ');
}

/** A `javascript:` or `data:` URL must never become a link, whatever the agent relays. */
function safeLink(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fills the banner for this status, or hides it. Redraws only when what it says changed, so a
 * screen reader hears the banner once and a link the person is about to click stays put.
 */
export function renderStartupBanner(banner: HTMLElement, status: AgentStatus): void {
  const key = JSON.stringify([status.state, status.signIn, status.error]);
  if (banner.dataset.key === key) return;
  banner.dataset.key = key;
  banner.classList.toggle('failed', status.state === 'failed');
  if (status.state === 'failed') {
    banner.hidden = false;
    banner.replaceChildren(
      el('p', { role: 'alert' }, `The agent could not start: ${status.error ?? 'see its log'}`),
    );
    return;
  }
  const link = status.signIn && safeLink(status.signIn.url);
  if (status.signIn && link) {
    banner.hidden = false;
    banner.replaceChildren(
      el(
        'p',
        {},
        `The MCP server "${status.signIn.server}" needs you to sign in. `,
        el(
          'a',
          { href: link.href, target: '_blank', rel: 'noopener noreferrer', 'data-testid': 'sign-in-link' },
          `Sign in to ${status.signIn.server}`,
        ),
        ' (opens in a new tab); this page carries on by itself once you have.',
      ),
    );
    return;
  }
  if (status.state === 'starting') {
    banner.hidden = false;
    banner.replaceChildren(el('p', {}, 'Connecting to the MCP servers…'));
    return;
  }
  banner.hidden = true;
  banner.replaceChildren();
}
