/**
 * @module http/client-shares
 * Fair shares of something every client wants a piece of (open sessions, long-lived streams): a
 * global cap that protects the process, and a smaller per-client cap below it, so one client that
 * opens everything it can locks only itself out. A client is the request reading's `clientKey`:
 * the signed-in subject and client id, else the address. Test: `client-shares.test.ts`.
 */

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
