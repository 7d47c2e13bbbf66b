/**
 * @module http/client-shares
 * Fair shares of something every client wants a piece of (open sessions, long-lived streams): a
 * global cap that protects the process, and a smaller per-client cap below it, so one client that
 * opens everything it can locks only itself out. A client is the request reading's `clientKey`:
 * the signed-in subject and client id, else the address. Test: `client-shares.test.ts`.
 */
import type { Logger } from '../logger.js';

/** Why a share was refused: the client's own share is used up, or the whole server is full. */
export type ShareRefusal = 'client' | 'global';

export class ClientShares {
  readonly #byClient = new Map<string, number>();
  #total = 0;

  constructor(
    readonly perClient: number,
    readonly total: number,
  ) {}

  /** How many pieces are held now, in all and by one client. */
  held(clientKey?: string): number {
    return clientKey === undefined ? this.#total : (this.#byClient.get(clientKey) ?? 0);
  }

  /** Why `clientKey` may not take one more piece now, or undefined when it may. */
  refusal(clientKey: string): ShareRefusal | undefined {
    // The client's own share first: a client over its share hears 429 (its doing), never 503.
    if (this.held(clientKey) >= this.perClient) return 'client';
    if (this.#total >= this.total) return 'global';
    return undefined;
  }

  /** Takes one piece for `clientKey`; the returned function gives it back (once, however often called). */
  take(clientKey: string): ShareRefusal | (() => void) {
    const refused = this.refusal(clientKey);
    if (refused) return refused;
    this.#byClient.set(clientKey, this.held(clientKey) + 1);
    this.#total += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#total -= 1;
      const left = this.held(clientKey) - 1;
      if (left > 0) this.#byClient.set(clientKey, left);
      else this.#byClient.delete(clientKey);
    };
  }
}

/**
 * A client's share of something capped in all (sessions, streams). Set: at most the cap, or a
 * configuration error. Unset: the default, but never more than half the cap, so one client that
 * takes all it may still leaves the other half to everyone else; logged once when lowered.
 */
export function shareUnder(
  share: { name: string; value: number | undefined },
  defaultShare: number,
  cap: { name: string; value: number },
  logger: Logger,
): number {
  if (share.value !== undefined) {
    if (share.value > cap.value) {
      throw new RangeError(
        `${share.name} (${share.value}) is above ${cap.name} (${cap.value}): one client could take every place.`,
      );
    }
    return share.value;
  }
  const half = Math.max(1, Math.floor(cap.value / 2));
  if (half >= defaultShare) return defaultShare;
  logger.info(
    { [share.name]: half, [cap.name]: cap.value, default: defaultShare },
    `${share.name} is ${half}, half of ${cap.name}, since ${cap.name} is below twice its default`,
  );
  return half;
}
