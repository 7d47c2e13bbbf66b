/**
 * @module trace-link
 * The line under an answer that names the turn's OpenTelemetry trace, and links to the trace viewer
 * when the agent has a TRACE_VIEWER_URL. The page builds the link itself, from a checked id and an
 * http(s) template only, so neither a strange id nor a strange template can become script.
 * Partner: `src/http.ts` (`traceId` in the `done` event, `traceViewerUrl` in `/api/status`).
 */
import { el } from './dom.js';

/** What OpenTelemetry calls a trace id: 16 bytes as lower-case hex. Anything else is not shown. */
const TRACE_ID = /^[0-9a-f]{32}$/;
/** Where the template takes the id, as TRACE_VIEWER_URL documents it. */
const PLACEHOLDER = '{traceId}';
/** Enough of the id to tell turns apart at a glance; the full id stays in the DOM for copying. */
const SHORT_ID_CHARS = 8;

/** The trace id, when it is one; null for absent, malformed or hostile values. */
export function validTraceId(value: unknown): string | null {
  return typeof value === 'string' && TRACE_ID.test(value) ? value : null;
}

/**
 * The viewer's link for this trace, or undefined when there is no template or the result is not an
 * http(s) URL (a `javascript:` or `data:` template never becomes a link, whatever the agent relays).
 */
export function traceViewerHref(template: string | null | undefined, traceId: string): string | undefined {
  if (!template?.includes(PLACEHOLDER) || validTraceId(traceId) === null) return undefined;
  try {
    const url = new URL(template.replaceAll(PLACEHOLDER, encodeURIComponent(traceId)));
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** "trace 4bf92f35… · open trace" for one turn; undefined when the turn has no (valid) trace id. */
export function traceLine(traceId: unknown, template: string | null | undefined): HTMLElement | undefined {
  const id = validTraceId(traceId);
  if (id === null) return undefined;
  const short = `${id.slice(0, SHORT_ID_CHARS)}…`;
  const line = el(
    'p',
    { class: 'turn-trace', 'data-testid': 'turn-trace' },
    'trace ',
    // The full id is the code's whole text, so a double-click selects exactly it for copying.
    el('code', { class: 'trace-id', 'data-testid': 'trace-id', title: `OpenTelemetry trace id ${id}` }, id),
  );
  const href = traceViewerHref(template, id);
  if (href) {
    line.append(
      ' · ',
      el(
        'a',
        {
          href,
          target: '_blank',
          rel: 'noopener noreferrer',
          'data-testid': 'trace-link',
          // Every turn has one: the name says which trace, and that it opens a new tab.
          'aria-label': `open trace ${short} (opens in a new tab)`,
        },
        'open trace',
      ),
    );
  }
  return line;
}
