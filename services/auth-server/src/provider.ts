/**
 * @module provider
 * The oidc-provider configuration: what this development authorization server does, in one place.
 * - RFC 8707 resource indicators: tokens are issued for one of the configured MCP servers and
 *   carry it as their audience; any other `resource` is refused with `invalid_target`.
 * - RFC 9068 JWT access tokens (`typ: at+jwt`), signed with an RS256 key made at start-up.
 * - client credentials for machines; authorization code with PKCE (S256, required) and refresh
 *   tokens for people.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, errors } from 'oidc-provider';
import { type ClientSecrets, resourceScopesFor, SCOPES, workshopClients } from './clients.js';

export interface ProviderOptions {
  issuer: string;
  /** MCP servers tokens may be issued for; the first is the default when a client names none. */
  resources: readonly string[];
  accessTokenTtlSeconds: number;
  secrets: ClientSecrets;
  /** The people who may sign in; each one's user name is their tokens' `sub`. */
  accounts: readonly string[];
}

/** How long a sign-in page stays valid, and how long a person stays signed in here. */
const INTERACTION_TTL_SECONDS = 600;
const SESSION_TTL_SECONDS = 8 * 3600;

export async function createProvider(options: ProviderOptions): Promise<Provider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: `workshop-${randomBytes(6).toString('hex')}`,
    alg: 'RS256',
    use: 'sig',
  };
  const defaultResource = options.resources[0];
  if (!defaultResource)
    throw new Error('MCP_RESOURCE_URL: name at least one MCP server tokens may be issued for.');

  const configuration: Configuration = {
    clients: workshopClients(options.secrets),
    jwks: { keys: [signingKey] },
    scopes: [...SCOPES],
    claims: { openid: ['sub'] },
    // Cookie signing keys: made per start, so a restart signs everyone out (fine for development).
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // OAuth 2.1: the code flow only (no implicit, no hybrid).
    responseTypes: ['code'],
    pkce: { required: () => true },
    ttl: {
      Interaction: INTERACTION_TTL_SECONDS,
      Session: SESSION_TTL_SECONDS,
      Grant: SESSION_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: 24 * 3600,
      IdToken: 3600,
      AccessToken: options.accessTokenTtlSeconds,
      ClientCredentials: options.accessTokenTtlSeconds,
    },
    findAccount: (_ctx, id) =>
      options.accounts.includes(id) ? { accountId: id, claims: () => ({ sub: id }) } : undefined,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the first configured one.
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? defaultResource,
        // The code flow's token request may omit `resource`: use the one the person consented to.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator, client) => {
          if (!options.resources.includes(resourceIndicator)) throw new errors.InvalidTarget();
          return {
            // What this client may have here; a token carries what it asked for, narrowed to this.
            scope: resourceScopesFor(client.clientId),
            audience: resourceIndicator,
            accessTokenTTL: options.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // The consent a person gave covers later sign-ins of the same client.
    loadExistingGrant: async (ctx) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client?.clientId ?? '');
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // Browser-based clients (MCP Inspector, a local web chat) call the token endpoint from their page:
    // allowed for the public clients, from loopback origins only.
    clientBasedCORS: (_ctx, origin, client) =>
      client.tokenEndpointAuthMethod === 'none' && isLoopbackOrigin(origin),
    renderError: (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = { error: out.error, error_description: out.error_description };
    },
  };
  return new Provider(options.issuer, configuration);
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const { protocol, hostname } = new URL(origin);
    return protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
  } catch {
    return false;
  }
}
