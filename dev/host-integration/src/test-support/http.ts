/**
 * @module test-support/http
 * Starts the workshop catalogue on 127.0.0.1 with a port the OS picks, as the host's
 * `startCatalogue` serves it, backed by a temporary task database and the offline weather, for
 * tests that speak HTTP. The raw HTTP helpers they send with (`EraClient`, `postInitialize`, …)
 * come from `@mcp-workshop/test-infra`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalCatalogueOptions } from '@mcp-workshop/mcp-host/run';
import { expect } from 'vitest';
import { type LocalWorkshop, startWorkshop } from './workshop.js';

export type TestServer = LocalWorkshop;

export const FIXED_NOW = new Date('2026-07-28T12:00:00Z');

/** A server with a fixed clock and a fresh temporary database; `close()` deletes the database too. */
export async function startTestServer(options: LocalCatalogueOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-workshop-http-'));
  const server = await startWorkshop({
    now: () => FIXED_NOW,
    ...options,
    env: { DATA_DIR: dataDir, ...options.env },
  });
  return {
    ...server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the curl path answers for a tool call: the tool's result as JSON. */
export interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
}

/** Calls a tool through the curl path (`POST /tools/:name`); the route itself must answer 200. */
export async function callToolRoute(
  baseUrl: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer> {
  const response = await fetch(`${baseUrl}/tools/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ToolAnswer;
}
