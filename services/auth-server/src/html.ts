/**
 * @module html
 * The sign-in pages, as plain HTML strings: no template engine, no scripts, no external assets.
 * Every value that comes from a request or a client goes through `escapeHtml`.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '@mcp-workshop/shared';

export { escapeHtml };

/** A whole page; `body` must already be escaped where it holds outside values. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
label { display: block; margin: 0.75rem 0 0.25rem; }
input { width: 100%; padding: 0.5rem; box-sizing: border-box; }
button { margin-top: 1rem; padding: 0.5rem 1rem; }
.error { color: #b00020; }
.note { color: #555; font-size: 0.9rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
<p class="note">Workshop development sign-in. Not for real accounts.</p>
</body>
</html>
`;
}

/** Sends a page with headers that allow no scripts and no framing: the pages are forms only. */
export function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
  });
  res.end(html);
}

/** Over the sign-in limit: when to try again, in seconds and as a time of day (UTC). */
export function tooManyAttemptsPage(retryAfterSeconds: number, retryAt: Date): string {
  const at = retryAt.toISOString().slice(11, 19);
  return page(
    'Too many sign-in attempts',
    `<p class="error" role="alert">Too many failed sign-ins from your address.</p>
<p>Try again in ${retryAfterSeconds} seconds (after ${at} UTC), then start again from the app.</p>`,
  );
}

export function loginPage(uid: string, clientId: string, error?: string): string {
  return page(
    'Sign in',
    `<p>${escapeHtml(clientId)} asks you to sign in.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required value="demo">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Cancel</button></form>`,
  );
}

export function consentPage(uid: string, clientId: string, scopes: readonly string[]): string {
  const items = scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('\n');
  return page(
    'Allow access',
    `<p>${escapeHtml(clientId)} asks for:</p>
<ul>
${items}
</ul>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Deny</button></form>`,
  );
}
