/**
 * @module server
 * The HTTP front of the authorization server: `/health`, the RFC 8414 metadata path, the sign-in
 * pages, and everything else handed to oidc-provider. MCP clients look for
 * `/.well-known/oauth-authorization-server` first; it is the same document as OpenID discovery.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { createInteractions } from './interactions.js';

export interface AuthHttpOptions {
  provider: Provider;
  demoPassword: string;
  onError?: (error: unknown) => void;
}

export function createAuthHttpServer({ provider, demoPassword, onError }: AuthHttpOptions): Server {
  const interactions = createInteractions({ provider, demoPassword });
  const oidc = provider.callback();
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
      interactions(req, res, path).catch((error: unknown) => {
        onError?.(error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
      });
      return;
    }
    oidc(req, res);
  });
}
