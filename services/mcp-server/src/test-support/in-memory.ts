/**
 * @module test-support/in-memory
 * Connects the official MCP client to a fresh server over an in-process transport, so tool
 * tests exercise the same validation and wire shapes as a real client, without a socket. With
 * `authInfo`, every message arrives as if over HTTP with that verified token (`ctx.http.authInfo`),
 * so tests can play two signed-in users against one store.
 */

import { connectInProcess, type InProcessConnection } from '@mcp-workshop/mcp-host/in-process';
import type { RegisterContext } from '@mcp-workshop/mcp-host/kit';
import { createSilentLogger } from '@mcp-workshop/mcp-host/logger';
import { createTodoEvents } from '@mcp-workshop/task-store';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import type { AuthInfo, McpServer } from '@modelcontextprotocol/server';
import type { ToolDeps } from '../deps.js';
import { createMcpServer, type TestServerOptions } from './server.js';

export type Connected = InProcessConnection;

export interface ConnectOptions {
  /** Passed to `createMcpServer`, e.g. `{ pageSize: 3 }`. */
  server?: TestServerOptions;
  /** Passed to the `Client`, e.g. `{ capabilities: { elicitation: {} } }`. */
  client?: ClientOptions;
  /** The verified token every request carries, as the HTTP layer would pass it; none: sign-in off. */
  authInfo?: AuthInfo;
}

/** Opens a client on a new server built from `deps`. Always `await close()` (use afterEach). */
export async function connectInMemory(deps: ToolDeps, options: ConnectOptions = {}): Promise<Connected> {
  const server = createMcpServer(deps, options.server);
  const client = new Client({ name: 'workshop-test', version: '0.0.0' }, options.client);
  return connectInProcess(server, client, options.authInfo);
}

/** Connects `client` to `server` so that every request carries `authInfo`, as over HTTP with sign-in. */
export function connectAs(
  server: McpServer,
  authInfo: AuthInfo,
  client: Client = new Client({ name: 'workshop-test', version: '0.0.0' }),
): Promise<Connected> {
  return connectInProcess(server, client, authInfo);
}

/** A verified token for `sub` with `scopes`, as the resource server would make it. */
export function tokenFor(sub: string, scopes: readonly string[]): AuthInfo {
  return {
    token: `test-token-${sub}`,
    clientId: 'workshop-test-client',
    scopes: [...scopes],
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    extra: { sub },
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
    todos: overrides.todos ?? unset('todos'),
    todoEvents: overrides.todoEvents ?? createTodoEvents(),
    now: overrides.now ?? (() => new Date('2026-07-28T12:00:00Z')),
    logger: overrides.logger ?? createSilentLogger(),
  };
}

/** What registering an item gets, around `deps`: no MCP Tasks runtime. */
export function registerContext(deps: ToolDeps): RegisterContext<ToolDeps> {
  return { deps, logger: deps.logger, runs: undefined };
}
