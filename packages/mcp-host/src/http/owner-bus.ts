/**
 * @module http/owner-bus
 * A `ServerEventBus` for `createMcpHandler` that delivers a server's notifications only to the owner's
 * `subscriptions/listen` streams. The SDK's default bus sends every event to every open stream,
 * which would tell every user about every other user's writes. The SDK's listen router calls
 * `subscribe()` synchronously while it serves the listen request, so the HTTP endpoint runs that
 * request inside {@link OwnerScopedEventBus.runAs} and each stream's listener is filed under the
 * caller's owner. `publish()` (owner-less events: tools or prompts list_changed) still reaches
 * every stream; `publishTo()` reaches only one owner's. A server feeds it through
 * `AppOptions.publishEvents`. Test: `owner-bus.test.ts`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

type Listener = (event: ServerEvent) => void;

/** The side of the bus a server publishes on (`AppOptions.publishEvents`). */
export interface OwnerEventBus {
  /** An event about no one's data (a tools or prompts list change): to every stream. */
  publish(event: ServerEvent): void;
  /** An event about `owner`'s data (`ownerOf`): only to the streams that owner opened. */
  publishTo(owner: string, event: ServerEvent): void;
  /** Whether `owner` has a stream open: an event that costs a read to build is only built then. */
  listening(owner: string): boolean;
}

export class OwnerScopedEventBus implements ServerEventBus, OwnerEventBus {
  readonly #current = new AsyncLocalStorage<string>();
  /** Every live listener, with the owner it was registered for (undefined: registered with none). */
  readonly #listeners = new Map<Listener, string | undefined>();
  readonly #onerror: ((error: Error) => void) | undefined;

  /** @param onerror Told about a listener that threw; the others still get the event. */
  constructor(onerror?: (error: Error) => void) {
    this.#onerror = onerror;
  }

  /** Runs `fn` (the serving of one request) as `owner`: a stream it opens hears `owner`'s events. */
  runAs<T>(owner: string, fn: () => T): T {
    return this.#current.run(owner, fn);
  }

  /**
   * Registers a listener for the owner of the request being served. One registered outside
   * {@link runAs} belongs to nobody and gets only owner-less events: failing closed.
   */
  subscribe(listener: Listener): () => void {
    // The same function subscribed twice would share one entry; wrapping keeps each its own.
    const own: Listener = (event) => listener(event);
    this.#listeners.set(own, this.#current.getStore());
    return () => {
      this.#listeners.delete(own);
    };
  }

  /** An event about no one's data (a tools or prompts list change): to every listener. */
  publish(event: ServerEvent): void {
    this.#deliver(event, () => true);
  }

  /** An event about `owner`'s data: only to the listeners registered as `owner`. */
  publishTo(owner: string, event: ServerEvent): void {
    this.#deliver(event, (listenerOwner) => listenerOwner === owner);
  }

  listening(owner: string): boolean {
    for (const listenerOwner of this.#listeners.values()) if (listenerOwner === owner) return true;
    return false;
  }

  /** Live listeners, for tests and introspection. */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  #deliver(event: ServerEvent, accepts: (owner: string | undefined) => boolean): void {
    // A snapshot, so a listener unsubscribing (itself or another) mid-delivery changes nothing here.
    for (const [listener, owner] of [...this.#listeners]) {
      if (!accepts(owner) || !this.#listeners.has(listener)) continue;
      try {
        listener(event);
      } catch (error) {
        this.#onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
