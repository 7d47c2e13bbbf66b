/**
 * @module http/sessions
 * Live 2025-era Streamable HTTP sessions. The SDK never expires a session by itself, so this
 * registry does: a session with no POST in flight whose client sent nothing for `ttlMs` is
 * closed, GET stream or not (an open stream is not a client still there: it would keep the
 * session, and its share, forever). The number of live sessions is capped twice: per client
 * (429, its own doing) and in all (503), so one client that never says goodbye locks out only itself.
 */
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.js';
import { ClientShares, type ShareRefusal } from './client-shares.js';

export interface Session {
  readonly id: string;
  readonly transport: NodeStreamableHTTPServerTransport;
  /** The instance serving the session; a reload (`session-swap.ts`) moves the session onto a new one. */
  server: McpServer;
  /** When the client last sent a request on the session. */
  lastSeen: number;
  /** POSTs being served now; a session busy answering is never idle. Streams don't count. */
  inFlight: number;
  /**
   * Whose data the session touches (`ownerOf` of the token that opened it; `''` with sign-in off)
   * and that token's client id. A session id is not a credential: requests on it must come with a
   * token for the same owner and client, the very key the data is filed under.
   */
  readonly owner: string;
  readonly clientId: string | undefined;
  /** The request reading's client key: whose share of sessions this one is. */
  readonly clientKey: string;
  /**
   * Every scope a request on this session needed. A client replaying the session's stored
   * events (`Last-Event-ID`) must hold them all: those events are the answers to such requests.
   */
  readonly scopesUsed: Set<string>;
  /** Gives the session's share back; called once it is forgotten. */
  readonly release: () => void;
}

export interface SessionRegistryOptions {
  ttlMs: number;
  maxSessions: number;
  /** Sessions one client may hold at once; defaults to `maxSessions`. */
  maxSessionsPerClient?: number;
  logger: Logger;
  now?: () => number;
}

/** How often idle sessions are looked for, at most; short TTLs (tests) are swept more often. */
const MAX_SWEEP_INTERVAL_MS = 30_000;

export class SessionRegistry {
  readonly #sessions = new Map<string, Session>();
  readonly #options: Required<SessionRegistryOptions>;
  readonly #timer: NodeJS.Timeout;
  readonly #shares: ClientShares;

  constructor(options: SessionRegistryOptions) {
    this.#options = { now: Date.now, maxSessionsPerClient: options.maxSessions, ...options };
    this.#shares = new ClientShares(this.#options.maxSessionsPerClient, this.#options.maxSessions);
    const every = Math.max(50, Math.min(MAX_SWEEP_INTERVAL_MS, Math.floor(options.ttlMs / 2)));
    // unref: a pending sweep must never keep the process (or a test run) alive.
    this.#timer = setInterval(() => void this.sweep(), every).unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The caps, for the words of a refusal. */
  get maxSessions(): number {
    return this.#options.maxSessions;
  }

  get maxPerClient(): number {
    return this.#options.maxSessionsPerClient;
  }

  /** How many sessions `clientKey` holds now. */
  heldBy(clientKey: string): number {
    return this.#shares.held(clientKey);
  }

  /**
   * Why `clientKey` may not open one more session (after closing any that expired), or undefined
   * when it may. Checked before a session is built; `add` takes the share once the SDK names it.
   */
  async refusal(clientKey: string): Promise<ShareRefusal | undefined> {
    if (this.#shares.refusal(clientKey) === undefined) return undefined;
    await this.sweep();
    return this.#shares.refusal(clientKey);
  }

  add(
    transport: NodeStreamableHTTPServerTransport,
    server: McpServer,
    id: string,
    owner: { owner: string; clientId: string | undefined; clientKey: string },
  ): Session {
    const taken = this.#shares.take(owner.clientKey);
    // Two initializes of one client racing past `refusal` can land here; the cap is a bound, not a
    // promise, so the late one is still admitted rather than torn down mid-handshake.
    const release = typeof taken === 'function' ? taken : () => {};
    const session: Session = {
      id,
      transport,
      server,
      lastSeen: this.#options.now(),
      inFlight: 0,
      owner: owner.owner,
      clientId: owner.clientId,
      clientKey: owner.clientKey,
      scopesUsed: new Set(),
      release,
    };
    this.#sessions.set(id, session);
    this.#options.logger.debug({ sessionId: id, live: this.#sessions.size }, 'session opened');
    return session;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /**
   * Marks a client request on a session: the TTL counts from here. A POST is in flight until the
   * returned function is called; a GET stream is not, so it cannot keep the session alive alone.
   */
  track(session: Session, kind: 'post' | 'stream' = 'post'): () => void {
    session.lastSeen = this.#options.now();
    if (kind === 'stream') return () => {};
    session.inFlight += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.inFlight -= 1;
      session.lastSeen = this.#options.now();
    };
  }

  /** Forgets a session; called from the transport's `onclose`, so DELETE and expiry both land here. */
  remove(id: string): void {
    const session = this.#sessions.get(id);
    if (session && this.#sessions.delete(id)) {
      session.release();
      this.#options.logger.debug({ sessionId: id, live: this.#sessions.size }, 'session closed');
    }
  }

  /** Closes every session idle for longer than the TTL. Returns how many were closed. */
  async sweep(): Promise<number> {
    const cutoff = this.#options.now() - this.#options.ttlMs;
    const idle = [...this.#sessions.values()].filter((s) => s.inFlight === 0 && s.lastSeen <= cutoff);
    await Promise.all(idle.map((session) => this.#close(session, 'idle timeout')));
    return idle.length;
  }

  /** Closes everything; used on shutdown. */
  /** Every live session, for a reload to move onto a new catalogue. */
  live(): Session[] {
    return [...this.#sessions.values()];
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([...this.#sessions.values()].map((session) => this.#close(session, 'shutdown')));
  }

  async #close(session: Session, reason: string): Promise<void> {
    this.#sessions.delete(session.id);
    session.release();
    this.#options.logger.info({ sessionId: session.id, reason }, 'closing session');
    try {
      await session.transport.close();
      await session.server.close();
    } catch (error) {
      this.#options.logger.warn({ err: error, sessionId: session.id }, 'error while closing a session');
    }
  }
}
