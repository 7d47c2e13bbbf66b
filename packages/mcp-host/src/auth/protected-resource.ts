/**
 * @module auth/protected-resource
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): the document a client reads after a 401 to
 * learn which authorization server to ask and for which scopes. Served at the path-aware URL
 * (`/.well-known/oauth-protected-resource/mcp` for `…/mcp`) and at the root one, with CORS open
 * to any origin on these GETs only, so browser-based clients can read it.
 */
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import { type RequestHandler, Router } from 'express';

export interface ProtectedResourceOptions {
  /** `MCP_RESOURCE_URL`: this server's canonical URL. */
  resource: string;
  issuer: string;
  scopesSupported: readonly string[];
  resourceName: string;
  /** Where a person reads how to connect (served by `scopesDocument` below unless overridden). */
  documentationUrl: string;
}

const ROOT_PATH = '/.well-known/oauth-protected-resource';

/** The absolute URL of the path-aware metadata document, as 401 challenges cite it. */
export function protectedResourceMetadataUrl(resource: string): string {
  return getOAuthProtectedResourceMetadataUrl(new URL(resource));
}

export function protectedResourceDocument(options: ProtectedResourceOptions): Record<string, unknown> {
  return {
    resource: options.resource,
    authorization_servers: [options.issuer],
    scopes_supported: [...options.scopesSupported],
    bearer_methods_supported: ['header'],
    resource_name: options.resourceName,
    resource_documentation: options.documentationUrl,
  };
}

const openCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'MCP-Protocol-Version');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
};

export function protectedResourceRouter(options: ProtectedResourceOptions): Router {
  const document = JSON.stringify(protectedResourceDocument(options));
  const paths = [...new Set([new URL(protectedResourceMetadataUrl(options.resource)).pathname, ROOT_PATH])];
  const router = Router();
  for (const path of paths) {
    router.options(path, openCors);
    router.get(path, openCors, (_req, res) => {
      res.type('application/json').setHeader('Cache-Control', 'public, max-age=300');
      res.send(document);
    });
    router.all(path, (_req, res) => {
      res.setHeader('Allow', 'GET, OPTIONS');
      res.status(405).json({ error: 'method_not_allowed', error_description: 'Use GET.' });
    });
  }
  return router;
}
