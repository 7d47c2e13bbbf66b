/**
 * @module test-support/view-html
 * What a view's HTML may not hold: anything that loads from elsewhere. A host renders a view from
 * the resource's text alone, under a Content Security Policy that names no outside origin, so a
 * `<script src="https://…">` or an external stylesheet is at best dead and at worst a leak. And
 * what it must hold: the code that connects to the host, without which a browser check would wait
 * for a connection that never comes. Test: `view-html.test.ts`.
 */

/** Each tag or rule that loads something, and what to tell the author about it. */
const EXTERNAL_LOADS: ReadonlyArray<[RegExp, string]> = [
  [/<script\b[^>]*\ssrc\s*=/i, 'a <script src=…>: inline the script (vite-plugin-singlefile does)'],
  [/<link\b[^>]*\brel\s*=\s*["']?[^"'>]*stylesheet/i, 'a <link rel="stylesheet">: inline the styles'],
  [/<link\b[^>]*\brel\s*=\s*["']?[^"'>]*(preload|modulepreload|import)/i, 'a <link> that preloads a file'],
  [/<link\b[^>]*\shref\s*=\s*["']?\s*(https?:)?\/\//i, 'a <link> to another origin'],
  [/@import\b/i, 'a CSS @import'],
  [
    /<(iframe|img|embed|object|audio|video|source)\b[^>]*\ssrc\s*=\s*["']?\s*(https?:)?\/\//i,
    'an element that loads from another origin',
  ],
  [/\burl\(\s*["']?\s*(https?:)?\/\//i, 'a CSS url() on another origin'],
];

/** An inline script with its code left out: code is not markup, and bundled code quotes URLs and "@import". */
const INLINE_SCRIPT = /(<script\b[^>]*>)[\s\S]*?<\/script\s*>/gi;

/**
 * What in `html` loads from outside the document; empty when it is self-contained. Markup and
 * styles only: what inline code fetches is the CSP's business, and the browser check applies one.
 */
export function externalLoads(html: string): string[] {
  const markup = html.replace(INLINE_SCRIPT, '$1</script>');
  return EXTERNAL_LOADS.filter(([pattern]) => pattern.test(markup)).map(([, problem]) => problem);
}

/** The request ext-apps' `App.connect()` opens with, MCP Apps' handshake. */
const CONNECT_REQUEST = 'ui/initialize';

/**
 * Whether `html`'s code can connect to an MCP Apps host at all: it holds ext-apps' `App`, whose
 * `connect()` sends `ui/initialize`. False for a page with no `App` yet, which a host would wait
 * for in vain, so a check can say so at once instead of after a browser's timeout. (True does not
 * prove `connect()` is called; the browser check finds that out.)
 */
export function connectsToHost(html: string): boolean {
  return [...html.matchAll(INLINE_SCRIPT)].some(([script]) => script.includes(CONNECT_REQUEST));
}
