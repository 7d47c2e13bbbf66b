/**
 * @module mcp/person-sign-in
 * Signing in as a person: OAuth authorization code with PKCE, through the official SDK client's
 * `OAuthClientProvider`, with a loopback redirect (RFC 8252): a one-shot listener on 127.0.0.1 and
 * a port the OS picks. The SDK builds the authorization URL (PKCE challenge, resource, scope) and
 * exchanges the code; this module shows the link, waits for the browser to come back, checks
 * `state`, and hands the callback's parameters to the SDK.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '@mcp-workshop/shared';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** How long a person has to sign in before the agent gives up. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** The sign-in failed or was refused; the message says why, in words for the person. */
export class SignInError extends Error {
  override name = 'SignInError';
}

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
}

export interface LoopbackCallback {
  /** e.g. http://127.0.0.1:53124/callback */
  redirectUrl: string;
  /** The callback's query once the browser brings back `state`; rejects on an error or the timeout. */
  next(state: string, timeoutMs?: number, signal?: AbortSignal): Promise<URLSearchParams>;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 for the browser's return from the authorization server. */
export async function startLoopbackCallback(): Promise<LoopbackCallback> {
  let waiting:
    | { state: string; resolve(params: URLSearchParams): void; reject(error: Error): void }
    | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (status: number, title: string, text: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'",
      });
      res.end(page(title, text));
    };
    if (req.method !== 'GET' || url.pathname !== '/callback')
      return answer(404, 'Not found', 'Nothing here.');
    const params = url.searchParams;
    // A callback for another sign-in (or a forged one) must not complete this one.
    if (!waiting || params.get('state') !== waiting.state) {
      return answer(
        400,
        'Not this sign-in',
        'This page does not belong to the sign-in the agent is waiting for.',
      );
    }
    const current = waiting;
    waiting = undefined;
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description') ?? error;
      answer(200, 'Sign-in failed', `The authorization server said: ${description}. You can close this tab.`);
      current.reject(new SignInError(`Sign-in failed: ${description.slice(0, 300)}`));
      return;
    }
    if (!params.get('code')) {
      answer(400, 'Sign-in failed', 'The authorization server sent no code.');
      current.reject(new SignInError('Sign-in failed: the authorization server sent no code.'));
      return;
    }
    answer(200, 'Signed in', 'You are signed in. You can close this tab and go back to the agent.');
    current.resolve(params);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    next(state, timeoutMs = SIGN_IN_TIMEOUT_MS, signal) {
      return new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(
          () => fail(new SignInError(`Nobody signed in within ${Math.round(timeoutMs / 1000)} s.`)),
          timeoutMs,
        );
        const onAbort = () =>
          fail(signal?.reason instanceof Error ? signal.reason : new SignInError('Sign-in cancelled.'));
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const fail = (error: Error) => {
          done();
          waiting = undefined;
          reject(error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting = {
          state,
          resolve: (params) => {
            done();
            resolve(params);
          },
          reject: fail,
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface PersonSignInOptions {
  /**
   * A public client registered with the authorization server, e.g. `workshop-chat`. Without it the
   * SDK registers one (dynamic client registration, RFC 7591) when the authorization server offers it.
   */
  clientId?: string;
  /** The authorization server the client is registered with; nothing is sent to any other. */
  issuer: string;
  scope?: string;
  redirectUrl: string;
  /** Shows the person the link to open. */
  onSignInUrl(url: URL): void;
}

/** The SDK's OAuth client provider for a public client and one person, kept in memory. */
export class PersonSignIn implements OAuthClientProvider {
  #tokens: StoredOAuthTokens | undefined;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  #registered: StoredOAuthClientInformation | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #redirected = false;
  readonly #options: PersonSignInOptions;

  constructor(options: PersonSignInOptions) {
    this.#options = options;
  }

  get redirectUrl(): string {
    return this.#options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'mcp-workshop agent',
      redirect_uris: [this.#options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.#options.scope && { scope: this.#options.scope }),
    };
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  /** The `state` of the last authorization URL, which the callback must bring back. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  /** The pre-registered client, or the one the SDK registered; undefined makes the SDK register. */
  clientInformation(): StoredOAuthClientInformation | undefined {
    if (!this.#options.clientId) return this.#registered;
    return {
      client_id: this.#options.clientId,
      issuer: this.#options.issuer,
    } as StoredOAuthClientInformation;
  }

  /** Keeps a dynamically registered client for this process only, like the tokens. */
  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.#registered = information;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.#redirected = true;
    this.#options.onSignInUrl(authorizationUrl);
  }

  /** Whether the SDK sent the person to sign in since the last call; clears the flag. */
  takeRedirect(): boolean {
    const redirected = this.#redirected;
    this.#redirected = false;
    return redirected;
  }

  /**
   * The authorization server this sign-in started with (SEP-2352): the SDK checks the callback
   * against it, so a code can't be redeemed at a server other than the one that issued it.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#codeVerifier) throw new SignInError('No sign-in was started.');
    return this.#codeVerifier;
  }

  /** Who is signed in: the access token's `sub`, read (not verified) for display only. */
  signedInAs(): string | undefined {
    const token = this.#tokens?.access_token;
    const payload = token?.split('.')[1];
    if (!payload) return undefined;
    try {
      const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
      return typeof sub === 'string' ? sub : undefined;
    } catch {
      return undefined;
    }
  }
}
