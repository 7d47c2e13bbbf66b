/**
 * @module auth/resource-server
 * Everything that makes this server an OAuth 2.1 resource server, in one factory that `createApp`
 * mounts when `MCP_AUTH_ISSUER` is set: the metadata documents, the token check, and the scope
 * checks for `/mcp` and the curl path, both from the request's one reading.
 */
import type { RequestHandler, Router } from 'express';
import type { FailureBudget } from '../http/rate-limits.js';
import { readingOf } from '../http/request-reading.js';
import type { Logger } from '../logger.js';
import { authenticate, requireScopes } from './guard.js';
import type { IssuerMetadata } from './issuer.js';
import { protectedResourceMetadataUrl, protectedResourceRouter } from './protected-resource.js';
import { type ScopePolicy, scopesForReading } from './scopes.js';
import { createTokenVerifier } from './token-verifier.js';

export interface ResourceServerOptions {
  issuer: IssuerMetadata;
  /** `MCP_RESOURCE_URL`, e.g. http://127.0.0.1:3000/mcp: the `resource` and the audience tokens must carry. */
  resource: string;
  logger: Logger;
  /** The server's name, in the metadata (`resource_name`) and on the sign-in page. */
  name: string;
  /** Which tool, prompt and resource needs which scope. */
  policy: ScopePolicy;
  /** Where the metadata sends people to read how to sign in; defaults to this server's `/docs/auth`. */
  documentationUrl?: string;
  /** For tests: the clock tokens are checked against. */
  now?: () => Date;
  /** The per-address budget for failed sign-ins (`MCP_AUTH_FAILURE_LIMIT_PER_MINUTE`); none when absent. */
  failures?: FailureBudget | undefined;
}

export interface ResourceServer {
  /** Public: protected-resource metadata (CORS open) and the sign-in page. Mount before `authenticate`. */
  metadata: Router;
  authenticate: RequestHandler;
  /**
   * On `/mcp` and `POST /tools/:name`, after the request was read: the scopes its messages need,
   * from the request's one reading (`http/request-reading.ts`).
   */
  scopes: RequestHandler;
  /** The policy in force: the one handed over at start, or at the last {@link usePolicy}. */
  readonly policy: ScopePolicy;
  /**
   * Checks every request from now on against `next` (a reload that changed which scope a tool,
   * prompt or resource needs). The scopes published in the metadata and in 401 challenges stay
   * those of the start: a scope name the server did not know then needs a restart to be offered.
   */
  usePolicy(next: ScopePolicy): void;
  resourceMetadataUrl: string;
}

export function createResourceServer(options: ResourceServerOptions): ResourceServer {
  const { issuer, resource, logger, name } = options;
  let policy = options.policy;
  const resourceMetadataUrl = protectedResourceMetadataUrl(resource);
  const documentationUrl = options.documentationUrl ?? new URL('/docs/auth', resource).href;
  const verify = createTokenVerifier({
    issuer: issuer.issuer,
    jwksUri: issuer.jwksUri,
    resource,
    now: options.now,
  });
  const metadata = protectedResourceRouter({
    resource,
    issuer: issuer.issuer,
    scopesSupported: policy.supported,
    resourceName: name,
    documentationUrl,
  });
  metadata.get('/docs/auth', (_req, res) => {
    res.type('text/plain').send(signInGuide(name, issuer.issuer, resource, policy));
  });
  const settings = {
    verify,
    resourceMetadataUrl,
    scopesSupported: policy.supported,
    logger,
    failures: options.failures,
  };
  return {
    metadata,
    authenticate: authenticate(settings),
    scopes: requireScopes(settings, (req) => scopesForReading(readingOf(req), policy)),
    get policy() {
      return policy;
    },
    usePolicy(next) {
      policy = next;
    },
    resourceMetadataUrl,
  };
}

/** A plain-text page for people: who issues tokens, and which scope each tool, prompt and resource needs. */
function signInGuide(name: string, issuer: string, resource: string, policy: ScopePolicy): string {
  const rows = (kind: string, entries: ReadonlyMap<string, readonly string[]>) =>
    [...entries].map(
      ([name, scopes]) => `  ${kind} ${name}: ${scopes.length ? scopes.join(' ') : 'any valid token'}`,
    );
  return [
    `${name} is an OAuth 2.1 protected resource.`,
    '',
    `Resource (the audience your token must carry): ${resource}`,
    `Authorization server: ${issuer}`,
    `Send: Authorization: Bearer <access token>, on every request to ${resource}`,
    '',
    'Scopes needed:',
    ...rows('tool', policy.tools),
    ...rows('prompt', policy.prompts),
    ...[...policy.resourceSchemes].map(
      ([scheme, scopes]) => `  resources ${scheme}://…: ${scopes.join(' ')}`,
    ),
    '  everything else (initialize, lists, other resources): any valid token',
    '',
  ].join('\n');
}
