/**
 * @module server
 * The HTTP front of the authorization server: `/health`, the RFC 8414 metadata path, the sign-in
 * pages, and everything else handed to oidc-provider. MCP clients look for
 * `/.well-known/oauth-authorization-server` first; it is the same document as OpenID discovery.
 * Guessing is limited per client address (`login-limits.ts`): the login form, and client secrets
 * at the token endpoint.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { createInteractions } from './interactions.js';
import { createLoginLimits } from './login-limits.js';

/** oidc-provider's default token route; this server configures no other. */
const TOKEN_PATH = '/token';
const LOGIN_PATH = /^\/interaction\/[^/]+\/login$/;

export interface AuthHttpOptions {
  provider: Provider;
  /** Who may sign in: user name to password. */
  passwords: ReadonlyMap<string, string>;
  /** Failed sign-ins, and failed client authentications, per client address per minute. */
  loginAttemptsPerMinute: number;
  /** For tests: the limits' window; default one minute. */
  loginWindowMs?: number;
  onError?: (error: unknown) => void;
}

export function createAuthHttpServer({
  provider,
  passwords,
  loginAttemptsPerMinute,
  loginWindowMs,
  onError,
}: AuthHttpOptions): Server {
  const interactions = createInteractions({ provider, passwords });
  const limits = createLoginLimits({ attemptsPerMinute: loginAttemptsPerMinute, windowMs: loginWindowMs });
  const oidc = provider.callback();
  const fail = (res: ServerResponse, error: unknown) => {
    onError?.(error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
  };
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/health') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', issuer: provider.issuer }));
      return;
    }
    if (path === '/.well-known/oauth-authorization-server') {
      req.url = '/.well-known/openid-configuration';
    }
    if (path.startsWith('/interaction/')) {
      const handle = () => interactions(req, res, path).catch((error: unknown) => fail(res, error));
      if (req.method === 'POST' && LOGIN_PATH.test(path)) {
        limits.signIn(req, res, (error) => (error ? fail(res, error) : void handle()));
      } else {
        void handle();
      }
      return;
    }
    if (req.method === 'POST' && path === TOKEN_PATH) {
      limits.clientAuthentication(req, res, (error) => (error ? fail(res, error) : oidc(req, res)));
      return;
    }
    oidc(req, res);
  });
}
