/**
 * @module api-access
 * Who may use the agent's HTTP API. With AGENT_API_TOKEN set, a caller either sends
 * `Authorization: Bearer <token>` or carries a session cookie, which a browser gets by opening the
 * one-time link the agent prints at start (`/?token=…`, as Jupyter does). Off loopback without it,
 * the entry makes one for the run (`generatesApiToken` in env.ts), which only the link lets a browser
 * use: the link carries a one-time token of its own, never the secret. On loopback without it, every
 * local caller may. Partner: `http-access.ts` puts this on the routes.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A browser session lasts a working day; then the person opens a fresh link. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Sessions come only from one-time links, so a few dozen is plenty; the oldest goes first. */
export const MAX_SESSIONS = 100;

/** Who sent a request, as rate limits and requests for input tell callers apart. Never a secret. */
export interface Caller {
  /** `bearer` (whoever holds the token), `session:<hash prefix>`, or `local` when no token is set. */
  id: string;
}

export interface ApiAccess {
  /** True when a token is in force (AGENT_API_TOKEN, or the run's own): every /api route then needs a caller. */
  readonly secured: boolean;
  /** The link token in force now: it works once, then the next one takes over (`onLinkToken`). */
  linkToken(): string | undefined;
  /** Trades a link token for a new session id; undefined when it is wrong or already used. */
  redeem(linkToken: string): string | undefined;
  /** The caller for this bearer token or session id, or undefined when neither is valid. */
  identify(credentials: { bearer?: string; session?: string }): Caller | undefined;
}

export interface ApiAccessOptions {
  /** AGENT_API_TOKEN; without it the API is open to whoever reaches it (loopback only). */
  token?: string;
  /** Hears every new one-time link token, so whoever runs the agent can print the link. */
  onLinkToken?: (token: string) => void;
  /** For tests; default Date.now. */
  now?: () => number;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

const newSecret = () => randomBytes(32).toString('base64url');

export function createApiAccess(options: ApiAccessOptions = {}): ApiAccess {
  const { token } = options;
  const now = options.now ?? Date.now;
  /** Session ids are kept hashed: a heap dump or a log of this map reveals no cookie. */
  const sessions = new Map<string, number>();
  let current: string | undefined;

  const nextLinkToken = () => {
    current = newSecret();
    options.onLinkToken?.(current);
  };
  if (token !== undefined) nextLinkToken();

  return {
    secured: token !== undefined,
    linkToken: () => current,
    redeem(linkToken) {
      if (current === undefined || !sameSecret(linkToken, current)) return undefined;
      nextLinkToken();
      const session = newSecret();
      for (const [key, expires] of sessions) if (expires <= now()) sessions.delete(key);
      while (sessions.size >= MAX_SESSIONS) {
        const oldest = sessions.keys().next().value;
        if (oldest === undefined) break;
        sessions.delete(oldest);
      }
      sessions.set(digest(session).toString('hex'), now() + SESSION_TTL_MS);
      return session;
    },
    identify({ bearer, session }) {
      if (token === undefined) return { id: 'local' };
      if (bearer !== undefined && sameSecret(bearer, token)) return { id: 'bearer' };
      if (session === undefined) return undefined;
      // A map lookup by hash: the id is 256 random bits, so timing reveals nothing usable.
      const key = digest(session).toString('hex');
      const expires = sessions.get(key);
      if (expires === undefined) return undefined;
      if (expires <= now()) {
        sessions.delete(key);
        return undefined;
      }
      return { id: `session:${key.slice(0, 16)}` };
    },
  };
}
