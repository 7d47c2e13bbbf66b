/**
 * @module http/server-pool
 * Reuses built `McpServer` instances across requests that are each served by one instance:
 * 2026-07-28 requests and stateless 2025 requests. The SDK asks its factory for a new instance
 * per request; building one (tools, resources, prompts, schemas) costs far more than the call it
 * serves. An instance is lent to one request at a time and only comes back when that request's
 * response has finished and the SDK has disconnected it, so nothing of one exchange (a late
 * log, progress, a cancellation) can reach another. An aborted request's instance is dropped, and
 * so is every instance of a catalogue that was reloaded (`retire`).
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** Instances kept idle per pool; beyond it, a returned instance is left to the GC. */
export const MAX_IDLE_SERVERS = 128;

export class ServerPool {
  #idle: McpServer[] = [];
  /** The instances built since the last `retire`: only they may come back. */
  #current = new WeakSet<McpServer>();
  readonly #build: () => McpServer;
  readonly #maxIdle: number;
  #built = 0;

  constructor(build: () => McpServer, maxIdle = MAX_IDLE_SERVERS) {
    this.#build = build;
    this.#maxIdle = maxIdle;
  }

  /** An idle instance, or a new one. It belongs to the caller until `release`. */
  acquire(): McpServer {
    const server = this.#idle.pop();
    if (server) return server;
    this.#built++;
    const built = this.#build();
    this.#current.add(built);
    return built;
  }

  /** Takes an instance back, unless it is still connected to an exchange or the pool is full. */
  release(server: McpServer): void {
    if (!this.#current.has(server)) return;
    if (server.server.transport !== undefined || this.#idle.length >= this.#maxIdle) return;
    this.#idle.push(server);
  }

  /**
   * Forgets every instance built so far (the factory now builds another catalogue): idle ones are
   * dropped, and ones still lent out are not taken back when their exchange ends.
   */
  retire(): void {
    this.#idle = [];
    this.#current = new WeakSet();
  }

  /** For tests and the bench: instances built so far, and instances waiting. */
  stats(): { built: number; idle: number } {
    return { built: this.#built, idle: this.#idle.length };
  }
}
