/**
 * @module auth/issuer
 * Finds the authorization server's metadata at start-up, with the official SDK client's RFC 8414 /
 * OpenID Connect discovery (which also checks that the document's `issuer` is the one asked for).
 * A server that cannot find its issuer must not start: it would either refuse every token or,
 * worse, be tempted to accept them unchecked. An issuer that does not answer *yet* (started in the
 * same breath, or restarting) is waited for, with backoff, for a bounded time.
 */
import type { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';

/** The client SDK's discovery, loaded only when sign-in is on: without it, a server never needs the client. */
type Discovery = Pick<
  typeof import('@modelcontextprotocol/client'),
  'buildDiscoveryUrls' | 'discoverAuthorizationServerMetadata'
>;

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

/** One wait before the next attempt, for the caller's log. */
export interface DiscoveryWait {
  issuerUrl: string;
  /** The attempt that just failed, from 1. */
  attempt: number;
  /** How long until the next one. */
  delayMs: number;
  /** Why the attempt failed, e.g. "fetch failed" or "HTTP 503". */
  reason: string;
}

export interface DiscoverIssuerOptions {
  fetchFn?: typeof fetch;
  /**
   * How long to keep trying an issuer that does not answer, or answers 5xx, before giving up;
   * 0 tries once. A wrong answer (404, metadata that doesn't parse, another issuer) fails at once.
   */
  deadlineMs?: number;
  /** At most this many attempts, whatever the deadline. */
  maxAttempts?: number;
  /** The first wait; each next one doubles, up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Told before each wait, so the server can log why it has not started yet. */
  onWait?: (wait: DiscoveryWait) => void;
  /** For tests: the clock and the sleep the waits use. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** An issuer started alongside this server needs a few seconds; half a minute covers a slow machine. */
export const DISCOVERY_DEADLINE_MS = 30_000;
/** The loop's hard bound, whatever the clock says: 250 ms doubling to 2 s reaches 30 s in 17 waits. */
const MAX_ATTEMPTS = 20;
const INITIAL_DELAY_MS = 250;
/** Short enough that a server starts within 2 s of its issuer. */
const MAX_DELAY_MS = 2_000;
/** How long each discovery request may take. */
const REQUEST_TIMEOUT_MS = 10_000;
/** A request near the deadline still gets this long, so the last attempt is a real one. */
const MIN_REQUEST_TIMEOUT_MS = 1_000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The issuer's metadata. An issuer that refuses connections, times out or answers 5xx is tried
 * again (250 ms, doubling to 2 s, for up to 30 s by default); anything else fails at once.
 */
export async function discoverIssuer(
  issuerUrl: string,
  options: DiscoverIssuerOptions = {},
): Promise<IssuerMetadata> {
  const {
    fetchFn = fetch,
    deadlineMs = DISCOVERY_DEADLINE_MS,
    maxAttempts = MAX_ATTEMPTS,
    initialDelayMs = INITIAL_DELAY_MS,
    maxDelayMs = MAX_DELAY_MS,
    onWait = () => {},
    now = Date.now,
    sleep = realSleep,
  } = options;
  const discovery: Discovery = await import('@modelcontextprotocol/client');
  const tried = discovery
    .buildDiscoveryUrls(issuerUrl)
    .map(({ url }) => url.href)
    .join(', ');
  const fail = (why: string, hint = ''): never => {
    throw new IssuerDiscoveryError(`MCP_AUTH_ISSUER=${issuerUrl}: ${why} (tried ${tried}).${hint}`);
  };
  const deadline = now() + deadlineMs;
  let delayMs = initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - now();
    const timeoutMs =
      deadlineMs > 0
        ? Math.min(REQUEST_TIMEOUT_MS, Math.max(remaining, MIN_REQUEST_TIMEOUT_MS))
        : REQUEST_TIMEOUT_MS;
    const outcome = await attemptDiscovery(discovery, issuerUrl, fetchFn, timeoutMs);
    if ('document' in outcome) return checkDocument(outcome.document, fail);
    const left = deadline - now();
    if (!outcome.retryable || attempt >= maxAttempts || left <= 0) {
      const hint = outcome.retryable
        ? ` Is the authorization server up? Nothing usable answered at ${issuerUrl} in ${attempt} attempt${attempt === 1 ? '' : 's'}.`
        : '';
      return fail(outcome.why, hint);
    }
    const wait = Math.min(delayMs, left);
    onWait({ issuerUrl, attempt, delayMs: wait, reason: outcome.reason });
    await sleep(wait);
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }
}

type Metadata = NonNullable<Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>>;
type Outcome = { document: Metadata } | { retryable: boolean; why: string; reason: string };

/**
 * One discovery. It may be retried only when nothing answered, a request timed out, or the issuer
 * answered 5xx: what the wrapped fetch saw says so, not the SDK's wording of the error.
 */
async function attemptDiscovery(
  discovery: Discovery,
  issuerUrl: string,
  fetchFn: typeof fetch,
  timeoutMs: number,
): Promise<Outcome> {
  let transient: string | undefined;
  const watched: typeof fetch = async (url, init) => {
    try {
      const response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      if (response.status >= 500) transient = `HTTP ${response.status}`;
      return response;
    } catch (error) {
      transient = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
  try {
    const document = await discovery.discoverAuthorizationServerMetadata(issuerUrl, { fetchFn: watched });
    if (document) return { document };
    return transient
      ? { retryable: true, why: `no metadata was found (${transient})`, reason: transient }
      : { retryable: false, why: 'no authorization server metadata was found', reason: 'not found' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      retryable: transient !== undefined,
      why: `discovery failed: ${message}`,
      reason: transient ?? message,
    };
  }
}

function checkDocument(document: Metadata, fail: (why: string) => never): IssuerMetadata {
  if (!document.jwks_uri) return fail('its metadata has no jwks_uri, so its tokens cannot be verified');
  let jwksUri: URL;
  try {
    jwksUri = new URL(document.jwks_uri);
  } catch {
    return fail(`its jwks_uri ${JSON.stringify(document.jwks_uri)} is not a URL`);
  }
  return { issuer: document.issuer, jwksUri, document: document as Record<string, unknown> };
}
