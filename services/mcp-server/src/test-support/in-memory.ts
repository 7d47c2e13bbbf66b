/**
 * @module test-support/in-memory
 * Connects the official MCP client to a fresh server over an in-process transport, so tool
 * tests exercise the same validation and wire shapes as a real client, without a socket.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createSilentLogger } from '../logger.js';
import { createMcpServer } from '../server.js';
import type { ToolDeps } from '../tools/deps.js';

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** Opens a client on a new server built from `deps`. Always `await close()` (use afterEach). */
export async function connectInMemory(deps: ToolDeps): Promise<Connected> {
  const server = createMcpServer(deps);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'workshop-test', version: '0.0.0' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Deps that fail loudly if a test touches something it did not set up. */
export function testDeps(overrides: Partial<ToolDeps> = {}): ToolDeps {
  const unset = (what: string) =>
    new Proxy({} as never, {
      get() {
        throw new Error(`This test did not provide deps.${what}`);
      },
    });
  return {
    weather: overrides.weather ?? unset('weather'),
    tasks: overrides.tasks ?? unset('tasks'),
    now: overrides.now ?? (() => new Date('2026-07-28T12:00:00Z')),
    logger: overrides.logger ?? createSilentLogger(),
  };
}
