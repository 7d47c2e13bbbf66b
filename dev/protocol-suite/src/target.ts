/**
 * @module target
 * The server a revision's describe block tests: the URL from the environment, or (unset) the
 * conformance catalogue (`@mcp-workshop/conformance-server`: the workshop's with the fixtures)
 * started by the host on 127.0.0.1 with the settings the cases expect. Both are loaded only then,
 * so a run against a URL never loads the catalogue.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUITE_PAGE_SIZE } from './cases/tools.js';
import type { SuiteServer } from './harness.js';

/** A fixed clock, so time-dependent answers (get_time, due dates) are the same in every run. */
export const SUITE_NOW = new Date('2026-07-28T12:00:00Z');

/** Generous: cases open extra sessions, and the registry must never refuse one mid-suite. */
export const SUITE_MAX_SESSIONS = 1_000;

export interface SuiteTarget extends SuiteServer {
  /** Stops the server the suite started (and deletes its data); a no-op for a given URL. */
  close(): Promise<void>;
}

/** The given server, or a local workshop server paging by 3 with the conformance fixtures. */
export async function openTarget(given: SuiteServer | undefined): Promise<SuiteTarget> {
  if (given) return { ...given, close: async () => undefined };
  const { startCatalogue } = await import('@mcp-workshop/mcp-host/run');
  const { conformanceCatalogue } = await import('@mcp-workshop/conformance-server');
  const dataDir = await mkdtemp(join(tmpdir(), 'protocol-suite-'));
  try {
    const server = await startCatalogue(conformanceCatalogue, {
      env: { DATA_DIR: dataDir, MCP_PAGE_SIZE: String(SUITE_PAGE_SIZE) },
      now: () => SUITE_NOW,
      maxSessions: SUITE_MAX_SESSIONS,
    });
    return {
      baseUrl: server.baseUrl,
      mcpUrl: server.mcpUrl,
      async close() {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
