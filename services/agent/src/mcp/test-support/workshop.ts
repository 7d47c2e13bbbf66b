/**
 * @module mcp/test-support/workshop
 * The real workshop MCP server for the MCP tests: the built server as its own process
 * (`test-support/workshop-process.ts`), and its tool list as a plain SDK client sees it, so the
 * tests compare the hub with the server rather than with a number that changes as tools are added.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startWorkshopProcess } from '../../test-support/workshop-process.js';

export interface WorkshopServer {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  close(): Promise<void>;
}

/** A bound on `tools/list` pages, so a broken cursor cannot loop forever. */
const MAX_PAGES = 100;

export async function startWorkshopServer(): Promise<WorkshopServer> {
  const server = await startWorkshopProcess();
  return { url: server.mcpUrl, close: () => server.close() };
}

/**
 * Every tool name the server at `url` lists for a model, every page read, straight through the SDK
 * client: a tool whose MCP Apps `_meta.ui.visibility` leaves out "model" is only for its view.
 */
export async function listModelToolNames(url: string): Promise<string[]> {
  const client = new Client({ name: 'agent-test-lister', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor });
      for (const tool of result.tools) {
        const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
        if (!Array.isArray(visibility) || visibility.includes('model')) names.push(tool.name);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return names;
  } finally {
    await client.close();
  }
}
