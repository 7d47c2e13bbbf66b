/**
 * @module http/sessions
 * Live 2025-era Streamable HTTP sessions. The SDK never expires a session by itself, so this
 * registry does: a session with no request in flight and no request for `ttlMs` is closed, and
 * the number of live sessions is capped so a client that never says goodbye cannot exhaust memory.
 */
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.js';

export interface Session {
  readonly id: string;
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: McpServer;
  lastSeen: number;
  /** Requests (including open GET streams) currently being served; a busy session is never idle. */
  inFlight: number;
  /**
   * The OAuth subject (`sub`) whose token opened the session, when sign-in is on. A session id is
   * not a credential: requests on it must come with a token for the same subject.
   */
  readonly subject: string | undefined;
}

export interface SessionRegistryOptions {
  ttlMs: number;
  maxSessions: number;
  logger: Logger;
  now?: () => number;
}

/** How often idle sessions are looked for, at most; short TTLs (tests) are swept more often. */
const MAX_SWEEP_INTERVAL_MS = 30_000;

export class SessionRegistry {
  readonly #sessions = new Map<string, Session>();
  readonly #options: Required<SessionRegistryOptions>;
  readonly #timer: NodeJS.Timeout;

  constructor(options: SessionRegistryOptions) {
    this.#options = { now: Date.now, ...options };
    const every = Math.max(50, Math.min(MAX_SWEEP_INTERVAL_MS, Math.floor(options.ttlMs / 2)));
    // unref: a pending sweep must never keep the process (or a test run) alive.
    this.#timer = setInterval(() => void this.sweep(), every).unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** True when one more session may be opened (after closing any that expired). */
  async hasRoom(): Promise<boolean> {
    if (this.#sessions.size < this.#options.maxSessions) return true;
    await this.sweep();
    return this.#sessions.size < this.#options.maxSessions;
  }

  add(
    transport: NodeStreamableHTTPServerTransport,
    server: McpServer,
    id: string,
    subject?: string,
  ): Session {
    const session: Session = { id, transport, server, lastSeen: this.#options.now(), inFlight: 0, subject };
    this.#sessions.set(id, session);
    this.#options.logger.debug({ sessionId: id, live: this.#sessions.size }, 'session opened');
    return session;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** Marks a request as started on a session; call the returned function when it ends. */
  track(session: Session): () => void {
    session.inFlight += 1;
    session.lastSeen = this.#options.now();
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
    if (this.#sessions.delete(id)) {
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
  async closeAll(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([...this.#sessions.values()].map((session) => this.#close(session, 'shutdown')));
  }

  async #close(session: Session, reason: string): Promise<void> {
    this.#sessions.delete(session.id);
    this.#options.logger.info({ sessionId: session.id, reason }, 'closing session');
    try {
      await session.transport.close();
      await session.server.close();
    } catch (error) {
      this.#options.logger.warn({ err: error, sessionId: session.id }, 'error while closing a session');
    }
  }
}
