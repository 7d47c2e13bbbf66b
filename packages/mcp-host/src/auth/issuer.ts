/**
 * @module auth/issuer
 * Finds the authorization server's metadata at start-up, with the official SDK client's RFC 8414 /
 * OpenID Connect discovery (which also checks that the document's `issuer` is the one asked for).
 * A server that cannot find its issuer must not start: it would either refuse every token or,
 * worse, be tempted to accept them unchecked.
 */
import { buildDiscoveryUrls, discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';

export interface IssuerMetadata {
  /** The issuer as its metadata states it; tokens' `iss` must equal it. */
  issuer: string;
  jwksUri: URL;
  /** The whole discovery document, e.g. for logging what was found. */
  document: Record<string, unknown>;
}

export class IssuerDiscoveryError extends Error {
  override name = 'IssuerDiscoveryError';
}

/** How long each discovery request may take before start-up gives up. */
const DISCOVERY_TIMEOUT_MS = 10_000;

export async function discoverIssuer(
  issuerUrl: string,
  fetchFn: typeof fetch = fetch,
): Promise<IssuerMetadata> {
  const tried = buildDiscoveryUrls(issuerUrl)
    .map(({ url }) => url.href)
    .join(', ');
  const fail = (why: string): never => {
    throw new IssuerDiscoveryError(`MCP_AUTH_ISSUER=${issuerUrl}: ${why} (tried ${tried}).`);
  };
  let document: Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>;
  try {
    document = await discoverAuthorizationServerMetadata(issuerUrl, {
      fetchFn: (url, init) => fetchFn(url, { ...init, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) }),
    });
  } catch (error) {
    return fail(`discovery failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!document) return fail('no authorization server metadata was found');
  if (!document.jwks_uri) return fail('its metadata has no jwks_uri, so its tokens cannot be verified');
  let jwksUri: URL;
  try {
    jwksUri = new URL(document.jwks_uri);
  } catch {
    return fail(`its jwks_uri ${JSON.stringify(document.jwks_uri)} is not a URL`);
  }
  return { issuer: document.issuer, jwksUri, document: document as Record<string, unknown> };
}
