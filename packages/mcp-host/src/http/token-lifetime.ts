/**
 * @module http/token-lifetime
 * A long-lived response (a 2025 GET stream, a 2026-07-28 `subscriptions/listen` stream, a 2025 call
 * waiting on its client) ends when
 * the token that opened it expires, with the same clock tolerance the token check allows. The
 * client sees its stream end and reconnects with a fresh token; a revoked or narrowed grant
 * therefore stops reaching it within one token lifetime. Test: `token-lifetime.test.ts`.
 */
import type { ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** setTimeout's own ceiling (about 24.8 days); a later expiry is re-armed when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TokenClock {
  /** The clock tokens are checked against (a test clock in tests). */
  now: () => Date;
  /** The tolerance the verifier allows past `exp`. */
  toleranceSeconds: number;
}

/**
 * Ends `res` once `auth`'s token is past its expiry plus the tolerance, calling `onExpire` first
 * (a waiting call cancels its work there). Does nothing without a token or an `exp` (sign-in off).
 * The timer goes when the response closes first.
 */
export function endWithToken(
  res: ServerResponse,
  auth: AuthInfo | undefined,
  clock: TokenClock,
  onExpire?: () => void,
): void {
  if (auth?.expiresAt === undefined) return;
  const deadline = (auth.expiresAt + clock.toleranceSeconds) * 1000;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = deadline - clock.now().getTime();
    if (left <= 0) {
      onExpire?.();
      // end(), not destroy(): the client reads a cleanly finished stream and reconnects.
      if (!res.writableEnded) res.end();
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    // A stream waiting for its token to expire must not keep the process (or a test run) alive.
    timer.unref();
  };
  res.once('close', () => clearTimeout(timer));
  arm();
}
