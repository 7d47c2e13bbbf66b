/**
 * @module test-support/in-memory
 * Connects the official MCP client to a fresh server over an in-process transport, so tool
 * tests exercise the same validation and wire shapes as a real client, without a socket.
 */
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { connectInProcess, type InProcessConnection } from '../in-process.js';
import { createSilentLogger } from '../logger.js';
import { createMcpServer, type McpServerOptions } from '../server.js';
import { createTaskEvents } from '../tasks/events.js';
import type { ToolDeps } from '../tools/deps.js';

export type Connected = InProcessConnection;

export interface ConnectOptions {
  /** Passed to `createMcpServer`, e.g. `{ conformance: true }`. */
  server?: McpServerOptions;
  /** Passed to the `Client`, e.g. `{ capabilities: { elicitation: {} } }`. */
  client?: ClientOptions;
}

/** Opens a client on a new server built from `deps`. Always `await close()` (use afterEach). */
export async function connectInMemory(deps: ToolDeps, options: ConnectOptions = {}): Promise<Connected> {
  return connectInProcess(
    createMcpServer(deps, options.server),
    new Client({ name: 'workshop-test', version: '0.0.0' }, options.client),
  );
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
    taskEvents: overrides.taskEvents ?? createTaskEvents(),
    now: overrides.now ?? (() => new Date('2026-07-28T12:00:00Z')),
    logger: overrides.logger ?? createSilentLogger(),
  };
}
