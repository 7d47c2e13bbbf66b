/**
 * @module mcp/test-support/workshop
 * The real workshop MCP server (the same express app `pnpm start` serves), on 127.0.0.1 with an
 * OS-picked port, offline weather and a temporary task database: `startWorkshop()` from the
 * agent's test harness, seen through the URL the MCP tests connect to.
 */
import { tools as workshopTools } from '@mcp-workshop/mcp-server';
import { startWorkshop } from '../../test-support/harness.js';

export interface WorkshopServer {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  close(): Promise<void>;
}

/** The workshop server's tool count, read from its own list of tools. */
export const WORKSHOP_TOOL_COUNT = workshopTools.length;

export async function startWorkshopServer(): Promise<WorkshopServer> {
  const server = await startWorkshop();
  return { url: server.mcpUrl, close: () => server.close() };
}
