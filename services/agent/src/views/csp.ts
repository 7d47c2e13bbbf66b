/**
 * @module views/csp
 * The Content-Security-Policy a view runs under. A view lists the outside origins it needs in
 * `_meta.ui.csp` (`connectDomains`, `resourceDomains`, `frameDomains`, `baseUriDomains`); the sandbox
 * proxy serves its page with a policy built from those lists and nothing else, and the view's frame
 * inherits it. A view that declares nothing may fetch, connect to, frame, post a form to or load from no
 * origin at all; WebRTC is outside any Content-Security-Policy (ADR 017). Entries that are not a plain
 * origin (a bare `*`, a keyword such as `'unsafe-eval'`, a path, a `;`) are dropped, never passed on.
 */
import type { ViewCsp } from '../types.js';

/** More origins than any real view needs; a longer list is a server padding the header. */
export const MAX_CSP_ORIGINS = 32;
const MAX_ORIGIN_CHARS = 253;
/** scheme://host[:port], where the host may start with one `*.` label. */
const CSP_ORIGIN =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;
const KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

export const EMPTY_CSP: Readonly<ViewCsp> = Object.freeze({
  connectDomains: [],
  resourceDomains: [],
  frameDomains: [],
  baseUriDomains: [],
});

/** Whether `value` is an origin the policy may name. */
export function isCspOrigin(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ORIGIN_CHARS && CSP_ORIGIN.test(value);
}

/**
 * The view's declared origins, each list without duplicates and cut to `MAX_CSP_ORIGINS`.
 * `dropped` hears every entry left out, so the agent can log what a server asked for in vain.
 */
export function readViewCsp(raw: unknown, dropped: (entry: string) => void = () => {}): ViewCsp {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const csp: ViewCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  for (const key of KEYS) {
    const list = Array.isArray(record[key]) ? (record[key] as unknown[]) : [];
    for (const entry of list) {
      const origin = typeof entry === 'string' ? entry.toLowerCase() : entry;
      if (!isCspOrigin(origin) || csp[key].length >= MAX_CSP_ORIGINS) {
        dropped(`${key}: ${String(entry).slice(0, 80)}`);
      } else if (!csp[key].includes(origin)) {
        csp[key].push(origin);
      }
    }
  }
  return csp;
}

/** Like `readViewCsp`, but any entry that is not a plain origin makes the whole list invalid. */
export function parseStrictCsp(raw: unknown): ViewCsp | undefined {
  let bad = false;
  const csp = readViewCsp(raw, () => {
    bad = true;
  });
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : undefined;
  if (!record || Object.keys(record).some((key) => !(KEYS as readonly string[]).includes(key)))
    return undefined;
  return bad ? undefined : csp;
}

function sources(origins: readonly string[], always: readonly string[] = []): string {
  const all = [...always, ...origins];
  return all.length > 0 ? all.join(' ') : "'none'";
}

/**
 * The policy header for the sandbox proxy's page, which its srcdoc frame (the view) inherits. Inline
 * script and style are allowed because a view is one self-contained HTML file; everything else is
 * limited to the declared origins. Only `hostOrigin` may frame the proxy.
 */
export function cspHeader(csp: ViewCsp, hostOrigin: string): string {
  const resources = csp.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${sources(resources, ["'unsafe-inline'"])}`,
    `style-src ${sources(resources, ["'unsafe-inline'"])}`,
    `img-src ${sources(resources, ['data:', 'blob:'])}`,
    `font-src ${sources(resources, ['data:'])}`,
    `media-src ${sources(resources, ['data:', 'blob:'])}`,
    `connect-src ${sources(csp.connectDomains)}`,
    `frame-src ${sources(csp.frameDomains)}`,
    `base-uri ${sources(csp.baseUriDomains)}`,
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${hostOrigin}`,
  ].join('; ');
}
