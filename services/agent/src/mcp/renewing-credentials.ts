/**
 * @module mcp/renewing-credentials
 * The SDK's client-credentials provider, plus renewal before expiry: the SDK asks for a new token
 * only after the server has refused the old one with a 401, which costs every long-running agent
 * one failed request per token lifetime. This renews while the old token is still good.
 * Test: `oauth.test.ts` ("renews the token before it expires").
 */
import { auth, ClientCredentialsProvider, type StoredOAuthTokens } from '@modelcontextprotocol/client';

/**
 * Renew this long before expiry, or half the lifetime before it for a token that lives less than
 * two minutes: enough for a slow authorization server, without renewing an hour-long token early.
 */
export const RENEW_AT_MOST_MS_BEFORE_EXPIRY = 60_000;

export interface RenewingCredentialsOptions {
  clientId: string;
  clientSecret: string;
  /** The authorization server the secret may be sent to, and no other. */
  issuer: string;
  scope?: string;
  /** The MCP server the tokens are for; renewal runs the SDK's discovery against it. */
  serverUrl: string;
  now?: () => number;
}

export class RenewingClientCredentials extends ClientCredentialsProvider {
  readonly #serverUrl: string;
  readonly #now: () => number;
  #renewAt: number | undefined;
  #renewing: Promise<unknown> | undefined;

  constructor(options: RenewingCredentialsOptions) {
    super({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      expectedIssuer: options.issuer,
      ...(options.scope && { scope: options.scope }),
    });
    this.#serverUrl = options.serverUrl;
    this.#now = options.now ?? Date.now;
  }

  override saveTokens(tokens: StoredOAuthTokens): void {
    // The SDK saves the same token again to record its issuer; its lifetime did not restart then.
    const same = tokens.access_token === super.tokens()?.access_token;
    super.saveTokens(tokens);
    if (same) return;
    const lifetimeMs = (tokens.expires_in ?? 0) * 1000;
    this.#renewAt =
      lifetimeMs > 0
        ? this.#now() + lifetimeMs - Math.min(lifetimeMs / 2, RENEW_AT_MOST_MS_BEFORE_EXPIRY)
        : undefined;
  }

  /** Called by the transport before every request: renews first when the token is due. */
  override tokens(): StoredOAuthTokens | undefined {
    const current = super.tokens();
    if (!current || this.#renewAt === undefined || this.#now() < this.#renewAt) {
      return current;
    }
    // auth() reads tokens() itself, maybe before its first await: clearing #renewAt first makes
    // that inner read return the current token instead of starting another renewal.
    this.#renewAt = undefined;
    this.#renewing = auth(this, {
      serverUrl: this.#serverUrl,
      // Without it the SDK sees a token and is satisfied.
      forceReauthorization: true,
      ...(current.scope && { scope: current.scope }),
    })
      .catch(() => {
        // The old token is still valid; the SDK's 401 path gets a new one once it is not.
      })
      .finally(() => {
        this.#renewing = undefined;
      });
    return current;
  }

  /** Resolves when a renewal in flight (if any) has finished; for tests and orderly shutdown. */
  async settled(): Promise<void> {
    await this.#renewing;
  }
}
