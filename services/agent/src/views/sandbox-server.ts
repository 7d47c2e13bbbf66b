/**
 * @module views/sandbox-server
 * The sandbox proxy's own web server, on a second port (AGENT_VIEW_SANDBOX_PORT), because the MCP
 * Apps spec asks a web host to run views on an origin other than its own. It serves one page,
 * `GET /sandbox.html?host=<chat page origin>&csp=<declared origins as JSON>`, with the policy
 * `csp.ts` builds. It holds no secret and needs no sign-in: who frames it is limited by
 * `frame-ancestors` to an origin the agent serves its page on, and the page relays to that origin only.
 * `createViewSandboxApp()` binds nothing; `index.ts` listens.
 */
import { hostHeaderValidation } from '@modelcontextprotocol/express';
import express, { type Express } from 'express';
import { cspHeader, parseStrictCsp } from './csp.js';
import { sandboxPage } from './sandbox-page.js';

/** Far more than the four lists of `MAX_CSP_ORIGINS` origins take; a longer query is refused. */
export const MAX_CSP_QUERY_CHARS = 16_000;
const LOCALHOST_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export interface ViewSandboxOptions {
  /** Extra Host names, as for the agent (AGENT_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** Extra chat page origins (AGENT_ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
}

/**
 * Whether the chat page may be at `origin`: an http(s) origin on a host name the agent answers to
 * (any port: behind docker or a proxy the page's port is not the agent's), or one listed exactly.
 */
export function isChatPageOrigin(origin: string, options: ViewSandboxOptions = {}): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || !/^https?:$/.test(url.protocol)) return false;
  if (options.allowedOrigins?.includes(origin)) return true;
  return [...LOCALHOST_NAMES, ...(options.allowedHosts ?? [])].includes(url.hostname);
}

function refuse(res: express.Response, status: number, message: string): void {
  res.status(status).type('text/plain').set('cache-control', 'no-store').send(`${message}\n`);
}

export function createViewSandboxApp(options: ViewSandboxOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(hostHeaderValidation([...LOCALHOST_NAMES, ...(options.allowedHosts ?? [])]));
  app.get('/health', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/sandbox.html', (req, res) => {
    const host = typeof req.query.host === 'string' ? req.query.host : '';
    const cspText = typeof req.query.csp === 'string' ? req.query.csp : '{}';
    if (!isChatPageOrigin(host, options)) {
      return refuse(
        res,
        400,
        'host must be the origin of a chat page this agent serves, e.g. http://127.0.0.1:3001',
      );
    }
    if (cspText.length > MAX_CSP_QUERY_CHARS) return refuse(res, 414, 'csp is too long');
    let declared: unknown;
    try {
      declared = JSON.parse(cspText);
    } catch {
      return refuse(res, 400, 'csp must be JSON: {"connectDomains": [...], "resourceDomains": [...], ...}');
    }
    const csp = parseStrictCsp(declared);
    if (!csp) {
      return refuse(
        res,
        400,
        'csp may hold connectDomains, resourceDomains, frameDomains and baseUriDomains, each a list of origins such as https://api.example.com',
      );
    }
    res
      .status(200)
      .set({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': cspHeader(csp, host),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      })
      .send(sandboxPage(host));
  });
  app.use((_req, res) => refuse(res, 404, 'The sandbox serves /sandbox.html only.'));
  return app;
}
